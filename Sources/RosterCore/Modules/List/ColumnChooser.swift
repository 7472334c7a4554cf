// The column chooser (`C`): a small module over the list. Each change
// shows at once in the list under it; Enter keeps the columns, Esc puts
// back the ones from before `C`. `s` sorts the list by a column (any of
// them, shown or not: the sorted column always shows); Esc leaves that
// order, which the status bar names, as `s` on the list would.

/// Presenter → view.
@MainActor
public protocol ColumnChooserViewInterface: AnyObject {
    func show(_ model: ColumnChooserViewModel)
}

/// View → presenter.
@MainActor
public protocol ColumnChooserModuleInterface: AnyObject {
    /// ↑/↓: the column under the cursor.
    func moveCursor(by delta: Int)
    /// Space: shows or hides the column under the cursor.
    func toggle()
    /// `K`/`J`: moves the column under the cursor up (left) or down (right).
    func moveColumn(by delta: Int)
    /// `s`: sorts the list by the column under the cursor (ascending; on
    /// the column already sorted, the other way).
    func sortByColumn()
    /// Enter: keeps the columns.
    func keep()
    /// Esc: puts back the columns from before the chooser opened.
    func cancel()
}

/// Chooser → whoever opened it: the columns to show, and when it is done.
@MainActor
public protocol ColumnChooserOutput: AnyObject {
    func columnsChanged(_ choice: ColumnChoice)
    /// The list now sorts on `column` (the other way if it already did).
    func sortChosen(_ column: ListColumn)
    func columnChooserClosed()
}

public struct ColumnChooserViewModel: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var column: ListColumn
        public var title: String
        public var isShown: Bool
        /// The list's sorted column: shown whatever the choice.
        public var isSorted: Bool
        /// Whether anyone in the source has a value in it (else the list leaves it out).
        public var hasValues = true
    }

    public var rows: [Row]
    /// The row under the cursor.
    public var cursor: Int
}

@MainActor
public final class ColumnChooserPresenter: ColumnChooserModuleInterface {
    private weak var view: ColumnChooserViewInterface?
    private weak var output: ColumnChooserOutput?
    private let original: ColumnChoice
    private var sorted: ListColumn
    /// The source's fields: which columns anyone has a value in.
    private let fieldsInUse: FieldsInUse
    public private(set) var choice: ColumnChoice
    public private(set) var cursor = 0

    public init(choice: ColumnChoice, sorted: ListColumn, output: ColumnChooserOutput, fieldsInUse: FieldsInUse = .all) {
        original = choice
        self.choice = choice
        self.sorted = sorted
        self.fieldsInUse = fieldsInUse
        self.output = output
    }

    public func attach(view: ColumnChooserViewInterface) {
        self.view = view
        render()
    }

    public func moveCursor(by delta: Int) {
        cursor = min(max(0, cursor + delta), choice.entries.count - 1)
        render()
    }

    public func toggle() {
        choice.toggle(at: cursor)
        changed()
    }

    public func moveColumn(by delta: Int) {
        cursor = choice.move(at: cursor, by: delta)
        changed()
    }

    public func sortByColumn() {
        guard choice.entries.indices.contains(cursor) else { return }
        sorted = choice.entries[cursor].column
        output?.sortChosen(sorted)
        render()
    }

    public func keep() {
        output?.columnChooserClosed()
    }

    public func cancel() {
        if choice != original { output?.columnsChanged(original) }
        output?.columnChooserClosed()
    }

    private func changed() {
        output?.columnsChanged(choice)
        render()
    }

    public func makeViewModel() -> ColumnChooserViewModel {
        ColumnChooserViewModel(
            rows: choice.entries.map {
                .init(column: $0.column, title: $0.column.title, isShown: $0.isShown, isSorted: $0.column == sorted,
                      hasValues: $0.column.hasValues(in: fieldsInUse))
            },
            cursor: cursor)
    }

    private func render() {
        view?.show(makeViewModel())
    }
}
