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

    public init(source: DirectorySource, loader: PeopleLoader = PeopleLoader()) {
        self.source = source
        self.loader = loader
    }

    public func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError> {
        do throws(LoadError) {
            switch source {
            case .file(let path, let name):
                return .success(InMemoryPeopleRepository(try await loader.load(path: path, sourceName: name, progress: progress)))
            case .standardInput:
                return .success(InMemoryPeopleRepository(
                    try loader.stream(descriptor: STDIN_FILENO, sourceName: source.name, progress: progress)))
            }
        } catch {
            return .failure(error)
        }
    }
}
