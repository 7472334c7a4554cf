import Foundation
import RosterCore
import RosterTUI

/// The clipboard `y` and `Y` copy to: the terminal's (OSC 52), and inside
/// tmux also tmux's own buffer (`tmux load-buffer -w -`), since tmux's
/// default `set-clipboard external` drops an application's OSC 52 and
/// nothing would reach the clipboard. `-w` then sets the clipboard the way
/// tmux is configured to.
///
/// The text is made printable first (the data may be hostile): no control
/// character reaches the terminal or tmux. What it answers says where the
/// text went, so no message claims a copy that may not have happened.
@MainActor
final class TmuxClipboard: Clipboard {
    private let terminal: Clipboard
    private let isInsideTmux: Bool
    /// Hands the text to tmux; true when tmux took it.
    private let loadBuffer: ([UInt8]) -> Bool

    init(terminal: Clipboard, environment: [String: String],
         loadBuffer: @escaping ([UInt8]) -> Bool = { Platform.run(["tmux", "load-buffer", "-w", "-"], input: $0) }) {
        self.terminal = terminal
        isInsideTmux = !(environment["TMUX"] ?? "").isEmpty
        self.loadBuffer = loadBuffer
    }

    func copy(_ text: String) -> ClipboardDelivery? {
        let printable = DisplayText.printable(text).text
        let sent = terminal.copy(printable)
        guard isInsideTmux else { return sent }
        return loadBuffer(Array(printable.utf8)) ? .tmuxBuffer : sent
    }
}

extension TmuxClipboard {
    /// The app's clipboard: OSC 52 through `screen`, and tmux's buffer when
    /// the app runs inside tmux (`$TMUX` set).
    convenience init(screen: Screen) {
        self.init(terminal: TerminalClipboard(screen: screen), environment: ProcessInfo.processInfo.environment)
    }
}
