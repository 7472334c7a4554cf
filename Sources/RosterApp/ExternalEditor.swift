import Foundation
import RosterCore
import RosterTUI
#if canImport(Glibc)
import Glibc
#endif

/// `v`: the user's own editor (`$VISUAL`, else `$EDITOR`, else `vi`, run
/// by `sh` as git runs it) on a private temporary file (0600, removed
/// after), with the terminal handed over while it runs.
enum ExternalEditor {
    /// The editor's command line and the variable it came from (nil: neither was set).
    struct Choice: Equatable {
        let command: String
        let variable: String?

        /// The program the command line runs: its first word ("code" of "code --wait").
        var program: String {
            command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? command
        }

        /// Where the command came from, and how to choose another.
        var origin: String {
            variable.map { "from $\($0); set VISUAL or EDITOR" } ?? "neither VISUAL nor EDITOR is set, so vi; set one"
        }
    }

    /// The editor's command line, from the environment: `$VISUAL`, else `$EDITOR`, else `vi`.
    static func choice(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Choice {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return Choice(command: value, variable: name) }
        }
        return Choice(command: "vi", variable: nil)
    }

    /// Why the editor gave nothing back, as the shell's status says it: 127
    /// is a command the shell could not find, 126 one it could not run.
    static func failure(status: Int32, of choice: Choice) -> String {
        let program = DisplayText.sanitized(choice.program)
        switch status {
        case ..<0: return "\(program) could not be started (\(choice.origin)); nothing saved"
        case 127: return "\(program): command not found (\(choice.origin))"
        case 126: return "\(program): not executable (\(choice.origin))"
        case 129...: return "\(program) was ended by signal \(status - 128); nothing saved"
        default: return "\(program) exited with status \(status); nothing saved"
        }
    }

    /// Runs the editor on `text`; the bytes the file held when it quit, or
    /// why there is nothing (it could not start, or failed, or the file
    /// is gone).
    @MainActor
    static func edit(_ text: String, on screen: Screen) -> Result<[UInt8], EditFailure> {
        let path = NSTemporaryDirectory() + "roster-edit-\(UUID().uuidString.prefix(12)).json"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(EditFailure(.failed, "cannot make a temporary file (\(Descriptor.describe(errno: errno)))")) }
        defer { unlink(path) }
        let written = Descriptor.writeAll(Array(text.utf8), to: descriptor)
        close(descriptor)
        guard written else { return .failure(EditFailure(.failed, "cannot write a temporary file")) }
        let editor = choice()
        var status: Int32 = -1
        screen.handOver { status = run(editor.command, on: path) }
        guard status == 0 else { return .failure(EditFailure(.failed, failure(status: status, of: editor))) }
        return readBack(path)
    }

    /// The edit file's bytes (an editor may have replaced it by a rename:
    /// the name is read, never through a link), or why not.
    static func readBack(_ path: String) -> Result<[UInt8], EditFailure> {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "the edit file was deleted" : "the edit file could not be read back (\(Descriptor.describe(errno: errno)))"
            return .failure(EditFailure(.failed, reason + "; nothing saved"))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              let bytes = FileSave.readAll(descriptor, count: Int(status.st_size)) else {
            return .failure(EditFailure(.failed, "the edit file could not be read back (it is not a regular file, or it changed); nothing saved"))
        }
        return .success(bytes)
    }

    /// `sh -c 'EDITOR "$1"' sh PATH`, waited for; its exit status (-1: not started).
    private static func run(_ editor: String, on path: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        Descriptor.closeInChild(from: 3, &actions)
        let words: [String] = ["sh", "-c", editor + " \"$1\"", "sh", path]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        guard SpawnAttributes.withDefaultSignals({ posix_spawn(&child, "/bin/sh", &actions, $0, argv, environ) }) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
