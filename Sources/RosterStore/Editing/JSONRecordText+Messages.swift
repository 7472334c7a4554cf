#if !ROSTER_FUZZ
import RosterCore
#endif

/// What a save says when the file no longer reads as JSON: the file, the
/// line and the column.
extension JSONRecordText {
    static func unreadable(_ failure: ScanFailure, _ bytes: UnsafeBufferPointer<UInt8>, sourceName: String) -> EditFailure {
        switch failure {
        case .syntax(let message, let offset):
            let (line, column) = lineAndColumn(of: offset, in: bytes)
            return EditFailure(.unreadable, "\(sourceName), line \(line), column \(column): \(message); nothing written")
        case .empty, .needMore:
            return EditFailure(.unreadable, "\(sourceName): the file ends too early; nothing written")
        case .notAList(let found):
            return EditFailure(.unreadable, "\(sourceName): expected a list of people, found \(found); nothing written")
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    static func lineAndColumn(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = bytes[lineStart..<min(offset, bytes.count)].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (line, column)
    }
}

/// A `EditFailure` carried through code that throws `ScanFailure`.
struct EditFailureBox: Error {
    let failure: EditFailure
    static func refused(_ message: String) -> EditFailureBox { EditFailureBox(failure: EditFailure(.failed, message)) }
}
