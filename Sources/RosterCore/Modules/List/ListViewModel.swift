/// Everything the list view draws, already worded; no JSON, no sorting.
/// A value: two models are equal when they would draw the same screen.
public struct ListViewModel: Equatable, Sendable {
    /// "people.json" or "stdin".
    public var sourceName: String
    /// The company of a company's list, for the breadcrumb
    /// ("people.json › COMGY"); nil for the main list.
    public var scopeTitle: String? = nil
    /// The screen Esc goes back to, when it goes back rather than clearing
    /// the filter ("overview", "counts"); nil on the main list, or while
    /// Esc clears a filter first.
    public var escapeGoesBackTo: String? = nil
    /// "400 people · 34 companies".
    public var summary: String
    /// Section headers and people, in display order, formatted on demand.
    public var rows: ListRows
    /// Row of the selected person; `nil` when there is nobody.
    public var selectedRow: Int?
    /// "12/340".
    public var position: String
    /// Company of the selected person.
    public var currentCompany: String
    /// Worth the user's attention, beside the counts ("3 skipped (! lists)"), or nil.
    public var notice: String?
    /// Shown instead of rows when there are none ("No content to show").
    public var emptyMessage: String?

    /// The empty list's words with no filter: a source that gave no one
    /// says so by name (a file that is not empty but held nobody).
    static func nobodyMessage(personCount: Int, from sourceName: String) -> String {
        personCount == 0 ? "No people were read from \(sourceName)" : "No content to show"
    }
    /// The search prompt's text while it is open; nil when closed.
    public var searchPrompt: String?
    /// What is wrong with the search prompt's query, and where; nil when
    /// it is a query (or the prompt is closed).
    public var searchError: SearchErrorModel? = nil
    /// The search narrowing the list, if any ("jose").
    public var filter: String?
    /// The filter is still being searched: the people shown are not its
    /// matches yet ("searching: …" where "filter: …" will be).
    public var isFilterPending = false
    /// What to highlight in names: the active search.
    public var highlight: SearchQuery?
    /// "balance ↓" (", flat" when not grouped by company).
    public var sortLabel: String = ""
    /// The export prompt's file name while it is open.
    public var exportPrompt: String?
    /// What the open export prompt will write: "6 people as CSV; …".
    public var exportSummary: String? = nil
    /// The cursor in the open prompt's text, in characters (nil: at its end).
    public var promptCursor: Int?
    /// "people.csv exists; overwrite? (y/n)", while waiting for the answer.
    public var question: String?
    /// `D`'s question, when it is the one asked: the view fits its names to the line.
    public var deletion: DeletionQuestion?
    /// A one-off message for the status line ("wrote 12 people to a.csv").
    public var message: String?
    /// The file name inside `message` or `question`: shortened first when
    /// the line is too narrow, so that the reason stays visible.
    public var messageFileName: String?
    /// The columns the user chose, the order (its column is always shown)
    /// and the grouping: `layout(width:)` says which fit.
    public var columns = ListColumns(choice: .standard, sort: .byLastName, byCompany: true)
    /// "3 marked", "3 marked (1 shown)"; nil with no marks.
    public var marks: String? = nil
    /// Over a server: whether it is lost, and what it said last.
    public var connection: ConnectionStatus? = nil
}

/// A query's error as the prompt shows it: a mark under the characters
/// at fault and the message beside it (made safe for a terminal).
public struct SearchErrorModel: Equatable, Sendable {
    /// "unknown field 'agee' (fields: …)".
    public var message: String
    /// The characters of the prompt's text at fault.
    public var range: Range<Int>

    public init(error: QueryError) {
        message = DisplayText.sanitized(error.message)
        range = error.range
    }

    /// A search that could not run: said under the start of the text.
    public init(failure: String) {
        message = DisplayText.sanitized(failure)
        range = 0..<0
    }
}

/// One line of the list.
public enum ListRow: Equatable, Sendable {
    case header(CompanyHeaderRow)
    case person(PersonRow)
}

public struct CompanyHeaderRow: Equatable, Sendable {
    public var title: String
    /// People shown under it.
    public var count: Int
    /// Its headcount before a search narrowed it (== count when none did).
    public var total: Int
    /// Its people are hidden (Space); the selection rests on the header.
    public var isCollapsed: Bool = false
}

/// A person's line: their place, and what the columns show of them, or
/// why nothing yet (being read, or could not be read).
public struct PersonRow: Equatable, Sendable {
    /// Display position of this person (0-based, in list order).
    public var position: Int
    /// Everything the columns show, once read.
    public var person: Loadable<ListedPerson>
    /// Marked with `m` (a row not read is never marked: it has no id).
    public var isMarked: Bool = false
    /// Edited offline, not sent to the server yet.
    public var isUnsent: Bool = false

    public init(position: Int, person: Loadable<ListedPerson>, isMarked: Bool = false, isUnsent: Bool = false) {
        self.position = position
        self.person = person
        self.isMarked = isMarked
        self.isUnsent = isUnsent
    }
}

/// The list's rows as a random-access collection: row `i` is built when
/// asked for, so a frame formats only the rows on screen, whatever the
/// number of people. Section lookup is a binary search over the sections.
/// A collapsed section shows its header only.
///
/// A value: the rows the list's window had read when it was made, each
/// `Loadable` (a source that answers at once is read as rows are
/// asked for, from its `ReadingAtOnce`: memory that never changes, nothing
/// to wait for). Two are equal when they show the same rows: the same
/// arrangement, read from the same memory or holding the same rows, with
/// the same companies collapsed and the same people marked.
public struct ListRows: RandomAccessCollection, Equatable, Sendable {
    let grouped: PeopleArrangement
    /// The source's rows read at once, when it answers at once.
    private let atOnce: (any ReadingAtOnce)?
    /// Otherwise the rows read so far, by display position.
    private let held: [Int: Loadable<ListedPerson>]
    /// Per section, whether it is collapsed; empty when none is.
    private let collapsed: [Bool]
    /// Per section, the row of its header; empty when none is collapsed
    /// (the header row is then `lowerBound + section`).
    private let headerRows: [Int]

