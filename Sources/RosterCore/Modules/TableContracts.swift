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

/// A count that failed, for the overview and the counts: said in place of
/// rows (never "nobody"), and tried again on its own a few times (a lock
/// released lets it through; a count that outlasts the statement timeout
/// would only time out again), then left to `r`.
@MainActor
struct CountFailure {
    /// Tries on their own after a failure, before leaving it to `r`.
    static let automaticTries = 2
    private var triesLeft = automaticTries
    /// What the screen says in place of rows; nil while nothing failed.
    private(set) var said: String?

    /// A count the user asked for: tries on their own start over.
    mutating func userAsked() {
        triesLeft = Self.automaticTries
    }

    /// The count came back: `counted` rows, and the source's last failure.
    /// True when it should be tried again on its own.
    mutating func counted(_ rows: Int, failure: String?) -> Bool {
        guard rows == 0, let failure else {
            said = nil
            return false
        }
        let again = triesLeft > 0
        if again { triesLeft -= 1 }
        said = "Not counted: \(failure)" + (again ? "; trying again…" : ". r counts again.")
        return again
    }
}
