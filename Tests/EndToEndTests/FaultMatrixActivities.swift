import Foundation
import Testing

/// The activities of the fault matrix, each as a user does it while the
/// row's fault is made: the keys, when the fault comes, what is checked
/// once the server answers again.
extension FaultMatrixRun {
    /// Runs `activity`'s cell.
    func perform(_ activity: Activity) async throws {
        switch activity {
        case .browsing: try await browse()
        case .searching: try await search()
        case .saving: try await saveFromTheForm()
        case .sending: try await sendTheOutbox()
        case .listening: try await listen()
        }
    }

    /// Whether `activity` goes on through the row's fault as if it were not there.
    func isUnaffected(_ activity: Activity) -> Bool {
        FaultMatrix.said(row.engine, row.fault, activity) == .unaffected
    }

    /// Waits for what the screen says while the fault lasts, then ends it:
    /// the moment the server answers again. An activity the fault does not
    /// touch is done, there and then, before it ends.
    func sayThenAnswer(_ activity: Activity, madeAt made: ContinuousClock.Instant, done: @escaping ScreenTest) async throws -> ContinuousClock.Instant {
        if isUnaffected(activity) {
            check(activity, await until(.seconds(30), done), "done while the fault lasts")
        }
        await expectSaid(activity, stage: 0)
        await expectSaid(activity, stage: 1)
        return try answer(madeAt: made)
    }

    /// At the top of the list, the fault comes; `G` asks for rows not read yet.
    func browse() async throws {
        let phone = "+1 (555) 300-0000"
        try await top()
        // Cut: inside the rows of the list's end. Replaced: the last person (no company) has another phone.
        let made = try inflict(midRead: 600, replacing: [("304b1ad5c79ac214a5e8a843", "phone=\(phone)")])
        let replaced = row.fault == .replaced
        let done: ScreenTest = { screen in
            Self.titleIsNormal(screen) && screen.contains("Norton Noble") && !screen.contains("not loaded") && !screen.contains("loading…")
                && (!replaced || screen.contains(phone))
        }
        healedBy = done
        session.send("G")
        let answered = try await sayThenAnswer(.browsing, madeAt: made, done: done)
        report(.browsing, healed: await heal(from: answered, done))
    }

    /// The fault comes, then a search is typed.
    func search() async throws {
        // Cut: inside the first search's answer. Replaced: Agnes Sanchez is a Garza in the new file.
        let made = try inflict(midRead: 60, replacing: [("e51d8ca9aef85d6eb12d03ef", "last=Garza")])
        let found = row.fault == .replaced ? "/11 ·" : "/10 ·"
        if row.fault == .replaced { await expectSaid(.searching, stage: 0) }
        session.send("/")
        session.type("garza")
        session.send("Enter")
        let done: ScreenTest = { screen in
            Self.titleIsNormal(screen) && screen.contains(found) && screen.contains("filter: garza") && !screen.contains("search failed")
        }
        healedBy = done
        let answered: ContinuousClock.Instant
        if row.fault == .replaced {
            answered = made
        } else {
            answered = try await sayThenAnswer(.searching, madeAt: made, done: done)
        }
        report(.searching, healed: await heal(from: answered, done))
        session.send("Escape")
        check(.searching, await until(.seconds(30)) { $0.contains("/400 ·") && !$0.contains("filter:") }, "everyone again after Esc")
    }

    /// A save from the form, the fault made while it is on its way (at
    /// the gate, inside its transaction; a lock or another file before ⏎).
    func saveFromTheForm() async throws {
        let phone = "+1 (555) 301-0001"
        try await top()
        try await openForm(on: "Frank Dillon", phone: phone)
        let before = try (changes: database.lastChange(), applied: database.appliedOperations())
        let done: ScreenTest = { screen in
            Self.titleIsNormal(screen) && screen.contains(phone) && !screen.contains("⇡") && !screen.contains("Roster — Edit")
        }
        healedBy = done
        let answered: ContinuousClock.Instant
        if row.fault == .locked || !database.isPostgres {
            // Replaced: Renée Vega, of the same company, has another email in the new file (Frank as he was).
            let made = try inflict(replacing: [("76530aaf5972137329ffd8e4", "email=renee@replaced.test")])
            session.send("Enter")
            answered = try await sayThenAnswer(.saving, madeAt: made, done: done)
        } else {
            try database.closeGate()
            session.send("Enter")
            await expectSaid(.saving, stage: 0)
            check(.saving, await waitingAtGate(), "the save waiting inside its transaction")
            let made = try inflict()
            if row.fault != .restarted { try database.openGate() }
            if let said = await expectSaid(.saving, stage: 1) {
                check(.saving, said.contains("⇡ Frank Dillon"), "the person marked as having an edit unsent")
            }
            answered = try answer(madeAt: made)
            if row.fault == .restarted { try database.openGate() }
        }
        report(.saving, healed: await heal(from: answered, done))
        try expectLandedOnce(.saving, "Frank", "Dillon", phone: phone, since: before)
        if row.fault == .replaced {
            check(.saving, try database.text("SELECT email FROM people WHERE person_key = '76530aaf5972137329ffd8e4'") == "renee@replaced.test",
                  "saved into the new file")
        }
    }