    /// The people marked (`m`), by id.
    let marked: Set<PersonID>
    /// The people with edits not sent yet, by `_id`.
    let unsent: Set<String>

    /// The rows of `arrangement` as read now from `repository` (a source
    /// that answers at once; any other shows every person as loading).
    public init(_ arrangement: PeopleArrangement, repository: any PeopleRepository, collapsedCompanies: Set<Int> = [],
                marked: Set<PersonID> = [], unsent: Set<String> = []) {
        self.init(arrangement, atOnce: repository.atOnce, held: [:], collapsedCompanies: collapsedCompanies, marked: marked, unsent: unsent)
    }

    /// The rows `window` has read, as they are now.
    @MainActor
    public init(_ window: ListWindow, collapsedCompanies: Set<Int> = [], marked: Set<PersonID> = [], unsent: Set<String> = []) {
        self.init(window.arrangement, atOnce: window.atOnce, held: window.atOnce == nil ? window.held : [:],
                  collapsedCompanies: collapsedCompanies, marked: marked, unsent: unsent)
    }

    private init(_ arrangement: PeopleArrangement, atOnce: (any ReadingAtOnce)?, held: [Int: Loadable<ListedPerson>],
                 collapsedCompanies: Set<Int>, marked: Set<PersonID>, unsent: Set<String>) {
        grouped = arrangement
        self.atOnce = atOnce
        self.held = held
        self.marked = marked
        self.unsent = unsent
        // The flat list's one section is no company's: never folded.
        let isFolded = { (section: CompanySection) in section.companyID.map(collapsedCompanies.contains) ?? false }
        guard !collapsedCompanies.isEmpty, grouped.sections.contains(where: isFolded) else {
            collapsed = []
            headerRows = []
            return
        }
        collapsed = grouped.sections.map(isFolded)
        var rows: [Int] = []
        var next = 0
        for (index, section) in grouped.sections.enumerated() {
            rows.append(next)
            next += 1 + (collapsed[index] ? 0 : section.count)
        }
        headerRows = rows
    }

    public static func == (left: ListRows, right: ListRows) -> Bool {
        left.grouped == right.grouped && left.atOnce === right.atOnce && left.held == right.held && left.collapsed == right.collapsed
            && left.marked == right.marked && left.unsent == right.unsent
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        guard let last = headerRows.last, let section = grouped.sections.last else {
            return grouped.count + grouped.sections.count
        }
        return last + 1 + (collapsed[collapsed.count - 1] ? 0 : section.count)
    }

    private func headerRow(_ section: Int) -> Int {
        headerRows.isEmpty ? grouped.sections[section].range.lowerBound + section : headerRows[section]
    }

    public func isCollapsed(section: Int) -> Bool {
        !collapsed.isEmpty && collapsed[section]
    }

    public subscript(row: Int) -> ListRow {
        let section = sectionIndex(ofRow: row)
        let header = headerRow(section)
        if row == header {
            let company = grouped.sections[section]
            return .header(CompanyHeaderRow(title: company.title, count: company.count, total: company.total,
                                            isCollapsed: isCollapsed(section: section)))
        }
        let position = grouped.sections[section].range.lowerBound + (row - header - 1)
        // One person a call: a frame asks only for the rows it draws. A row
        // not read yet says so, and has nobody to mark.
        let read: Loadable<ListedPerson>? = if let atOnce {
            atOnce.rowsAtOnce(in: grouped, positions: position..<(position + 1)).first.map { .loaded($0) }
        } else {
            held[position]
        }
        guard case .loaded(let person) = read else { return .person(PersonRow(position: position, person: read ?? .loading)) }
        return .person(PersonRow(position: position, person: .loaded(person), isMarked: !marked.isEmpty && marked.contains(person.id),
                                 isUnsent: !unsent.isEmpty && unsent.contains(person.texts[TextField.id.rawValue])))
    }

    /// The display positions of the people among `rows` (a frame's), first
    /// to last; nil when they hold nobody (headers only).
    public func positions(inRows rows: Range<Int>) -> ClosedRange<Int>? {
        let rows = rows.clamped(to: startIndex..<endIndex)
        guard let first = rows.lazy.compactMap(position(ofRow:)).first,
              let last = rows.reversed().lazy.compactMap(position(ofRow:)).first else { return nil }
        return first...last
    }

    /// The display position of the person on row `row`; nil for a header.
    func position(ofRow row: Int) -> Int? {
        let section = sectionIndex(ofRow: row)
        let header = headerRow(section)
        return row == header ? nil : grouped.sections[section].range.lowerBound + (row - header - 1)
    }

    /// The row showing the person at display `position` (the header, when
    /// their section is collapsed).
    public func row(ofPosition position: Int) -> Int {
        let section = grouped.sectionIndex(containing: position)
        if isCollapsed(section: section) { return headerRow(section) }
        return headerRow(section) + 1 + (position - grouped.sections[section].range.lowerBound)
    }

    /// The header row of the section that row `row` falls in (a pinned
    /// header at the top of the screen); nil when there are no rows.
    public func headerRow(forRow row: Int) -> Int? {
        grouped.sections.isEmpty ? nil : headerRow(sectionIndex(ofRow: row))
    }

    /// Index of the section that row `row` falls in.
    func sectionIndex(ofRow row: Int) -> Int {
        var low = 0, high = grouped.sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if headerRow(middle) <= row { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
