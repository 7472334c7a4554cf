import RosterCore
import Synchronization

/// Searches (and re-sorts) on the cooperative pool and hands results to
/// the event loop.
///
/// Each keystroke starts a search and bumps a generation number; an older
/// search sees the number move and stops early, and a result that arrives
/// after a newer keystroke is dropped, so typing never waits for a search.
@MainActor
final class BackgroundSearchScheduler: ListSearchScheduling {
    private let mailbox: Mailbox
    private let generation = SearchGeneration()

    init(mailbox: Mailbox) {
        self.mailbox = mailbox
    }

    func search(_ query: SearchQuery, in everyone: GroupedPeople, store: PeopleStore, within: SearchResult?,
                completion: @escaping @MainActor @Sendable (SearchResult) -> Void) {
        let mine = generation.advance()
        let generation = self.generation
        let mailbox = self.mailbox
        Task.detached {
            guard let result = PeopleSearch.filter(everyone, store: store, query: query, within: within,
                                                   isCancelled: { generation.current != mine }) else { return }
            mailbox.post(.run {
                if generation.current == mine { completion(result) }
            })
        }
    }

    func cancelPending() {
        _ = generation.advance()
    }

    func arrange(_ store: PeopleStore, sort: SortOrder, byCompany: Bool,
                 completion: @escaping @MainActor @Sendable (GroupedPeople) -> Void) {
        let mailbox = self.mailbox
        Task.detached {
            let grouped = GroupedPeople(store: store, sort: sort, byCompany: byCompany)
            mailbox.post(.run { completion(grouped) })
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
