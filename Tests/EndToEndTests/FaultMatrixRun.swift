import Foundation
import RosterSQL
import Testing
import TestServers

/// One row of the fault matrix being run: one Roster in tmux on a
/// directory of the row's own, taken through each activity while the
/// row's fault is made (for real) and then ended, the screen read as it
/// goes. Every wait suspends rather than blocks, so that the rows run side
/// by side without holding the test run's two threads.
final class FaultMatrixRun {
    typealias Activity = FaultMatrix.Activity

    let row: FaultMatrix.Row
    let database: FaultMatrixDatabase
    let session: TmuxSession
    /// The lock the row's fault holds, while it does.
    private var heldLock: FaultMatrixDatabase.HeldLock?
    /// What each cell measured, for the report.
    private(set) var reports: [String] = []
    /// What the screen shows once the cell in progress has healed: over a
    /// server that answered all along (a backend terminated), it may heal
    /// before a look at the screen catches what it said meanwhile (a loaded
    /// machine looks seldom), and that is no failure.
    var healedBy: ScreenTest?

    init(_ row: FaultMatrix.Row) async throws {
        self.row = row
        database = try FaultMatrixDatabase(for: row)
        let homes = database.folder
        session = try TmuxSession("env PGPASSWORD=\(TestPostgres.password) XDG_CACHE_HOME=\(homes)/cache XDG_STATE_HOME=\(homes)/state "
                                  + "\(TmuxSession.shellQuoted(rosterBinary)) \(TmuxSession.shellQuoted(database.target))", columns: 120)
        check(.browsing, await until(.seconds(60)) { $0.contains("1/400") }, "the first frame")
        if case .postgres(let server, let name, _) = database.place {
            check(.listening, await until(.seconds(30)) { _ in (try? server.listeners(in: name)) == 1 }, "the change listener ready")
        }
    }

    /// Records a failed expectation, naming the cell.
    func check(_ activity: Activity, _ condition: Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if !condition {
            Issue.record("\(row.name), \(activity.rawValue): \(what); screen:\n\(session.screen())", sourceLocation: sourceLocation)
        }
    }

    // MARK: Waiting

    /// What the screen's tests take: a screen's text, true when it shows what is waited for.
    typealias ScreenTest = @Sendable (String) -> Bool

