// Every protocol of the company overview module.

/// Presenter → view.
@MainActor
public protocol CompaniesViewInterface: AnyObject {
    func show(_ model: CompaniesViewModel)
}

/// View → presenter: the table's intents (`TableModuleInterface`).
@MainActor
public protocol CompaniesModuleInterface: TableModuleInterface {}

public enum CompaniesRoute: Equatable, Sendable {
    /// The people of one company, as a list of their own.
    case people(companyID: Int)
    /// Clear the search filter the overview was built from.
    case clearFilter
    /// The command line (`:`), over the overview.
    case commandLine
    /// The overview's help (`:help`, as `?`).
    case help
    case back
    case quit
}

/// Presenter → wireframe.
@MainActor
public protocol CompaniesWireframe: AnyObject {
    func navigate(to route: CompaniesRoute)
}
