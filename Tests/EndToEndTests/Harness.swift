import Foundation
import RosterCore
import Testing

/// Where the built `roster` is: `ROSTER_BINARY` (set by `make test`), or
/// the debug build beside this package.
let rosterBinary: String = {
    if let path = ProcessInfo.processInfo.environment["ROSTER_BINARY"], !path.isEmpty { return path }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/roster").path
}()

/// What a finished process said.
struct Finished {
    var status: Int32
    var output: String
    var error: String
}

/// Where the commands these tests run keep their cache (`roster query`'s
/// indexes), unless a test names its own: never the user's ~/.cache.
let testCacheHome = NSTemporaryDirectory() + "roster-e2e-cache-\(getpid())"

/// The test process's environment for a roster it runs, with `environment` over it.
func rosterEnvironment(_ environment: [String: String]) -> [String: String] {
    ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": testCacheHome]) { $1 }.merging(environment) { $1 }
}

/// Runs `roster` with `arguments` outside any terminal.
func runRoster(_ arguments: [String], input: String? = nil, rawInput: [UInt8]? = nil,
               environment: [String: String] = [:]) throws -> Finished {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: rosterBinary)
    process.arguments = arguments
    process.environment = rosterEnvironment(environment)
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    // The input goes through a socket pair, sent with MSG_NOSIGNAL: a
    // roster that exits before reading it (a usage error) must not end the
    // test process with SIGPIPE, as a pipe written after its reader left does.
    // Close-on-exec: a server another test starts meanwhile (PostgreSQL
    // lives for the whole run) must not inherit an end, or the send below
    // would wait for ever once roster exits.
    var ends: [Int32] = [-1, -1]
    if input != nil, socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) != 0 {
        throw POSIXError(.EMFILE)
    }
    process.standardInput = input == nil ? FileHandle.nullDevice : FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
    try process.run()
    if let input {
        close(ends[0])  // the child has its copy: once it exits, a send fails rather than fills the buffer
        let bytes = rawInput ?? Array(input.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(ends[1], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if errno != EINTR {
                break  // roster stopped reading (it exited): what it said is the test's to check
            }
        }
        close(ends[1])
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Finished(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                    error: String(decoding: errorData, as: UTF8.self))
}

/// A real terminal: a tmux server of our own (`-L`), one pane of a fixed
/// size, keys sent and the screen captured as text.
final class TmuxSession {
    let socket = "roster-e2e-\(UUID().uuidString.prefix(8))"
    let statusFile = NSTemporaryDirectory() + "roster-e2e-\(UUID().uuidString).status"
    /// Each session remembers places in its own folder, never the user's.
    let stateHome = NSTemporaryDirectory() + "roster-e2e-state-\(UUID().uuidString)"

    /// Starts `command` (a shell command line) in a `columns`×`rows` pane,
    /// with a known environment (the test runner may set NO_COLOR).
    /// When it ends, the pane keeps a line "roster exited N" and the status
    /// is written to `statusFile`.
    init(_ command: String, rows: Int = 24, columns: Int = 80) throws {
        // The wrapper ignores SIGINT: Ctrl-C is a signal for the terminal's
        // whole foreground group, and the wrapper must live to report.
        let script = "trap '' INT; st=0; \(command) || st=$?; echo $st > '\(statusFile)'; echo \"roster exited $st\"; exec sleep 600"
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "main",
                  "env -u NO_COLOR TERM=tmux-256color LANG=C.UTF-8 XDG_STATE_HOME=\(stateHome) sh -c \(Self.shellQuoted(script))"])
    }

    /// Starts an interactive shell with job control (for Ctrl-Z and fg).
    init(shellRows rows: Int = 24, columns: Int = 80) throws {
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "main",
                  "env -u NO_COLOR TERM=tmux-256color LANG=C.UTF-8 XDG_STATE_HOME=\(stateHome) PS1='$ ' bash --norc --noprofile -i"])
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: statusFile)
        try? FileManager.default.removeItem(atPath: stateHome)
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs a tmux command on our socket and returns what it printed. The
    /// output goes through a file, not a pipe (the server that the first
    /// command forks would hold a pipe open for its whole life), and the
    /// child is spawned and reaped directly: Foundation's `Process` missed
    /// the exit of tmux's daemonizing client and waited forever.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "roster-tmux-\(UUID().uuidString).out"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let argv = ["tmux", "-L", socket] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The tmux server lives for the whole test: it must not keep open a
        // pipe or socket another test is waiting to see closed.
        Descriptor.closeInChild(from: 3, &actions)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        // The test runner may ignore or block signals, and both are
        // inherited: tmux (and the shells and roster in it) get defaults.
        var pid: pid_t = 0
        let spawned = SpawnAttributes.withDefaultSignals { posix_spawnp(&pid, "tmux", &actions, $0, &cArguments, environ) }
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// The pane's text now.
    func screen() -> String {
        (try? tmux(["capture-pane", "-p", "-t", "main"])) ?? ""
    }

    func lines() -> [String] {
        screen().components(separatedBy: "\n")
    }

    /// A tmux format of the pane, e.g. `#{alternate_on}`.
    func paneFlag(_ format: String) -> String {
        ((try? tmux(["display-message", "-p", "-t", "main", format])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends keys in tmux's names ("j", "Enter", "Escape", "C-c", "PPage").
    func send(_ keys: String...) {
        for key in keys { _ = try? tmux(["send-keys", "-t", "main", key]) }
    }

    /// Sends keys in one tmux command: they reach the terminal together,
    /// as from a paste or a fast typist.
    func sendBurst(_ keys: [String]) {
        _ = try? tmux(["send-keys", "-t", "main"] + keys)
    }

    /// Types text literally.
    func type(_ text: String) {
        _ = try? tmux(["send-keys", "-t", "main", "-l", text])
    }

    func resize(rows: Int, columns: Int) {
        _ = try? tmux(["resize-window", "-t", "main", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The pid of the process running in the pane.
    func panePID() -> Int32 {
        Int32(paneFlag("#{pane_pid}")) ?? 0
    }

    /// Waits until `condition` holds for the screen, polling, up to `timeout`.
    /// `quietly`: a timeout is an answer (something that must not happen), not an issue.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 15, quietly: Bool = false, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout * TestPace.factor)
        while Date() < deadline {
            if condition(screen()) { return true }
            usleep(20_000)
        }
        if !quietly { Issue.record("timed out waiting for \(what); screen:\n\(screen())") }
        return false
    }

    func waitFor(text: String, timeout: Double = 15) -> Bool {
        waitFor("'\(text)'", timeout: timeout) { $0.contains(text) }
    }

    /// The exit status written by the wrapper once roster has ended.
    func exitStatus(timeout: Double = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout * TestPace.factor)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: statusFile, encoding: .utf8),
               let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return status
            }
            usleep(20_000)
        }
        Issue.record("roster did not exit; screen:\n\(screen())")
        return nil
    }
}

