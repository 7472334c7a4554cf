import RosterCore

/// What background work tells the main actor.
enum AppEvent: Sendable {
    case loaded(Result<ArrangedDirectory, LoadError>)
    /// Work to finish on the main actor (a search's result).
    case run(@MainActor @Sendable () -> Void)
}

/// A loaded directory with the list's grouping already computed.
struct ArrangedDirectory: Sendable {
    let repository: any PeopleRepository
    let arrangement: PeopleArrangement
}

/// Background → main actor: events queue here and the wake pipe says so.
final class Mailbox: Sendable {
    private let events = Locked<[AppEvent]>([])
    private let wakePipe: WakePipe

    init(wakePipe: WakePipe) {
        self.wakePipe = wakePipe
    }

    func post(_ event: AppEvent) {
        events.withLock { $0.append(event) }
        wakePipe.wake()
    }

    func takeAll() -> [AppEvent] {
        events.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }
}
