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

/// Opens the directory, off the UI actor: a file read whole, standard
/// input, or a database. Every later question goes to the repository it
/// returns, through each screen's interactor.
public protocol DirectoryLoading: Sendable {
    func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError>
}
