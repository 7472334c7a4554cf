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
    /// `E`: the person's editor; `v`: their record in the user's own editor.
    func edit(inEditor: Bool)
    /// Tab / Shift+Tab: the field `y` copies (it starts on the email).
    func moveFieldCursor(by delta: Int)
    /// `y`: copies the field under the cursor to the clipboard.
    func copyField()
    /// `r`: a person that could not be read is read again (reconnecting first).
    func retry()
    /// Enter: the screen of the manager or report under the field cursor.
    func openSelected()
    /// `T`: the org chart at the person shown.
    func showOrgChart()
}

/// Where a copy went, as far as the app can know.
public enum ClipboardDelivery: Equatable, Sendable {
    /// An OSC 52 request was written to the terminal, which may or may not
    /// obey it (tmux's default drops it): never called "copied".
    case terminal
    /// tmux took the text into its buffer (`tmux load-buffer` succeeded).
    case tmuxBuffer
}

/// Somewhere to copy text to: the terminal's clipboard (OSC 52), and
/// tmux's buffer inside tmux.
@MainActor
public protocol Clipboard: AnyObject {
    /// Copies `text`; where it went, or nil when nothing could be sent.
    func copy(_ text: String) -> ClipboardDelivery?
}

public enum DetailRoute: Equatable, Sendable {
    /// Back to the list, selecting the person last shown.
    case back(position: Int)
    /// The editor of the person shown (at display `position`); with
    /// `inEditor`, the user's own editor.
    /// `field`: the label of the field the cursor is on, for the form to open at.
    case edit(position: Int, inEditor: Bool, field: String?)
    /// Another person's screen over this one (a manager of the chain, a
    /// report): `person` is their number, a `PersonID`'s raw value.
    case person(Int)
    /// `T`: the org chart, at the person whose record's `_id` is `recordID`.
    case orgChart(recordID: String)
    case quit
}

/// Presenter → wireframe.
@MainActor
public protocol DetailWireframe: AnyObject {
    func navigate(to route: DetailRoute)
}
