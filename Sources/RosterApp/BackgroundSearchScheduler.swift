import Dispatch
import RosterCore
import Synchronization

/// Searches (and re-sorts) on the cooperative pool and hands results to
/// the event loop.
///
/// Each keystroke starts a search task and cancels the one before it: the
/// repository sees the cancellation and stops early. A result that still
/// arrives after a newer keystroke is dropped (the generation number moved),
/// so typing never waits for a search and never shows a stale one.
@MainActor
final class BackgroundSearchScheduler: ListSearchScheduling {
    private let mailbox: Mailbox
    private let generation = SearchGeneration()
    private var running: Task<Void, Never>?
    /// Runs work that blocks its thread (a save, a reconnect), one after
    /// another, on a thread of Dispatch's: never on the main actor, nor on
    /// the cooperative pool's few threads.
    private let blocking = DispatchQueue(label: "roster.blocking", qos: .userInitiated)

    init(mailbox: Mailbox) {
        self.mailbox = mailbox
    }

    func search(_ query: SearchQuery, in everyone: PeopleArrangement, within: PeopleArrangement?, repository: any PeopleRepository,
                completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void,
                failed: @escaping @MainActor @Sendable (String) -> Void) {
        running?.cancel()
        let mine = generation.advance()
        let generation = self.generation
        let mailbox = self.mailbox
        running = Task.detached {
            do throws(RepositoryError) {
                let result = try await repository.search(query, in: everyone, within: within)
                mailbox.post(.run {
                    if generation.current == mine { completion(result) }
                })
            } catch where error.kind == .cancelled {
                // A newer keystroke took over: nothing to say.
            } catch {
                let reason = DisplayText.sanitized(error.reason)
                mailbox.post(.run {
                    if generation.current == mine { failed(reason) }
                })
            }
        }
    }

    func cancelPending() {
        running?.cancel()
        running = nil
        _ = generation.advance()
    }

    func arrange(_ repository: any PeopleRepository, sort: SortOrder, byCompany: Bool, company: Int?,
                 completion: @escaping @MainActor @Sendable (PeopleArrangement) -> Void) {
        let mailbox = self.mailbox
        Task.detached {
            let arranged = repository.arrange(sort: sort, byCompany: byCompany, company: company)
            mailbox.post(.run { completion(arranged) })
        }
    }

    func after(_ delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void) {
        let mailbox = self.mailbox
        DispatchQueue.global().asyncAfter(deadline: .now() + DispatchTimeInterval(delay)) {
            mailbox.post(.run(work))
        }
    }

    /// A read of what a screen shows, in a task of its own (a database's
    /// reads wait on the source's own threads, holding none of the pool's);
    /// its answer goes to the event loop.
    func read<Value: Sendable>(_ work: nonisolated(nonsending) @escaping @Sendable () async -> Value,
                               then deliver: @escaping @MainActor @Sendable (Value) -> Void) {
        let mailbox = self.mailbox
        Task.detached {
            let value = await work()
            mailbox.post(.run { deliver(value) })
        }
    }

    func perform<Value: Sendable>(_ work: @escaping @Sendable () -> Value, then deliver: @escaping @MainActor @Sendable (Value) -> Void) {
        let mailbox = self.mailbox
        blocking.async {
            let value = work()
            mailbox.post(.run { deliver(value) })
        }
    }
}

/// A counter shared with background searches.
final class SearchGeneration: Sendable {
    private let value = Atomic<Int>(0)

    var current: Int { value.load(ordering: .acquiring) }

    func advance() -> Int {
        value.add(1, ordering: .acquiringAndReleasing).newValue
    }
}
