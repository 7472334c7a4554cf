/// A value a screen shows, in its load state (after nalexn's `Loadable`):
/// the source's value, or why there is none yet. Never a made-up value in
/// the place of one not read yet or one that could not be read: a list row
/// being read has no name, id or marks to take by mistake, only its place.
///
/// Generic, so that a list row (`Loadable<ListedPerson>`) and the person's
/// screen (`Loadable<Person>`) say it the same way; `LoadState` is the same
/// without the value, for a view model that keeps its figures beside it.
public enum Loadable<Value> {
    /// Being read.
    case loading
    /// Read from the source.
    case loaded(Value)
    /// Could not be read, and why (`reason` in a user's words).
    case failed(RepositoryError)

    /// What a read answered: its value, or why it has none.
    @inlinable
    public init(_ read: Result<Value, RepositoryError>) {
        switch read {
        case .success(let value): self = .loaded(value)
        case .failure(let error): self = .failed(error)
        }
    }

    /// The value when it is read; nil while it is being read or could not be.
    @inlinable
    public var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    /// The state alone: what a view says in a value's place.
    public var state: LoadState {
        switch self {
        case .loading: .loading
        case .loaded: .loaded
        case .failed(let error): .failed(error.reason)
        }
    }
}

extension Loadable: Equatable where Value: Equatable {}
extension Loadable: Sendable where Value: Sendable {}
