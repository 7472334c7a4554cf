import Foundation
import Testing
import TestServers

/// The outbox's sending has a connection of its own: ended alone (the
/// screen's connection and the change listener's untouched, so nothing
/// else sees a fault), the sending stops, and Roster must notice by itself.
@Suite("End to end: the outbox's own connection ended", .serialized)
struct OutboxWriterEndedTests {
    @Test("the outbox's sending ended alone (the screen's connection working): it is sent again by itself, applied once")
    func sendingEndedAlone() async throws {
        let run = try await FaultMatrixRun(FaultMatrix.Row(engine: .postgres, fault: .terminated, activities: [.sending]))
        defer { run.database.remove() }
        let phone = "+1 (555) 304-0004"
        try await run.top()
        run.session.send("j")
        try await run.openForm(on: "José Garza", phone: phone)
        let before = try run.database.appliedOperations()
        // The save waits inside its transaction; every session ended: it goes to the outbox, and the reconnect sends it.
        try run.database.closeGate()
        run.session.send("Enter")
        run.check(.sending, await run.waitingAtGate(), "the save waiting inside its transaction")
        try run.database.endRosterSessions()
        run.check(.sending, await run.until(.seconds(30)) { $0.contains(FaultMatrix.unsent) }, "the edit kept in the outbox")
        run.check(.sending, await run.waitingAtGate(), "the outbox being sent, waiting inside its transaction")
        // Only the sending's connection ends now.
        try run.database.endSessionAtGate()
        run.check(.sending, await run.until(.seconds(30)) { $0.contains(FaultMatrix.stoppedSending) || !$0.contains("⇡") },
                  "the sending stopped")
        try run.database.openGate()
        let sent: FaultMatrixRun.ScreenTest = { screen in
            FaultMatrixRun.titleIsNormal(screen) && screen.contains(phone) && !screen.contains("⇡")
        }
        run.check(.sending, await run.until(.seconds(30), sent), "sent again with no key")
        #expect(try run.database.phone(of: "José", "Garza") == phone)
        #expect(try run.database.appliedOperations() == before + 1, "applied once")
        run.quit()
    }
}
