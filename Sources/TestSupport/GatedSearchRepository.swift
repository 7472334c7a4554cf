import RosterCore

/// A fake repository for scheduling tests: everything comes from an
/// in-memory repository, but a search for a query in `held` waits until the
/// test releases it, and says whether it saw its task cancelled. With
/// `honoursCancellation` false it finishes anyway, as a slow source might.
public final class GatedSearchRepository: DelegatingRepository {
    public let base: any PeopleRepository
    /// Its rows are the base's, read at once when the base's are.
    public var atOnce: (any ReadingAtOnce)? { base.atOnce }
    private let held: Set<String>
    private let honoursCancellation: Bool
    private let state = Locked(State())

    struct State {
        var released: Set<String> = []
        var cancelled: [String] = []
        var started: [String] = []
        var finished: [String] = []
    }

    public init(_ people: any PeopleRepository, holding held: Set<String>, honoursCancellation: Bool = true) {
        base = people
        self.held = held
        self.honoursCancellation = honoursCancellation
    }

    /// Lets a held search finish.
    public func release(_ query: String) { state.withLock { _ = $0.released.insert(query) } }
    /// Searches that stopped because their task was cancelled.
    public var cancelled: [String] { state.withLock { $0.cancelled } }
    /// Searches that began, in order.
    public var started: [String] { state.withLock { $0.started } }
    /// Searches that returned a result, in order.
    public var finished: [String] { state.withLock { $0.finished } }

    public func search(_ query: SearchQuery, in arrangement: PeopleArrangement, within earlier: PeopleArrangement?) async throws(RepositoryError)
        -> PeopleArrangement {
        state.withLock { $0.started.append(query.text) }
        if held.contains(query.text) {
            // Cancellation is checked before the deadline: a task the pool
            // left waiting for longer than the deadline (two threads, held by
            // blocking tests under a sanitizer) still sees that it was
            // cancelled. The deadline matches the tests' own waits.
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(600)
            while !state.withLock({ $0.released.contains(query.text) }) {
                if Task.isCancelled, honoursCancellation {
                    state.withLock { $0.cancelled.append(query.text) }
                    throw .cancelled
                }
                if clock.now >= deadline { break }
                await Task.yield()
            }
        }
        // A source that ignores cancelling finishes its search regardless.
        let people = base
        let result = honoursCancellation ? try await people.search(query, in: arrangement, within: earlier)
            : try await Task.detached {
                await Result(awaiting: { () async throws(RepositoryError) in try await people.search(query, in: arrangement, within: earlier) })
            }.value.get()
        state.withLock { $0.finished.append(query.text) }
        return result
    }
}
