/// View → presenter, for a table of rows that leads somewhere: the company
/// overview and the counts by field share these intents (and their keys).
@MainActor
public protocol TableModuleInterface: AnyObject {
    func moveSelection(by delta: Int)
    func selectFirst()
    func selectLast()
    /// `s` / `S`: the next sort key / the other direction.
    func cycleSortOrder()
    func reverseSortOrder()
    /// Enter: the selected row's people, as a list of their own.
    func openSelected()
    /// Tab (or Esc with no filter): back to the people list.
    func goBack()
    /// Esc with a filter in force: clears it (the people list's too).
    func clearFilter()
    /// `r`: connects again (after "connection lost") and counts again.
    func reconnect()
    func quit()
}

/// Words the overview and the counts share.
public enum TableStatusText {
    /// In place of rows when a count failed: never "nobody".
    public static func notCounted(because reason: String) -> String {
        "Not counted: \(reason). Tried again on its own, and r."
    }
}
