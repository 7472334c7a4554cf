import Testing

/// Issue 34's fault matrix: each fault a directory's server (or file) goes
/// through, crossed with each thing a user does meanwhile, and what the
/// screen says while it lasts. `FaultMatrixTests` runs every cell end to
/// end (the real binary in tmux, the faults made for real); what the
/// screen says in each is quoted in docs/databases.md's table, and a test
/// checks that it is.
enum FaultMatrix {
    enum Engine: String, CaseIterable, Sendable {
        case postgres = "PostgreSQL"
        case sqlite = "SQLite"
    }

    enum Fault: String, CaseIterable, Sendable {
        case restarted = "server restarted"
        case terminated = "backend terminated"
        case frozen = "server frozen"
        /// PostgreSQL: `LOCK TABLE … ACCESS EXCLUSIVE`; SQLite: the file's
        /// lock, `BEGIN EXCLUSIVE` (readers wait too).
        case locked = "table locked"
        case cut = "connection cut mid-read"
        /// SQLite's write lock alone, `BEGIN IMMEDIATE`: readers go on.
        case writeLocked = "write lock held"
        /// Another file put at the SQLite file's path (a restore, `mv`).
        case replaced = "file replaced"
    }

    enum Activity: String, CaseIterable, Sendable {
        case browsing
        case searching
        case saving = "saving from the form"
        case sending = "sending the outbox"
        case listening
    }

    /// One Roster, through `activities` in turn, under one fault.
    struct Row: Sendable, CustomTestStringConvertible {
        let engine: Engine
        let fault: Fault
        let activities: [Activity]
        var testDescription: String { "\(engine.rawValue), \(fault.rawValue): \(activities.map(\.rawValue).joined(separator: ", "))" }
        var name: String { "\(engine.rawValue), \(fault.rawValue)" }
    }

    /// Every cell that applies, in rows that run side by side. A fault
    /// noticed only after a statement's 10 s (PostgreSQL frozen, locked) or
    /// the busy timeout's 5 s (SQLite locked) gives its slow activities a
    /// Roster each, so that the whole matrix takes about as long as its
    /// slowest cell rather than the sum of a row's.
    static let rows: [Row] = {
        let all = Activity.allCases
        let afterTheReads: [Activity] = [.saving, .sending, .listening]
        return [
            Row(engine: .postgres, fault: .restarted, activities: all),
            Row(engine: .postgres, fault: .terminated, activities: all),
            Row(engine: .postgres, fault: .cut, activities: all),
            Row(engine: .postgres, fault: .frozen, activities: [.browsing]),
            Row(engine: .postgres, fault: .frozen, activities: [.searching]),
            Row(engine: .postgres, fault: .frozen, activities: afterTheReads),
            Row(engine: .postgres, fault: .locked, activities: [.browsing]),
            Row(engine: .postgres, fault: .locked, activities: [.searching]),
            Row(engine: .postgres, fault: .locked, activities: afterTheReads),
            Row(engine: .sqlite, fault: .locked, activities: [.browsing, .searching]),
            Row(engine: .sqlite, fault: .locked, activities: afterTheReads),
            Row(engine: .sqlite, fault: .writeLocked, activities: all),
            Row(engine: .sqlite, fault: .replaced, activities: all),
        ].map { row in Row(engine: row.engine, fault: row.fault, activities: row.activities.filter { applies(row.engine, row.fault, $0) }) }
    }()

    /// What the screen says while a fault lasts.
    enum Said: Equatable, Sendable {
        /// Stages, in order, each a list of texts that all show at once;
        /// then it heals. No stage: it says nothing new meanwhile (nothing
        /// was asked of the server), and shows the result once it answers.
        case stages([[String]])
        /// Nothing: the activity works through the fault as if it were not
        /// there (the result shows while the fault lasts).
        case unaffected
        /// Why the cell does not apply: it is not run, and not faked.
        case notApplicable(String)
    }

    static func applies(_ engine: Engine, _ fault: Fault, _ activity: Activity) -> Bool {
        if case .notApplicable = said(engine, fault, activity) { return false }
        return true
    }

    static let lost = "connection lost, r reconnects"
    static let sending = "sending the edits made offline…"
    static let keptOffline = "saved offline; 1 edit unsent ⇡"
    static let unsent = "1 unsent ⇡"
    static let stoppedSending = "the rest not sent yet (the server closed the connection); kept"
    static let changedInTheFile = "changed in the database; read again"
    static let noServer = "no server: Roster opens an SQLite file itself"
    static let noFileOfItsOwn = "not a fault of PostgreSQL: a server's files are its own"
    static let readersNeverWait = "not a fault of its own in PostgreSQL: readers never wait on a writer, and a save waits as under table locked"

    /// What the screen says in one cell.
    static func said(_ engine: Engine, _ fault: Fault, _ activity: Activity) -> Said {
        switch engine {
        case .postgres: postgres(fault, activity)
        case .sqlite: sqlite(fault, activity)
        }
    }

    private static func postgres(_ fault: Fault, _ activity: Activity) -> Said {
        switch (fault, activity) {
        case (.replaced, _): .notApplicable(noFileOfItsOwn)
        case (.writeLocked, _): .notApplicable(readersNeverWait)
        case (.frozen, .browsing): .stages([["loading…"], [lost, "not loaded: connection lost"]])
        case (.locked, .browsing): .stages([["loading…"], ["query stopped after 10 s", "not loaded: query stopped after 10 s"]])
        case (_, .browsing): .stages([[lost, "not loaded: connection lost"]])
        case (.frozen, .searching): .stages([["searching:"], [lost, "search failed: connection lost"]])
        case (.locked, .searching): .stages([["searching:"], ["query stopped after 10 s", "search failed: query stopped after 10 s"]])
        case (_, .searching): .stages([[lost, "search failed: connection lost"]])
        case (.locked, .saving): .stages([["saving…"], ["waiting: table people is locked, or the server busy (Esc stops waiting)"]])
        case (_, .saving): .stages([["saving…"], [lost, keptOffline]])
        // Ended under it, the server answering all along: sent again at once.
        case (.frozen, .sending), (.locked, .sending), (.terminated, .sending): .stages([[sending, unsent]])
        case (_, .sending): .stages([[sending, unsent], [lost, stoppedSending]])
        case (.frozen, .listening), (.locked, .listening): .stages([])
        case (_, .listening): .stages([[lost]])
        }
    }

    private static func sqlite(_ fault: Fault, _ activity: Activity) -> Said {
        guard [.locked, .writeLocked, .replaced].contains(fault) else { return .notApplicable(noServer) }
        guard activity != .sending else { return .notApplicable("no outbox: a local file is never offline") }
        let waiting = "waiting: another program is writing to people.db (Esc stops waiting)"
        return switch (fault, activity) {
        case (.locked, .browsing): .stages([["loading…"], ["database busy: another program is writing to it", "not loaded: database busy"]])
        case (.locked, .searching): .stages([["searching:"], ["search failed: database busy: another program is writing to it"]])
        case (.locked, .saving), (.writeLocked, .saving): .stages([["saving…"], [waiting]])
        case (.locked, _), (.writeLocked, .listening): .stages([])
        case (.writeLocked, _): .unaffected
        case (.replaced, .saving): .unaffected
        default: .stages([[changedInTheFile]])
        }
    }
}
