/// What the event loop needs of a terminal besides drawing on its
/// `Screen`: waiting for keys, reading them, and recovering after a resize
/// or a suspend.
///
/// `CursesScreen` is the real one; tests run the loop on a scripted fake
/// (`ScriptedTerminal`) over a `MemoryScreen`.
@MainActor
public protocol TerminalInput: AnyObject {
    /// Waits until a key may be waiting, `wakeDescriptor` is readable (a
    /// message or a signal for the loop), or `timeout` passes (nil: no
    /// limit). False only when waiting itself failed; a signal that
    /// interrupts the wait is not a failure.
    func waitForInput(orReadable wakeDescriptor: Int32, timeout: Duration?) -> Bool
    /// The next key, or nil when none is waiting.
    func readKey() -> Key?
    /// Draws the next frame whole, every cell (after a resize or a suspend).
    func repaintAll()
    /// Ctrl-Z: hands the terminal back to the shell until the user resumes.
    func suspend()
}
