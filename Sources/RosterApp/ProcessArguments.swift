import RosterCore
#if canImport(Glibc)
import Glibc
#endif

/// Takes the passwords out of this process's own command line as the
/// kernel shows it to every user (`ps`, `/proc/PID/cmdline`): a target
/// such as `postgres://ann:PW@db/hr` or `host=db password=PW` would stay
/// readable there for the whole session. As PostgreSQL's `ps_status` does,
/// the argument strings are rewritten where the kernel keeps them (one
/// block of memory, which `argv` points into), once the program has its
/// own copy (`CommandLine.arguments`). The rest of each argument stays, so
/// `ps` still says what runs; a password reads `***` there.
enum ProcessArguments {
    /// What stands in for a password: never longer than the password, so
    /// the arguments fit where they were.
    static func masked(_ argument: [UInt8]) -> [UInt8] {
        var masked: [UInt8] = []
        var next = 0
        for range in SecretRedaction.passwordRanges(in: argument) where !range.isEmpty {
            masked += argument[next..<range.lowerBound]
            masked += repeatElement(UInt8(ascii: "*"), count: min(3, range.count))
            next = range.upperBound
        }
        return masked + argument[next...]
    }

    /// Hides the passwords in this process's arguments (the program's copy
    /// is taken first, and keeps them).
    static func hidePasswords() {
        _ = CommandLine.arguments
        rewrite(CommandLine.unsafeArgv, count: Int(CommandLine.argc))
    }

    /// Rewrites the `count` strings of `argv` with their passwords masked.
    /// Strings that follow one another in memory (as the kernel lays them
    /// out) are closed up, the pointers moved with them, and the bytes
    /// freed at the end zeroed; others are masked each in its own place.
    /// True when anything changed.
    @discardableResult
    static func rewrite(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int) -> Bool {
        let pointers = (0..<count).compactMap { argv[$0] }
        guard pointers.count == count, count > 0 else { return false }
        let originals = pointers.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        let replaced = originals.map(masked)
        guard replaced != originals else { return false }
        let isOneBlock = (1..<count).allSatisfy { pointers[$0] == pointers[$0 - 1] + originals[$0 - 1].count + 1 }
        var offset = 0
        for index in 0..<count {
            let place = isOneBlock ? pointers[0] + offset : pointers[index]
            let room = isOneBlock ? replaced[index].count : originals[index].count
            for (at, byte) in replaced[index].enumerated() { place[at] = CChar(bitPattern: byte) }
            // A NUL after the argument, and over whatever of the old one is left.
            (place + replaced[index].count).initialize(repeating: 0, count: room - replaced[index].count + 1)
            argv[index] = place
            offset += replaced[index].count + 1
        }
        if isOneBlock {
            let end = originals.reduce(0) { $0 + $1.count + 1 }
            (pointers[0] + offset).initialize(repeating: 0, count: end - offset)
        }
        return true
    }
}
