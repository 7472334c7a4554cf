// Every protocol of the company overview module.

/// Presenter → view.
@MainActor
public protocol CompaniesViewInterface: AnyObject {
    func show(_ model: CompaniesViewModel)
}

/// View → presenter.
@MainActor
public protocol CompaniesModuleInterface: AnyObject {
    func moveSelection(by delta: Int)
    func selectFirst()
    func selectLast()
    func cycleSortOrder()
    func reverseSortOrder()
    /// Enter: that company's people.
    func openSelected()
    /// Tab (or Esc with no filter): back to the people list.
    func goBack()
    /// Esc with a filter in force: clears it (the people list's too).
    func clearFilter()
    func quit()
}

public enum CompaniesRoute: Equatable, Sendable {
    /// The people of one company, as a list of their own.
    case people(companyID: Int)
    /// Clear the search filter the overview was built from.
    case clearFilter
    case back
    case quit
}

/// Presenter → wireframe.
@MainActor
public protocol CompaniesWireframe: AnyObject {
    func navigate(to route: CompaniesRoute)
}
