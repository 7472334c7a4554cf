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
    /// `y`: copies the email to the clipboard.
    func copyEmail()
}

/// Somewhere to copy text to: the terminal's clipboard (OSC 52).
@MainActor
public protocol Clipboard: AnyObject {
    /// Copies `text`; true once the request has been written.
    func copy(_ text: String) -> Bool
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
