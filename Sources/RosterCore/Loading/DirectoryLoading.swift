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

    /// The sample directory Roster opens when given no file: named as the
    /// sample (it is read-only), not as the file it happens to be.
    public static func sample(path: String) -> DirectorySource { .file(path: path, name: sampleTitle) }

    /// How titles and messages name the sample directory.
    public static let sampleTitle = "sample directory (read-only)"
    /// The same, where a title has no room for the whole of it.
    public static let sampleShortTitle = "sample (read-only)"
    /// Why the sample cannot be edited, and how to get a copy that can,
    /// `program` named as the user started it: one line whole on a status
    /// bar 60 columns wide (the title says "sample"), with `roster` and
    /// with `.build/release/roster` (a clone's `make run`).
    public static func sampleReadOnlyReason(program: String = "roster") -> String {
        "read-only; to edit: \(program) init people.json"
    }
}

/// Opens the directory, off the UI actor: a file read whole, standard
/// input, or a database. Every later question goes to the repository it
/// returns, through each screen's interactor.
public protocol DirectoryLoading: Sendable {
    func loadDirectory(progress: LoadProgress) async -> Result<any PeopleRepository, LoadError>
}
