import RosterCore
import RosterSQL
#if canImport(Glibc)
import Glibc
#endif

/// Asks for a database password on the terminal when the server wants one
/// that `~/.pgpass`, `PGPASSWORD` and the connection string did not give.
///
/// Only when standard input and output are both a terminal (someone is
/// there to type); otherwise there is no prompt and the connection fails
/// with libpq's one-line reason. The password goes to libpq as a
/// parameter of its own and nowhere else: no title, message or state file.
final class PasswordPrompt {
    /// Whether the user pressed Ctrl-C at the prompt (exit 130, as for SIGINT).
    private(set) var wasInterrupted = false
    private let terminal: Int32

    /// The prompt for this process, or nil when nobody is at a terminal.
    static func forThisTerminal() -> PasswordPrompt? {
        guard Platform.isTerminal(STDIN_FILENO), Platform.isTerminal(STDOUT_FILENO) else { return nil }
        let terminal = HiddenInput.openTerminal()
        return terminal < 0 ? nil : PasswordPrompt(terminal: terminal)
    }

    /// Reads from, and prompts on, `terminal` (closed when done).
    init(terminal: Int32) {
        self.terminal = terminal
    }

    deinit {
        close(terminal)
    }

    /// What `PostgresConnection` calls: the typed password, or an error
    /// that ends the attempt.
    func ask(_ prompt: String) throws(DatabaseError) -> String {
        switch HiddenInput.readLine(prompt: DisplayText.sanitized(prompt), terminal: terminal) {
        case .line(let password):
            return password
        case .interrupted:
            wasInterrupted = true
            throw DatabaseError(.cancelled, "PostgreSQL: no password given (the prompt was interrupted)")
        case .failed(let reason):
            throw DatabaseError(.passwordRequired, "PostgreSQL asks for a password, and the terminal could not be read (\(reason))")
        }
    }

    /// The line typed after `prompt`, echo off (a directory server's password).
    func read(_ prompt: String) -> HiddenInput.Outcome {
        let outcome = HiddenInput.readLine(prompt: DisplayText.sanitized(prompt), terminal: terminal)
        if outcome == .interrupted { wasInterrupted = true }
        return outcome
    }

    /// Connects to PostgreSQL, asking for a password on this terminal if
    /// the server wants one (`prompt` nil: never asks).
    static func connect(_ conninfo: String, prompt: PasswordPrompt?) throws(DatabaseError) -> PostgresConnection {
        guard let prompt else { return try PostgresConnection(conninfo) }
        return try PostgresConnection(conninfo, askPassword: { text throws(DatabaseError) in try prompt.ask(text) })
    }
}
