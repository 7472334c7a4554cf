/// View → presenter, for a table of rows that leads somewhere: the company
/// overview and the counts by field share these intents (and their keys).
@MainActor
public protocol TableModuleInterface: AnyObject {
    /// Its figures are being counted (off the main actor, from a source
    /// that may wait): keys that act on the rows wait for them.
    var isCounting: Bool { get }
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
    /// `:`: the command line, for the commands that mean something here.
    func openCommandLine()
    /// A key was pressed: the word shown (after `r`, a command) ends.
    func endMessage()
}

/// A table screen's presenter, as its `:` commands and its word in the
/// status bar reach it.
@MainActor
protocol TableCommandTarget: TableModuleInterface {
    /// The word in the status bar (after `r`, a command); ends at the next key.
    var notice: String? { get set }
    var rowCount: Int { get }
    var selection: Int { get }
    func showHelp()
    func render()
}

extension TableCommandTarget {
    /// Ends the word shown, if any.
    func endNotice() {
        guard notice != nil else { return }
        notice = nil
        render()
    }
}

/// A command typed at `:` over a table screen (the overview, the counts):
/// `:12` the 12th row (the last, saying so, when there are fewer), `:q`
/// quits, `:help` as `?`; the list's other commands (sort, filter, export,
/// columns) say where they work rather than nothing.
enum TableCommand: Equatable {
    /// Select the row at this index; `notice` says why it is not the one asked for.
    case select(row: Int, notice: String?)
    case quit
    case help
    case notice(String)

    /// Runs `command` on `presenter`: selects, says, quits or asks for the help.
    @MainActor
    static func run(_ command: ListCommand, on presenter: some TableCommandTarget) {
        switch of(command, rowCount: presenter.rowCount) {
        case .select(let row, let said)?:
            presenter.moveSelection(by: row - presenter.selection)
            presenter.notice = said
        case .quit?: presenter.quit()
        case .help?: presenter.showHelp()
        case .notice(let said)?: presenter.notice = said
        case nil: return
        }
        presenter.render()
    }

    /// What `command` does over `rowCount` rows; nil when nothing (a row
    /// asked for while there are none).
    static func of(_ command: ListCommand, rowCount: Int) -> TableCommand? {
        switch command {
        case .goTo(let row):
            guard rowCount > 0 else { return nil }
            return .select(row: min(row, rowCount) - 1,
                           notice: row > rowCount ? "\(row): only \(NumberText.grouped(rowCount)) rows; at the last" : nil)
        case .quit: return .quit
        case .help: return .help
        case .sort, .filter, .export, .columns: return .notice("people list only: Tab goes back")
        }
    }
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

    /// The count came back, or failed with `failure`. True when it should
    /// be tried again on its own (a failure that may heal by itself).
    mutating func counted(failure: RepositoryError?) -> Bool {
        guard let failure else {
            said = nil
            return false
        }
        let again = failure.healsOnRetry && triesLeft > 0
        if again { triesLeft -= 1 }
        // A reason that is a sentence of its own ends with its own stop: not two.
        let reason = failure.reason.hasSuffix(".") ? String(failure.reason.dropLast()) : failure.reason
        said = "Not counted: \(reason)" + (again ? "; trying again…" : ". r counts again.")
        return again
    }
}

/// The overview's and the counts' counting: each count is read through
/// the screen's interactor (off the main actor from a source that may
/// wait); a count that comes back after a newer one was asked for is
/// dropped; a count that failed is said in place of rows (`CountFailure`)
/// and made again on its own, a little later, unless a newer one was asked
/// for meanwhile.
@MainActor
final class BackgroundCount {
    private let interactor: SummaryInteractorInput
    private var asked = 0
    private var shown = 0
    private var failure = CountFailure()

    init(interactor: SummaryInteractorInput) {
        self.interactor = interactor
    }

    /// True while the rows shown are not of the last count asked for.
    var isCounting: Bool { shown != asked }
    /// What the screen says in place of rows; nil unless the count failed.
    var failureSaid: String? { failure.said }
    /// Whether the rows shown are the count asked for, and if not why.
    var state: LoadState { isCounting ? .loading : failureSaid.map(LoadState.failed) ?? .loaded }

    /// The status bar's place among `count` rows ("3/12"): "—" when the
    /// count failed, never "0/0", which would read as nobody.
    func position(_ selection: Int, of count: Int) -> String {
        if count == 0 { return failureSaid == nil ? "0/0" : "—" }
        return "\(NumberText.grouped(selection + 1))/\(NumberText.grouped(count))"
    }

    /// What the status bar says of the people counted: `counted`, unless a
    /// count is under way or failed.
    func summary(_ counted: String) -> String {
        isCounting ? "counting…" : failureSaid == nil ? counted : "not counted"
    }

    /// Counts with `read` (one of the interactor's counts) and hands the
    /// rows to `deliver`, if no newer count was asked for; `again` counts
    /// again after a failure (`retrying` then).
    func count<Value: Sendable>(retrying: Bool,
                                _ read: (_ counted: @escaping @MainActor @Sendable (Result<[Value], RepositoryError>) -> Void) -> Void,
                                again: @escaping @MainActor @Sendable () -> Void,
                                deliver: @escaping @MainActor @Sendable ([Value]) -> Void) {
        if !retrying { failure.userAsked() }
        asked += 1
        let mine = asked
        read { [weak self] counted in
            guard let self, mine == self.asked else { return }
            self.shown = mine
            // A count that failed is not nobody: said in place of rows, and
            // tried again when it may work by itself.
            if self.failure.counted(failure: counted.failure) {
                self.interactor.retryLater { [weak self] in
                    guard let self, self.asked == mine else { return }
                    again()
                }
            }
            deliver((try? counted.get()) ?? [])
        }
    }
}
