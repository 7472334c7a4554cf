import Foundation

/// What an export to a file name should do, given what is at that path:
/// the export flow's rules and wording, apart from the list's state.
public enum ExportDecision: Equatable, Sendable {
    /// Write now (nothing there and the extension names a format).
    case write
    /// Ask `question` first; a yes writes, replacing a file when `replacing`.
    case ask(question: String, replacing: Bool)
    /// Never written; `message` says why.
    case refuse(message: String)

    /// Writes to a new file at once; asks before replacing a file or
    /// writing a name whose extension names no format (CSV is written);
    /// refuses directories, broken links, devices, pipes and sockets,
    /// saying what they are.
    public init(name: String, target: ExportTarget) {
        let known = ExportFormat(knownExtensionOf: name) != nil
        let unknown = (name as NSString).pathExtension.isEmpty ? "no extension" : "unknown extension"
        func refuse(_ reason: String) -> ExportDecision { .refuse(message: "\(name) \(reason); not written") }
        switch target {
        case .nothing where known: self = .write
        case .nothing: self = .ask(question: "\(name): \(unknown), write CSV? (y/n)", replacing: false)
        case .regularFile:
            self = .ask(question: known ? "\(name) exists; overwrite? (y/n)" : "\(name) exists (\(unknown)); overwrite with CSV? (y/n)",
                        replacing: true)
        case .directory: self = refuse("is a directory")
        case .brokenSymbolicLink: self = refuse("is a broken symbolic link")
        case .characterDevice: self = refuse("is a character device")
        case .blockDevice: self = refuse("is a block device")
        case .namedPipe: self = refuse("is a named pipe (FIFO)")
        case .socket: self = refuse("is a socket")
        case .unusable(let reason): self = refuse("cannot be written (\(reason))")
        }
    }

    /// `people.csv` for `people.json` (or `data/people.json`) and for the
    /// sample, `stdin.csv` for standard input: the data's base name, as CSV.
    public static func suggestedName(for sourceName: String) -> String {
        if sourceName == DirectorySource.sampleTitle { return "people.csv" }
        let file = (sourceName as NSString).lastPathComponent
        let base = (file as NSString).deletingPathExtension
        return (base.isEmpty || base == "/" ? "roster" : base) + ".csv"
    }
}