    /// Edits kept in the outbox (a save whose connection was ended under
    /// it) are being sent, held at the gate, when the fault comes.
    func sendTheOutbox() async throws {
        let phone = "+1 (555) 302-0002"
        try await top()
        session.send("j")
        try await openForm(on: "José Garza", phone: phone)
        let before = try (changes: database.lastChange(), applied: database.appliedOperations())
        let done: ScreenTest = { screen in
            Self.titleIsNormal(screen) && screen.contains(phone) && !screen.contains("⇡") && !screen.contains("Roster — Edit")
        }
        healedBy = nil
        try database.closeGate()
        session.send("Enter")
        check(.sending, await waitingAtGate(), "the save waiting inside its transaction")
        try database.endRosterSessions()
        await expectSaid(.sending, stage: 0)
        check(.sending, !(session.lines().first ?? "").contains("connection lost"), "the title saying the connection is back while it sends")
        check(.sending, await waitingAtGate(), "the outbox being sent, waiting inside its transaction")
        let made = try inflict()
        healedBy = done
        if row.fault != .restarted { try database.openGate() }
        await expectSaid(.sending, stage: 1)
        var answered = try answer(madeAt: made)
        if row.fault == .restarted { try database.openGate() }
        answered = max(answered, ContinuousClock().now)
        report(.sending, healed: await heal(from: answered, done))
        try expectLandedOnce(.sending, "José", "Garza", phone: phone, since: before)
    }

    /// Another program saves while the fault lasts (or, over a restarted
    /// server, as soon as it answers; into the file now at the path once
    /// it was replaced): the change shows on its own.
    func listen() async throws {
        let phone = "+1 (555) 303-0003"
        let before = try database.lastChange()
        let done: ScreenTest = { screen in Self.titleIsNormal(screen) && screen.contains(phone) }
        healedBy = done
        let made = try inflict(replacing: [("fc867c11cc0e799c9d32a4a7", "phone=+1 (555) 303-0000")])
        let answered: ContinuousClock.Instant
        switch row.fault {
        case .terminated:
            // The server answers all along: the other program saves at once, and it shows once Roster is back.
            let writer = try anotherWriter(updates: "Tammy Noble", "phone=\(phone)")
            await expectSaid(.listening, stage: 0)
            try await writer.finish()
            answered = made
        case .restarted:
            await expectSaid(.listening, stage: 0)
            answered = try answer(madeAt: made)
            try await anotherWriter(updates: "Tammy Noble", "phone=\(phone)").finish()
        case .locked, .writeLocked:
            // Its save waits on the lock, and commits once it is released.
            await expectSaid(.listening, stage: 0)
            let writer = try anotherWriter(updates: "Tammy Noble", "phone=\(phone)")
            check(.listening, await waitingForALock(writer), "the other program's save waiting on the lock")
            _ = try answer(madeAt: made)
            try await writer.finish()
            answered = ContinuousClock().now
        default:
            await expectSaid(.listening, stage: 0)
            try await anotherWriter(updates: "Tammy Noble", "phone=\(phone)").finish()
            check(.listening, row.fault == .replaced || !session.screen().contains(phone), "the change not shown before the server answers")
            answered = try answer(madeAt: made)
        }
        report(.listening, healed: await heal(from: max(answered, ContinuousClock().now), done))
        check(.listening, try database.updates(of: "Tammy", "Noble", after: before) == 1, "the change logged once")
    }

    // MARK: Steps

    /// The top of the list, everyone shown.
    func top() async throws {
        session.send("g")
        check(.browsing, await until(.seconds(30)) { $0.contains("1/400 ·") }, "the top of the list")
    }

    /// The form on the selected person `name`, their phone typed over.
    func openForm(on name: String, phone: String) async throws {
        session.send("E")
        check(.saving, await until(.seconds(30)) { $0.contains("Roster — Edit \(name)") }, "the form on \(name)")
        session.send("Tab", "Tab", "Tab", "Tab", "C-u")
        session.type(phone)
    }

    func waitingAtGate() async -> Bool {
        await eventually { self.database.isWaitingAtGate() }
    }

    /// Whether `writer` waits on the lock the row holds: PostgreSQL has a
    /// lock not granted; SQLite says nothing of a connection waiting, so
    /// `writer` has the file open (its next step is the write it waits for).
    func waitingForALock(_ writer: Writer) async -> Bool {
        guard case .sqlite(let path) = database.place else {
            return await eventually { ((try? self.database.integer("SELECT count(*) FROM pg_locks WHERE NOT granted")) ?? 0) > 0 }
        }
        let descriptors = "/proc/\(writer.process.processIdentifier)/fd"
        return await eventually {
            let open = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
            return open.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + $0)) == path }
        }
    }

    /// Whether `condition` holds within 30 s, asked every 20 ms.
    func eventually(_ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while clock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// The edit is in the table, logged once and applied once.
    func expectLandedOnce(_ activity: Activity, _ first: String, _ last: String, phone: String,
                          since before: (changes: Int, applied: Int)) throws {
        check(activity, try database.phone(of: first, last) == phone, "the edit in the table")
        check(activity, try database.updates(of: first, last, after: before.changes) == 1, "the edit logged once")
        if database.isPostgres {
            check(activity, try database.appliedOperations() - before.applied == 1, "the edit applied once")
        }
    }
}
