import Foundation
import RosterCore
#if canImport(Glibc)
import Glibc
#endif

extension Platform {
    /// Runs `arguments` (the first found on PATH) as a child process, never
    /// through a shell, with `input` on its standard input and its output
    /// and errors discarded. True when it read its input and exited 0
    /// within `timeout`; a child still running then is killed.
    ///
    /// The input goes through a socket pair sent with `MSG_NOSIGNAL` (and
    /// `MSG_DONTWAIT`, so the deadline holds), not a
    /// pipe: a child that exits early must not raise SIGPIPE, which the app
    /// treats as a reason to end.
    static func run(_ arguments: [String], input: [UInt8], timeout: Duration = .seconds(2)) -> Bool {
        guard let program = arguments.first else { return false }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { return false }
        let (childEnd, ourEnd) = (ends[0], ends[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, childEnd, STDIN_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        // Nothing else of ours reaches the child: not our end of the pair,
        // not a database's socket, not a file being written.
        Descriptor.closeInChild(from: 3, &actions)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = SpawnAttributes.withDefaultSignals { posix_spawnp(&child, program, &actions, $0, argv, environ) }
        close(childEnd)
        guard spawned == 0 else {
            close(ourEnd)
            return false
        }
        let deadline = ContinuousClock.now + timeout
        let sent = send(input, to: ourEnd, before: deadline)
        close(ourEnd)
        return waitForExit(of: child, before: deadline) && sent
    }

    /// Milliseconds until `deadline`, at least 0.
    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return 0 }
        return Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
    }

    private static func send(_ input: [UInt8], to socket: Int32, before deadline: ContinuousClock.Instant) -> Bool {
        var offset = 0
        while offset < input.count {
            var ready = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            guard poll(&ready, 1, milliseconds(until: deadline)) > 0 else { return false }
            let written = input[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if written > 0 {
                offset += written
            } else if errno != EINTR && errno != EAGAIN {
                return false
            }
        }
        return true
    }

    /// Whether `child` exited 0 before `deadline`; killed (and reaped) if not.
    private static func waitForExit(of child: pid_t, before deadline: ContinuousClock.Instant) -> Bool {
        var status: Int32 = 0
        while true {
            let reaped = waitpid(child, &status, WNOHANG)
            if reaped == child { return status == 0 }
            if reaped < 0, errno != EINTR { return false }
            guard milliseconds(until: deadline) > 0 else {
                kill(child, SIGKILL)
                _ = waitpid(child, &status, 0)
                return false
            }
            _ = poll(nil, 0, 5)
        }
    }
}

extension Platform {
    /// The entries of `folder` (`""`: the current one), folders ending in
    /// `/`; none when it cannot be read.
    static func fileNames(in folder: String) -> [String] {
        let path = folder.isEmpty ? "." : folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.map { name in
            var isFolder: ObjCBool = false
            let joined = path.hasSuffix("/") ? path + name : path + "/" + name
            return FileManager.default.fileExists(atPath: joined, isDirectory: &isFolder) && isFolder.boolValue ? name + "/" : name
        }
    }
}

extension FileExportWriter {
    /// For Tab in the export prompt.
    func fileNames(in folder: String) -> [String] {
        Platform.fileNames(in: folder)
    }
}
