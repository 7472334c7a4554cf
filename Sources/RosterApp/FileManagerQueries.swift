import RosterCore
import RosterStore

extension FileOrgChartReading {
    /// How the repository of the file at `path` reads its people's
    /// managers when a query asks the org chart (`under:X`): the file read
    /// again, as the chart screen reads it.
    static func managers(path: String, format: InputFormat?, sourceName: String) -> InMemoryPeopleRepository.ManagerReading {
        { store in FileOrgChartReading(path: path, format: format, store: store, sourceName: sourceName) }
    }
}

extension DirectoryInteractor {
    /// The loading of `source` whose file's managers the org chart's query
    /// terms read; standard input keeps none.
    static func withManagers(_ source: DirectorySource, format: InputFormat?) -> DirectoryInteractor {
        guard case .file(let path, let name) = source else { return DirectoryInteractor(source: source, loader: PeopleLoader(format: format)) }
        return DirectoryInteractor(source: source, loader: PeopleLoader(format: format),
                                   managers: FileOrgChartReading.managers(path: path, format: format, sourceName: name))
    }
}
