// Every protocol of the list module: who may say what to whom.

/// Presenter → view: what to draw.
@MainActor
public protocol ListViewInterface: AnyObject {
    func show(_ model: ListViewModel)
}

/// View → presenter: what the user asked for, in the list's own terms.
@MainActor
public protocol ListModuleInterface: AnyObject {
    /// Moves the selection by `delta` people (negative: up), clamped.
    func moveSelection(by delta: Int)
    func selectFirst()
    func selectLast()
    func openSelected()
    func showSkippedRecords()
    func quit()
}

/// Where the list can lead.
public enum ListRoute: Equatable, Sendable {
    /// The detail screen for the person at this display position.
    case detail(position: Int)
    /// The records that were skipped while loading, with reasons.
    case skippedRecords
    case quit
}

/// Presenter → wireframe: navigation only.
@MainActor
public protocol ListWireframe: AnyObject {
    func navigate(to route: ListRoute)
}
