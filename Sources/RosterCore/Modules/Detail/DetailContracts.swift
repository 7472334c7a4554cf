// Every protocol of the detail module.

/// Presenter → view.
@MainActor
public protocol DetailViewInterface: AnyObject {
    func show(_ model: DetailViewModel)
}

/// View → presenter.
@MainActor
public protocol DetailModuleInterface: AnyObject {
    func showPrevious()
    func showNext()
    func goBack()
    func quit()
}

public enum DetailRoute: Equatable, Sendable {
    /// Back to the list, selecting the person last shown.
    case back(position: Int)
    case quit
}

/// Presenter → wireframe.
@MainActor
public protocol DetailWireframe: AnyObject {
    func navigate(to route: DetailRoute)
}