/// How much slower than a plain debug build the binary under test runs:
/// `make sanitize` sets `ROSTER_TEST_PACE` (AddressSanitizer and
/// ThreadSanitizer slow every step several times, beside the whole suite
/// on two cores). Every wait's ceiling and every bound on how long a key
/// or a fault takes is multiplied by it, so that a sanitized run fails on
/// what is wrong, not on what is slow; `make test` runs them at 1.
enum TestPace {
    static let factor: Double = ProcessInfo.processInfo.environment["ROSTER_TEST_PACE"].flatMap(Double.init).map { max(1, $0) } ?? 1

    static func scaled(_ bound: Duration) -> Duration { bound * factor }
}

/// Finds the pid of the `roster` child of the pane's shell.
func rosterPID(under shellPID: Int32) -> Int32? {
    let children = (try? String(contentsOfFile: "/proc/\(shellPID)/task/\(shellPID)/children", encoding: .utf8)) ?? ""
    for child in children.split(separator: " ").compactMap({ Int32($0) }) {
        let command = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
        if command.hasPrefix("roster") { return child }
        if let deeper = rosterPID(under: child) { return deeper }
    }
    return nil
}

/// `count` people in the bundled file's shape, spread over 40 companies;
/// `named` gives some of them (by index) another first name, last name
/// and company.
func generatedPeople(_ count: Int, named: [Int: (first: String, last: String, company: String)] = [:]) -> String {
    var json = "[\n"
    json.reserveCapacity(count * 420)
    for index in 0..<count {
        let person = named[index] ?? ("First\(index)", "Last\(index % 997)", "COMPANY\(index % 40)")
        json += """
            {"_id": "p\(index)", "index": \(index), "isActive": \(index % 2 == 0), "balance": "$1,\(index % 1000).00", \
            "age": \(20 + index % 50), "eyeColor": "blue", "name": {"first": "\(person.first)", "last": "\(person.last)"}, \
            "company": "\(person.company)", "email": "person\(index)@example.test", "phone": "+1 (555) 000-\(index % 10_000)", \
            "address": "\(index) Long Street, Springfield, Oregon, \(10_000 + index % 90_000)", "favoriteFruit": "apple"}
            """
        json += index + 1 < count ? ",\n" : "\n]\n"
    }
    return json
}

/// Runs `roster` once per argument list, every process started before any
/// is waited for (a task group would run two at a time on this machine's
/// two cooperative threads); what each said, in the same order.
func runRosterAtOnce(_ runs: [[String]], environment: [String: String] = [:]) throws -> [Finished] {
    let started = try runs.map { arguments -> (Process, Pipe, Pipe) in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rosterBinary)
        process.arguments = arguments
        process.environment = rosterEnvironment(environment)
        let output = Pipe(), error = Pipe()
        (process.standardOutput, process.standardError, process.standardInput) = (output, error, FileHandle.nullDevice)
        try process.run()
        return (process, output, error)
    }
    return started.map { process, output, error in
        let said = output.fileHandleForReading.readDataToEndOfFile()
        let complained = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Finished(status: process.terminationStatus, output: String(decoding: said, as: UTF8.self),
                        error: String(decoding: complained, as: UTF8.self))
    }
}
