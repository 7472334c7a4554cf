#if canImport(Glibc)
import Glibc
#endif

/// Where the directory comes from.
public enum DirectorySource: Sendable, Equatable {
    /// A JSON file; `name` is how messages and the title bar call it.
    case file(path: String, name: String)
    /// Standard input (`roster -`), streamed.
    case standardInput

    public var name: String {
        switch self {
        case .file(_, let name): return name
        case .standardInput: return "stdin"
        }
    }
}

/// The list module's data: open the directory, off the UI actor; every
/// later question goes to the repository it returns.
public protocol ListInteractorInput: Sendable {
    func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError>
}

/// Loads people from a file or standard input with `PeopleLoader` into
/// an in-memory repository.
public struct DirectoryInteractor: ListInteractorInput {
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
