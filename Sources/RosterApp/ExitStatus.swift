#if canImport(Glibc)
import Glibc
#endif

/// How `roster` ends, as the shell sees it (`man roster`, EXIT STATUS).
public struct ExitStatus: Equatable, Sendable {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    public static let success = ExitStatus(code: 0)
    /// Data that could not be read, or output that could not be written.
    public static let failure = ExitStatus(code: 1)
    /// A mistake on the command line.
    public static let usage = ExitStatus(code: 2)
    /// Ended by `signal`, the shell's way: 128 + its number.
    public static func signal(_ signal: Int32) -> ExitStatus { ExitStatus(code: 128 + signal) }
    /// Ctrl-C.
    public static let interrupted = signal(SIGINT)
}
