/// Whether a value a view model holds is the source's, and if not, why:
/// a view model never holds a made-up value in place of one not read yet
/// or one that could not be read (nalexn's `Loadable`). The view draws
/// "loading…" or "not loaded: connection lost", never a blank that looks
/// like a value (or like none). `Loadable` is the same with the value in
/// it; this is for a model that keeps its figures beside it.
public enum LoadState: Equatable, Sendable {
    /// Read from the source.
    case loaded
    /// Being read.
    case loading
    /// Could not be read: why, in a user's words ("connection lost").
    case failed(String)

    public var isLoaded: Bool { self == .loaded }
}
