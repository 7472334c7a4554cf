import RosterCore
import RosterStore

extension QueryCommand {
    /// The people of the file at `path`, and everyone of them by last name,
    /// for a query: from the file's kept index (`QueryIndexFile`) when
    /// `query` reads only what an index holds and the index is the file's
    /// as it is now; otherwise loaded as browsing loads it, and the index
    /// kept for the next query (when the file did not change meanwhile).
    static func filePeople(path: String, query: SearchQuery, index: QueryIndexFile?) async
        -> Result<(any PeopleRepository, PeopleArrangement), Options.UsageError> {
        let key = FileKey(path: path)
        if let index, let key, QueryIndex.answers(query.query), let contents = index.read(for: key) {
            let repository = InMemoryPeopleRepository(store: contents.store, sourceName: path)
            return .success((repository, repository.arrangement(of: contents.everyone, sort: .byLastName, byCompany: false)))
        }
        let source = DirectorySource.file(path: path, name: path)
        let repository: any PeopleRepository
        switch await DirectoryInteractor.withManagers(source, format: nil).loadDirectory(progress: LoadProgress()) {
        case .success(let loaded): repository = loaded
        case .failure(let error): return .failure(Options.UsageError(message: error.message))
        }
        guard let inMemory = repository as? InMemoryPeopleRepository else {
            return .success((repository, repository.arrange(sort: .byLastName, byCompany: false, company: nil)))
        }
        // The arrangement `arrange` makes, kept by hand so that the index can hold its order.
        let everyone = GroupedPeople(store: inMemory.store, sort: .byLastName, byCompany: false)
        if let index, let key, FileKey(path: path) == key {
            index.write(QueryIndex.encode(inMemory.store, everyone: everyone), for: key)
        }
        return .success((inMemory, inMemory.arrangement(of: everyone, sort: .byLastName, byCompany: false)))
    }
}
