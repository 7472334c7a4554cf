#if canImport(Glibc)
import Glibc
#endif

// The one libFuzzer entry point of `make fuzz`: the four harnesses are
// built into one binary (one optimised compile of RosterCore, not four),
// and ROSTER_FUZZ_TARGET names the one a run drives.
/// Checks ROSTER_FUZZ_TARGET before the first input (a wrong name ends
/// the run here, not as a "crash" saved among the regressions).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = chosenHarness
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    chosenHarness(data, size)
}

/// The harness ROSTER_FUZZ_TARGET names (`loader`, `writers`, `state`,
/// `fields`); any other value ends the run with a message.
private let chosenHarness: @Sendable (UnsafePointer<UInt8>, Int) -> CInt = {
    let name = getenv("ROSTER_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    switch name {
    case "loader": return { fuzzLoader($0, $1) }
    case "writers": return { fuzzWriters($0, $1) }
    case "state": return { fuzzState($0, $1) }
    case "fields": return { fuzzFieldReaders($0, $1) }
    default:
        fputs("roster-fuzz: ROSTER_FUZZ_TARGET must be loader, writers, state or fields (was \"\(name)\")\n", stderr)
        exit(2)
    }
}()