    /// When the screen first met `condition`, and what it showed then; nil
    /// after `limit` (longer at a slower pace: `TestPace`). It is looked at every `every` on a thread of its own,
    /// so the moment is taken when it happens, however busy the test run's
    /// two threads are (beside the suite's blocking tests, a suspended wait
    /// can resume seconds late, which would be counted against the heal).
    func firstSeen(_ limit: Duration, every: Duration = .milliseconds(250),
                   _ condition: @escaping ScreenTest) async -> (at: ContinuousClock.Instant, screen: String)? {
        let session = Unshared(session)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let clock = ContinuousClock()
                let deadline = clock.now + TestPace.scaled(limit)
                while true {
                    let screen = session.value.screen()
                    if condition(screen) { return continuation.resume(returning: (clock.now, screen)) }
                    if clock.now >= deadline { return continuation.resume(returning: nil) }
                    Thread.sleep(forTimeInterval: Double(every.components.attoseconds) / 1e18 + Double(every.components.seconds))
                }
            }
        }
    }

    /// Whether the screen meets `condition` within `limit`.
    func until(_ limit: Duration, every: Duration = .milliseconds(250), _ condition: @escaping ScreenTest) async -> Bool {
        await firstSeen(limit, every: every, condition) != nil
    }

    /// How long after `from` the screen first met `condition` (looked at
    /// every 0.2 s); nil if not within 30 s (at pace 1).
    func heal(from: ContinuousClock.Instant, _ condition: @escaping ScreenTest) async -> Duration? {
        await firstSeen(.seconds(30), every: .milliseconds(200), condition).map { $0.at - from }
    }

    /// Waits for stage `index` of what the screen says in `activity`, if it
    /// has one; and checks the screen never says the connection is back
    /// while its title says it is lost. The screen that said it; nil when
    /// it healed first (or there is no such stage).
    @discardableResult
    func expectSaid(_ activity: Activity, stage index: Int) async -> String? {
        guard case .stages(let stages) = FaultMatrix.said(row.engine, row.fault, activity), index < stages.count else { return nil }
        let texts = stages[index]
        let healed = row.fault == .terminated ? healedBy : nil
        let says: ScreenTest = { screen in texts.allSatisfy { screen.contains($0) } }
        let seen = await firstSeen(.seconds(45)) { says($0) || healed?($0) == true }
        check(activity, seen != nil, "the screen saying \(texts)")
        guard let screen = seen?.screen else { return nil }
        let healedFirst = !says(screen)
        if healedFirst { reports.append("fault matrix: \(row.name), \(activity.rawValue): healed before \(texts) was seen") }
        let lines = screen.components(separatedBy: "\n")
        let status = lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        check(activity, !((lines.first ?? "").contains(FaultMatrix.lost) && status.contains("reconnected")),
              "the status line saying 'reconnected' under a title saying the connection is lost")
        return healedFirst ? nil : screen
    }

    /// The title line says all is well: no loss, lock or failure.
    static func titleIsNormal(_ screen: String) -> Bool {
        let title = screen.components(separatedBy: "\n").first ?? ""
        return !["connection lost", "query stopped", "busy", "failed"].contains { title.contains($0) }
    }

    /// Records how long `activity` took to heal, and checks it was within
    /// 5 s: the promise, on a machine with a core to spare. More where
    /// ROSTER_TEST_PACE says the build is slower (a sanitizer's), and while
    /// the machine has more runnable work than cores (the whole suite,
    /// other runs beside it): a heal of 1 s alone took 7 s at a load of 9
    /// on 2 cores. At most four times as long.
    func report(_ activity: Activity, healed: Duration?) {
        let limit = TestPace.scaled(.seconds(5)) * Self.busyness()
        check(activity, healed.map { $0 < limit } ?? false,
              "healed with no key within \(limit) (took \(healed.map { "\($0)" } ?? "over \(TestPace.scaled(.seconds(30)))"))")
        let seconds = healed.map { String(format: "%.2f s", Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) } ?? "never"
        reports.append("fault matrix: \(row.name), \(activity.rawValue): healed in \(seconds)")
    }

    /// How much busier than its cores the machine has been lately, from 1
    /// to 4: its load average over the core count, or, where the kernel
    /// tells it, how long work waited for a core over the last 10 s
    /// (`/proc/pressure/cpu`'s `some avg10`: 75% waiting is 4 times as
    /// slow), whichever is more. The load average is over a minute, and
    /// lags: the matrix's first cells run as every row starts its Roster
    /// and servers at once, and a replaced file healed in 11 and 14 s there
    /// under a load average that still said 1.4.
    static func busyness() -> Double {
        var load = [Double](repeating: 0, count: 1)
        let average = getloadavg(&load, 1) == 1 ? load[0] / Double(ProcessInfo.processInfo.activeProcessorCount) : 1
        return min(4, max(1, average, waitingForACore()))
    }

    /// 1 / (1 - the share of the last 10 s some work waited for a core); 1 where unknown.
    static func waitingForACore() -> Double {
        guard let pressure = try? String(contentsOfFile: "/proc/pressure/cpu", encoding: .utf8),
              let some = pressure.split(separator: "\n").first(where: { $0.hasPrefix("some ") }),
              let field = some.split(separator: " ").first(where: { $0.hasPrefix("avg10=") }),
              let percent = Double(field.dropFirst("avg10=".count)) else { return 1 }
        return 1 / max(0.25, 1 - percent / 100)
    }

    // MARK: The fault

    /// Makes the row's fault: stops the server, ends Roster's backends,
    /// freezes or cuts the relay (`midRead`: once that many more of the
    /// server's bytes have passed), locks the table (or the file), or puts
    /// another file at the SQLite file's path, with `replacing`'s updates.
    @discardableResult
    func inflict(midRead: Int? = nil, replacing updates: [(id: String, assignment: String)] = []) throws -> ContinuousClock.Instant {
        switch (row.fault, database.place) {
        case (.restarted, .postgres(let server, _, _)): try server.stop()
        case (.terminated, .postgres(let server, let name, _)): _ = try server.terminateConnections(to: name)
        case (.frozen, .postgres(_, _, let relay?)): relay.freeze()
        case (.cut, .postgres(_, _, let relay?)): if let midRead { relay.cut(afterBytes: midRead) } else { relay.cut() }
        case (.locked, _): heldLock = try database.lock()
        case (.writeLocked, .sqlite): heldLock = try database.lock(writersOnly: true)
        case (.replaced, .sqlite): try database.replaceFile(updating: updates)
        default: Issue.record("\(row.name): no way to make this fault")
        }
        return ContinuousClock().now
    }

    /// Ends the fault made at `madeAt`: the server answers again from
    /// now on (a terminated backend's server answered all along, and a
    /// replaced file is there for good: the moment it was made).
    func answer(madeAt: ContinuousClock.Instant) throws -> ContinuousClock.Instant {
        switch (row.fault, database.place) {
        case (.restarted, .postgres(let server, _, _)): try server.startAgain()
        case (.frozen, .postgres(_, _, let relay?)), (.cut, .postgres(_, _, let relay?)): relay.thaw()
        case (.locked, _), (.writeLocked, _):
            try heldLock?.end()
            heldLock = nil
        default: return madeAt
        }
        return ContinuousClock().now
    }

    // MARK: Another writer

    /// A `roster update` running beside the test.
    struct Writer {
        let process: Process
        let what: String
        /// Where its standard error goes: what it said, if it fails.
        let errors: String

        /// Waits for it to exit, and checks that it saved.
        func finish() async throws {
            while process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "\(what) exited \(process.terminationStatus): \(said)")
        }
    }

    /// `roster update` of the person called `name`, straight to the
    /// database, as another program; started, not waited for.
    func anotherWriter(updates name: String, _ assignment: String) throws -> Writer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rosterBinary)
        process.arguments = ["update", database.directTarget, try OutboxEndToEndTests.recordID(of: name), assignment]
        process.environment = rosterEnvironment(FaultMatrixDatabase.password)
        let errors = database.folder + "/writer-\(UUID().uuidString).err"
        guard FileManager.default.createFile(atPath: errors, contents: nil), let said = FileHandle(forWritingAtPath: errors) else {
            throw FaultMatrixFailure("could not make \(errors)")
        }
        (process.standardInput, process.standardOutput, process.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice, said)
        try process.run()
        try said.close()
        return Writer(process: process, what: "\(row.name): roster update \(name) \(assignment)", errors: errors)
    }

    /// Quits Roster, and checks that nothing was left unsent.
    func quit() {
        session.send("q")
        #expect(session.exitStatus(timeout: 30) == 0, "\(row.name): q")
        let state = (try? FileManager.default.contentsOfDirectory(atPath: database.folder + "/state/roster")) ?? []
        #expect(!state.contains { $0.hasPrefix("outbox-") }, "\(row.name): nothing left unsent")
    }
}

/// A value handed to the thread that looks at the screen: the tmux session
/// is only read there (`screen()` runs a tmux client), while the test's
/// task waits for the answer.
struct Unshared<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
