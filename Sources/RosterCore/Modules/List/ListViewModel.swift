/// Everything the list view draws, already worded; no JSON, no sorting.
public struct ListViewModel: Sendable {
    /// "people.json" or "stdin".
    public var sourceName: String
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
    /// The search prompt's text while it is open; nil when closed.
    public var searchPrompt: String?
    /// The search narrowing the list, if any ("jose").
    public var filter: String?
    /// What to highlight in names: the active search.
    public var highlight: SearchQuery?
    /// "balance ↓" (", flat" when not grouped by company).
    public var sortLabel: String = ""
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
}

public struct PersonRow: Equatable, Sendable {
    public var name: String
    public var balance: String
    /// Display position of this person (0-based, in list order).
    public var position: Int
}

/// The list's rows as a random-access collection: row `i` is built when
/// asked for, so a frame formats only the rows on screen, whatever the
/// number of people. Section lookup is a binary search over the sections.
public struct ListRows: RandomAccessCollection, Sendable {
    let grouped: GroupedPeople
    let store: PeopleStore

    public init(grouped: GroupedPeople, store: PeopleStore) {
        self.grouped = grouped
        self.store = store
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { grouped.order.count + grouped.sections.count }

    public subscript(row: Int) -> ListRow {
        let section = sectionIndex(ofRow: row)
        let headerRow = grouped.sections[section].range.lowerBound + section
        if row == headerRow {
            let company = grouped.sections[section]
            return .header(CompanyHeaderRow(title: company.title, count: company.count, total: company.total))
        }
        let position = grouped.sections[section].range.lowerBound + (row - headerRow - 1)
        let person = Int(grouped.order[position])
        let first = store.text(.firstName, of: person)
        let last = store.text(.lastName, of: person)
        let name = first.isEmpty ? last : last.isEmpty ? first : first + " " + last
        return .person(PersonRow(name: name, balance: store.text(.balance, of: person), position: position))
    }

    /// The row showing the person at display `position`.
    public func row(ofPosition position: Int) -> Int {
        position + grouped.sectionIndex(containing: position) + 1
    }

    /// Index of the section that row `row` falls in.
    func sectionIndex(ofRow row: Int) -> Int {
        let sections = grouped.sections
        var low = 0, high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].range.lowerBound + middle <= row { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
