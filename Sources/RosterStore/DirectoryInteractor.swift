#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// Loads people from a file or standard input with `PeopleLoader` into
/// an in-memory repository.
public struct DirectoryInteractor: DirectoryLoading {
    public let source: DirectorySource
    public let loader: PeopleLoader
    /// How a file's people's managers are read (the file read again), for
    /// the org chart's query terms; nil: the people carry none.
    public let managers: InMemoryPeopleRepository.ManagerReading?

    public init(source: DirectorySource, loader: PeopleLoader = PeopleLoader(), managers: InMemoryPeopleRepository.ManagerReading? = nil) {
        self.source = source
        self.loader = loader
        self.managers = managers
    }

    public func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError> {
        do throws(LoadError) {
            switch source {
            case .file(let path, let name):
                return .success(InMemoryPeopleRepository(try await loader.load(path: path, sourceName: name, progress: progress),
                                                         managers: managers))
            case .standardInput:
                return .success(InMemoryPeopleRepository(
                    try loader.stream(descriptor: STDIN_FILENO, sourceName: source.name, progress: progress)))
            }
        } catch {
            return .failure(error)
        }
    }
}
