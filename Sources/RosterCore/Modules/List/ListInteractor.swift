/// Where the directory comes from.
public enum DirectorySource: Sendable, Equatable {
    /// A file (JSON, JSON Lines or CSV); `name` is how messages and the title bar call it.
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
