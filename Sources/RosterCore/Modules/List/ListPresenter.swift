/// Turns a grouped directory into list view models and user intents into
/// selection changes and routes. Holds its view weakly; knows no ncurses.
@MainActor
public final class ListPresenter: ListModuleInterface {
    private weak var view: ListViewInterface?
    private weak var wireframe: ListWireframe?
    private let directory: LoadedDirectory
    private let grouped: GroupedPeople
    private let rows: ListRows
    /// Display position of the selected person.
    public private(set) var selection = 0

    public init(directory: LoadedDirectory, grouped: GroupedPeople, wireframe: ListWireframe) {
        self.directory = directory
        self.grouped = grouped
        self.wireframe = wireframe
        rows = ListRows(grouped: grouped, store: directory.store)
    }

    public var peopleCount: Int { grouped.order.count }

    public func attach(view: ListViewInterface) {
        self.view = view
        render()
    }

    /// Selects the person at display `position` (coming back from detail).
    public func select(position: Int) {
        guard peopleCount > 0 else { return }
        selection = min(max(position, 0), peopleCount - 1)
        render()
    }

    public func moveSelection(by delta: Int) {
        select(position: selection + delta)
    }

    public func selectFirst() {
        select(position: 0)
    }

    public func selectLast() {
        select(position: peopleCount - 1)
    }

    public func openSelected() {
        guard peopleCount > 0 else { return }
        wireframe?.navigate(to: .detail(position: selection))
    }

    public func showSkippedRecords() {
        guard !directory.skipped.isEmpty else { return }
        wireframe?.navigate(to: .skippedRecords)
    }

    public func quit() {
        wireframe?.navigate(to: .quit)
    }

    // MARK: View model

    public func makeViewModel() -> ListViewModel {
        let people = peopleCount
        let companies = grouped.sections.count
        let hasPeople = people > 0
        let section = hasPeople ? grouped.sections[grouped.sectionIndex(containing: selection)] : nil
        return ListViewModel(
            sourceName: directory.sourceName,
            summary: "\(Self.count(people, "person", "people")) · \(Self.count(companies, "company", "companies"))",
            rows: rows,
            selectedRow: hasPeople ? rows.row(ofPosition: selection) : nil,
            position: hasPeople ? "\(Self.grouped(selection + 1))/\(Self.grouped(people))" : "0/0",
            currentCompany: section?.title ?? "",
            notice: Self.skippedNotice(skipped: directory.skipped.count, loaded: people).map { $0 + " (! lists them)" },
            emptyMessage: hasPeople ? nil : "No content to show")
    }

    private func render() {
        view?.show(makeViewModel())
    }

    /// "3 of 200 records skipped", or nil when nothing was.
    public nonisolated static func skippedNotice(skipped: Int, loaded: Int) -> String? {
        guard skipped > 0 else { return nil }
        return "\(grouped(skipped)) of \(grouped(skipped + loaded)) records skipped"
    }

    /// "1 person", "12 people", with thousands separators.
    public nonisolated static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural)"
    }

    public nonisolated static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
