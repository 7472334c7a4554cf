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
    /// Tab / Shift+Tab: the field `y` copies (it starts on the email).
    func moveFieldCursor(by delta: Int)
    /// `y`: copies the field under the cursor to the clipboard.
    func copyField()
    /// `r`: a person that could not be read is read again (reconnecting first).
    func retry()
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
