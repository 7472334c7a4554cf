import RosterCore
import RosterSQL
import RosterStore

/// The managers `--export` writes beside each person: those the org chart
/// reads (a file's `manager` fields read again, a table's column), so that
/// an export keeps them as the app's `e` does. Standard input, read once,
/// keeps none.
enum ExportManagers {
    /// How `repository`'s managers are read; nil for a source that keeps none.
    static func reading(of repository: any PeopleRepository) -> (any OrgChartReading)? {
        if let file = repository as? InMemoryPeopleRepository { return file.orgChartReading }
        if let table = repository as? SQLPeopleRepository { return SQLOrgChartReading(repository: table) }
        return nil
    }

    /// Everyone's manager references (nil: the source keeps none), and
    /// why they could not be read when they could not (the export is then
    /// written without them, and says so).
    static func lookup(for repository: any PeopleRepository) -> (lookup: (any ManagerReferenceLookup)?, unread: String?) {
        (reading(of: repository)?.readManagerReferences() ?? .none).references
    }
}
