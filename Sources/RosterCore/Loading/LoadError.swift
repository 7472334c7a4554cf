/// Why a directory could not be loaded; each case reads as one clear line.
public enum LoadError: Error, Sendable, Equatable {
    case notFound(file: String)
    case isDirectory(file: String)
    case notReadable(file: String, reason: String)
    case empty(file: String)
    case whitespaceOnly(file: String)
    /// The file is not JSON: what is wrong, and where.
    case syntax(file: String, line: Int, column: Int, message: String)
    /// Good JSON, but not a list: `found` says what it holds instead.
    case notAnArray(file: String, found: String)
    case readFailed(file: String, reason: String)
    /// CSV or JSON Lines that cannot be read on (an unclosed quote, no name
    /// column): what is wrong, and where when it has a place.
    case invalid(file: String, line: Int?, column: Int?, message: String)
    /// A database that was connected to but could not be read (its table
    /// is missing or of another shape, the server went away): `message`
    /// is the whole line, naming the target.
    case database(target: String, message: String)

    public var file: String {
        switch self {
        case .notFound(let file), .isDirectory(let file), .notReadable(let file, _), .empty(let file),
             .whitespaceOnly(let file), .syntax(let file, _, _, _), .notAnArray(let file, _),
             .readFailed(let file, _), .invalid(let file, _, _, _), .database(let file, _):
            return file
        }
    }

    /// One line for a person: the file, the place, what is wrong.
    public var message: String {
        switch self {
        case .notFound(let file):
            return "\(file): no such file"
        case .isDirectory(let file):
            return "\(file): is a directory, not a JSON file"
        case .notReadable(let file, let reason):
            return "\(file): cannot be read (\(reason))"
        case .empty(let file) where file == "stdin":
            return "stdin: nothing came on standard input; expected a JSON list of people"
        case .empty(let file):
            return "\(file): the file is empty; expected a JSON list of people"
        case .whitespaceOnly(let file):
            return "\(file): the file holds only whitespace; expected a JSON list of people"
        case .syntax(let file, let line, let column, let message):
            return "\(file): line \(line), column \(column): not valid JSON: \(message)"
        case .notAnArray(let file, let found):
            return "\(file): expected a JSON list of people ([...]), but the file holds \(found)"
        case .readFailed(let file, let reason):
            return "\(file): reading failed (\(reason))"
        case .invalid(let file, let line?, let column?, let message):
            return "\(file): line \(line), column \(column): \(message)"
        case .invalid(let file, let line?, nil, let message):
            return "\(file): line \(line): \(message)"
        case .invalid(let file, _, _, let message):
            return "\(file): \(message)"
        case .database(_, let message):
            return message
        }
    }
}
