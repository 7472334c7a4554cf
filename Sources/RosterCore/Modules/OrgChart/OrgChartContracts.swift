// Every protocol of the org chart screen (`T`): who reports to whom.

/// Presenter → view.
@MainActor
public protocol OrgChartViewInterface: AnyObject {
    func show(_ model: OrgChartViewModel)
}

/// View → presenter.
@MainActor
public protocol OrgChartModuleInterface: AnyObject {
    /// Moves the selection by `delta` rows (clamped).
    func move(by delta: Int)
    func moveToFirst()
    func moveToLast()
    /// Right: opens a closed manager, else goes to their first report.
    func expandOrEnter()
    /// Left: closes an open manager, else goes to the person's manager.
    func collapseOrLeave()
    /// `+`: opens the selected manager.
    func expand()
    /// `-`: closes the selected manager (or, on a report, their manager).
    func collapse()
    /// Space: opens or closes the selected manager.
    func toggle()
    /// Enter: the selected person's screen.
    func openPerson()
    /// `/` then Enter: shows the people `query` matches inside their chains
    /// of managers; an empty query shows everyone again.
    func search(_ query: String)
    /// Esc: clears the search, else back to the list.
    func clearSearchOrBack()
    func goBack()
    func quit()
}

/// What the chart's source gives when asked.
public enum OrgChartLoad: Sendable {
    case loaded(OrgChart)
    /// Nobody has a manager field: said in one line (`message`).
    case noManagers(String)
    /// The source offers no chart, or could not be read: why.
    case unavailable(String)
}

/// The chart's data: a source's reading of its people's managers.
@MainActor
public protocol OrgChartInteractorInput: AnyObject {
    var sourceName: String { get }
    /// Reads the chart (off the main actor), in the list's order.
    func loadChart(then deliver: @escaping @MainActor @Sendable (OrgChartLoad) -> Void)
    /// The people `query` matches (their `PersonID` raw values; off the main actor), or why not.
    func matches(of query: String, then deliver: @escaping @MainActor @Sendable (Result<[Int], RepositoryError>) -> Void)
}

public enum OrgChartRoute: Equatable, Sendable {
    /// The person's screen (`person`: their number, a `PersonID`'s raw value).
    case person(Int)
    case back
    case quit
}

/// Presenter → wireframe.
@MainActor
public protocol OrgChartWireframe: AnyObject {
    func navigate(to route: OrgChartRoute)
}
