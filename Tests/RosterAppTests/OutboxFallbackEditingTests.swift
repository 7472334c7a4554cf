import Foundation
import Testing
import TestSupport
@testable import RosterApp
import RosterCore
import RosterStore

/// Issue 34, item 2: the screens' edits of a server's table go to the
/// server while its connection works and to the outbox the moment it is
/// lost, chosen by the connection's state; an edit whose connection breaks
/// under it lands once, whether or not the server had it.
@Suite("Editing over a connection that can be lost")
struct OutboxFallbackEditingTests {
    /// A connection the test loses and brings back.
    final class Connection: Reconnecting, @unchecked Sendable {
        let lost = Locked(false)
        var isConnectionLost: Bool { lost.withLock { $0 } }
        func reconnect() throws(ReconnectFailure) { lost.withLock { $0 = false } }
    }

    /// A server that applies what it is sent once per operation id; told
    /// to, it commits an edit and then loses the connection before its
    /// reply (`breaksAfterCommit`), or refuses as a conflict.
    final class Server: PeopleEditing, OutboxDestination, @unchecked Sendable {
        let connection: Connection
        let applied = Locked<[String]>([])
        let calls = Locked<[String]>([])
        let breaksAfterCommit = Locked(false)
        let refusal = Locked<EditFailure?>(nil)

        init(connection: Connection) { self.connection = connection }

        func send(_ operation: RecordOperation, operationID: String, base: Person?, deleting: [Person]) throws(EditFailure) -> Bool {
            calls.withLock { $0.append("send \(operation)") }
            if connection.isConnectionLost { throw EditFailure(.failed, "the server closed the connection") }
            if let refusal = refusal.withLock({ $0 }) { throw refusal }
            let isNew = applied.withLock { applied in
                guard !applied.contains(operationID) else { return false }
                applied.append(operationID)
                return true
            }
            if breaksAfterCommit.withLock({ $0 }) {
                connection.lost.withLock { $0 = true }
                throw EditFailure(.failed, "the server closed the connection")
            }
            return isNew
        }

        func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure) {
            _ = try send(.update(id: recordID, changes: changes), operationID: UUID().uuidString, base: base, deleting: [])
        }

        func delete(_ people: [Person]) throws(EditFailure) {
            calls.withLock { $0.append("delete \(people.map(\.id))") }
            if connection.isConnectionLost { throw EditFailure(.failed, "the server closed the connection") }
        }

        func add(recordID: String, changes: [FieldChange]) throws(EditFailure) {
            _ = try send(.add(id: recordID, changes: changes), operationID: UUID().uuidString, base: nil, deleting: [])
        }
    }

    /// The editing under test over a fresh outbox, and the seed's people as shown.
    static func editing() throws -> (editing: OutboxFallbackEditing, server: Server, outbox: Outbox, people: [Person], cleanUp: () -> Void) {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("roster-fallback-\(UUID().uuidString)/roster")
        let outbox = Outbox(folder: folder, targetName: "postgres://ann@db/hr", table: "people")
        let server = Server(connection: Connection())
        // No offline copy on disk yet (none was kept): the edits are kept all the same.
        let editing = OutboxFallbackEditing(live: server, connection: server.connection,
                                            offline: OutboxEditing(outbox: outbox, copyPath: folder.path + "/copy.jsonl", copyIsShown: false),
                                            keptOffline: Locked(false))
        let (repository, everyone) = try Fixtures.repository(json: Fixtures.seedJSON)
        return (editing, server, outbox, repository.everyoneAtOnce(in: everyone),
                { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) })
    }

    @Test("connected: the edit goes to the server, under an operation id of its own; nothing is kept")
    func connected() throws {
        let (editing, server, outbox, people, cleanUp) = try Self.editing()
        defer { cleanUp() }
        try editing.update(recordID: people[0].id, changes: [try FieldCheck.change(from: "email=on@x.test")], base: people[0])
        #expect(server.applied.withLock { $0.count } == 1)
        #expect(outbox.pending().isEmpty)
        #expect(editing.keptOffline.withLock { $0 } == false)
    }

    @Test("lost: update, add and delete go to the outbox against the people as shown, and the server hears nothing")
    func lost() throws {
        let (editing, server, outbox, people, cleanUp) = try Self.editing()
        defer { cleanUp() }
        server.connection.lost.withLock { $0 = true }
        try editing.update(recordID: people[0].id, changes: [try FieldCheck.change(from: "email=off@x.test")], base: people[0])
        #expect(editing.keptOffline.withLock { $0 })
        try editing.add(recordID: "new1", changes: [try FieldCheck.change(from: "first=Di")])
        try editing.delete([people[1]])
        #expect(server.calls.withLock { $0 }.isEmpty, "not even tried")
        let kept = outbox.pending()
        #expect(kept.map(\.kind) == [.update, .add, .delete])
        #expect(kept.first?.basePerson?.differs(from: people[0]) == false, "against the person as the screen showed them")
        #expect(outbox.unsent() == UnsentEdits(people: [people[0].id, "new1", people[1].id], count: 3))
    }

    @Test("the connection breaks under an edit the server had committed: kept under the same id, recognised when sent, applied once")
    func breaksUnderAnEdit() throws {
        let (editing, server, outbox, people, cleanUp) = try Self.editing()
        defer { cleanUp() }
        server.breaksAfterCommit.withLock { $0 = true }
        try editing.update(recordID: people[0].id, changes: [try FieldCheck.change(from: "email=twice@x.test")], base: people[0])
        #expect(editing.keptOffline.withLock { $0 }, "said saved offline")
        let kept = try #require(outbox.pending().first)
        #expect(server.applied.withLock { $0 } == [kept.id])
        server.breaksAfterCommit.withLock { $0 = false }
        server.connection.lost.withLock { $0 = false }
        let report = OutboxSender.send(outbox, to: server)
        #expect(report.sent == 0 && report.alreadyApplied == 1)
        #expect(server.applied.withLock { $0.count } == 1)
        #expect(outbox.pending().isEmpty)
    }

    @Test("a refusal while connected (a conflict) is the screen's to show: nothing is kept")
    func refusalIsNotKept() throws {
        let (editing, server, outbox, people, cleanUp) = try Self.editing()
        defer { cleanUp() }
        server.refusal.withLock { $0 = EditFailure(.conflict, "changed meanwhile: email", theirs: people[0]) }
        #expect(throws: EditFailure.self) {
            try editing.update(recordID: people[0].id, changes: [try FieldCheck.change(from: "email=mine@x.test")], base: people[0])
        }
        #expect(outbox.pending().isEmpty)
    }
}
