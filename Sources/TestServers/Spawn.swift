import Foundation
import RosterCore

/// Starting the servers' programs (`initdb`, `pg_ctl`, `slapadd`, `slapd`)
/// with `posix_spawn`: Foundation's `Process` can miss the exit of
/// `runuser` (seen here), and a server must inherit none of the test
/// process's descriptors.
enum Spawn {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `command` with its output (both streams) going to the file
    /// at `outputPath`, and returns its process id without waiting. The
    /// child inherits no descriptor past standard error: a server lives
    /// for the whole run, and must not hold a pipe or socket of a test
    /// running meanwhile (that test would wait for ever for its other end
    /// to close).
    static func start(_ command: [String], outputPath: String) throws(Failed) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        Descriptor.closeInChild(from: 3, &actions)
        var arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var child: pid_t = 0
        let spawned = SpawnAttributes.withDefaultSignals { posix_spawn(&child, command[0], &actions, $0, &arguments, environ) }
        guard spawned == 0 else { throw Failed(description: "\(command[0]) could not start (\(spawned))") }
        return child
    }

    /// Waits for `child` to end; its wait status.
    @discardableResult
    static func wait(for child: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1, errno == EINTR {}
        return status
    }

    /// Runs `command` to its end; fails with its output when it fails.
    /// Output goes to a file, not a pipe: a server it starts could keep a
    /// pipe open, and reading it to the end would never finish.
    static func run(_ command: [String]) throws(Failed) {
        let outputPath = NSTemporaryDirectory() + "roster-test-command-\(getpid())-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = wait(for: try start(command, outputPath: outputPath))
        guard status == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw Failed(description: "\(command.joined(separator: " ")) failed: \(text)")
        }
    }

    /// A fresh private directory under /tmp whose name starts with `prefix`.
    static func makeDirectory(prefix: String) throws(Failed) -> String {
        var path = Array(("/tmp/" + prefix + "XXXXXX").utf8CString)
        guard mkdtemp(&path) != nil else { throw Failed(description: "mkdtemp failed: \(Descriptor.describe(errno: errno))") }
        return String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
