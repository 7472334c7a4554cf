import Foundation
import RosterCore
import RosterSQL
import Synchronization

/// Keeps a server's directory as its offline copy without holding up the
/// exit: the copy is written on a thread of its own as soon as the
/// directory is open (while the user browses), taken again each time the
/// table is read again (so that it is the last thing seen), and the exit
/// only waits for what is left, saying so on the terminal.
///
/// A copy read while the connection was lost would be short (a window
/// that failed ends it): it is never written (the earlier copy stays), and it is taken
/// again at the exit if the connection is back by then.
///
/// The exit waits only while the copy moves on: a read that brings
/// nothing for `stallLimit` (a locked table, a server that stopped
/// answering) is given up, and the earlier copy stays.
final class OfflineCopyKeeper: Sendable {
    let snapshot: OfflineSnapshot

    private struct State {
        var started = false
        /// A copy is being taken; `next`, the table to take it from after.
        var running = false
        var next: SQLPeopleRepository?
        /// The table the last copy kept was read from.
        var copied: SQLPeopleRepository?
    }

    private let state = Locked(State())
    /// Entered while a copy is taken.
    private let taking = DispatchGroup()
    /// Steps of the copy done so far (windows read, statements answered).
    private let steps = Atomic<Int>(0)

    init(snapshot: OfflineSnapshot) {
        self.snapshot = snapshot
    }
    /// Starts copying `repository` in the background.
    func keep(_ repository: SQLPeopleRepository) {
        refresh(repository)
    }

    /// The table was read again as `repository`: the copy is taken again
    /// from it in the background, one copy at a time; asked again meanwhile,
    /// it is taken once more after, from the latest table.
    func refresh(_ repository: SQLPeopleRepository) {
        let starts = state.withLock { state -> Bool in
            state.started = true
            guard !state.running else {
                state.next = repository
                return false
            }
            state.running = true
            return true
        }
        if starts { take(repository) }
    }

    private func take(_ repository: SQLPeopleRepository) {
        taking.enter()
        let snapshot = snapshot
        Task.detached { [self] in
            let saved = await snapshot.save(repository, isIntact: { repository.failure == nil }, read: stepped)
            let next = state.withLock { state -> SQLPeopleRepository? in
                if case .saved = saved { state.copied = repository }
                let next = state.next
                state.next = nil
                state.running = next != nil
                return next
            }
            if let next { take(next) }
            taking.leave()
        }
    }

    /// Whether a copy has been kept in this session.
    var isSaved: Bool { state.withLock { $0.copied != nil } }

    /// At the exit: waits for the background copy, or copies `repository`
    /// now when none could be kept (the connection was lost while it was
    /// read, and is back), or when the table changed since the last copy
    /// was read (a change that came as Roster quit): then from the table
    /// read again. While it waits, a line on the terminal says what Roster
    /// is doing; it is erased once done.
    ///
    /// Waits only while the copy moves on, and `deadline` at most: then
    /// the exit goes on, says the copy was not refreshed, and the earlier
    /// copy stays (a copy is put in place by rename, whole or not at all).
    func finish(_ repository: SQLPeopleRepository?, deadline: Duration = OfflineCopyKeeper.exitDeadline,
                stallLimit: Duration = OfflineCopyKeeper.stallLimit, note: (String) -> Void = OfflineCopyKeeper.noteOnTerminal) {
        let end = ContinuousClock.now + deadline
        let waiting = state.withLock { $0.started && $0.running }
        if waiting {
            note("roster: finishing the offline copy (for when the server is away)…")
            let taking = self.taking
            guard waitWhileMoving({ taking.wait(timeout: .now() + DispatchTimeInterval($0)) == .success }, until: end, stallLimit: stallLimit)
            else { return gaveUp(note) }
        }
        // The copy is whole: what the screens were still reading is wanted
        // no more, nor waited for (the copy's next step waits for it to stop).
        repository?.stopStatements(patience: .zero)
        var noted = waiting
        if let repository, repository.failure == nil {
            let copied = state.withLock { $0.copied }
            let saved = DispatchSemaphore(value: 0)
            let snapshot = self.snapshot
            // Counted from before the copy starts: only its reads are steps
            // (whether the table changed is a question, not progress), so a
            // table that cannot be read is given up without a word however
            // soon the task gets a thread.
            let before = steps.load(ordering: .acquiring)
            Task.detached { [self] in
                // Asked here, not on the exiting thread: a server that stopped answering is not waited for.
                let hasChanged = copied == nil || (copied ?? repository).hasChangedSinceRead
                if hasChanged {
                    // Read again: the summary read at the start may be out of date.
                    let table = (try? repository.reread()) ?? repository
                    stepped()
                    let copy = await snapshot.save(table, isIntact: { table.failure == nil }, read: stepped)
                    if case .saved = copy { state.withLock { $0.copied = table } }
                }
                saved.signal()
            }
            // Said only when it takes long enough to be noticed.
            if !Self.wait(for: saved, upTo: min(stallLimit, end - .now)) {
                guard steps.load(ordering: .acquiring) != before else { return gaveUp(note) }
                if !noted { note("roster: keeping an offline copy (for when the server is away)…") }
                noted = true
                guard waitWhileMoving({ Self.wait(for: saved, upTo: $0) }, until: end, stallLimit: stallLimit) else { return gaveUp(note) }
            }
        }
        if noted { note("") }
    }

    /// How long the exit waits for a copy being written.
    static let exitDeadline: Duration = .seconds(15)
    /// How long the exit waits for the copy's next step (a window of
    /// rows, a statement's answer) before it gives the copy up.
    static let stallLimit: Duration = .milliseconds(250)

    /// A step of the copy was done.
    private func stepped() {
        steps.add(1, ordering: .releasing)
    }

    /// Waits (`wait` up to a time: true once done) while the copy moves
    /// on: false at `end`, or once `stallLimit` passed with no step done.
    private func waitWhileMoving(_ wait: (Duration) -> Bool, until end: ContinuousClock.Instant, stallLimit: Duration) -> Bool {
        var last = steps.load(ordering: .acquiring)
        while ContinuousClock.now < end {
            if wait(min(stallLimit, end - .now)) { return true }
            let now = steps.load(ordering: .acquiring)
            if now == last { return false }
            last = now
        }
        return false
    }

    private static func wait(for semaphore: DispatchSemaphore, upTo limit: Duration) -> Bool {
        semaphore.wait(timeout: .now() + DispatchTimeInterval(limit)) == .success
    }

    /// The server did not answer in time: the line goes, a message stays.
    private func gaveUp(_ note: (String) -> Void) {
        note("")
        Platform.writeError("roster: the offline copy was not refreshed (the server did not answer in time); the earlier one is kept")
    }

    /// Shows `text` on standard error when it is a terminal, over the
    /// last such line ("" erases it): the exit never looks hung.
    static func noteOnTerminal(_ text: String) {
        guard Platform.isTerminal(STDERR_FILENO) else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + DisplayText.sanitized(text)).utf8))
    }
}
