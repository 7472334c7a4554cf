/// Where a syntax error stands: 1-based line and column (in characters).
public struct ParseLocation: Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var offset: Int
}

/// Why the parser gave up on the whole input.
enum ParseError: Error, Equatable {
    /// Nothing but whitespace (the caller tells empty from blank by size).
    case empty
    case notAnArray(found: String, location: ParseLocation)
    case syntax(String, location: ParseLocation)
    /// Not JSON's grammar (CSV, a JSON Lines header problem): the message says it all.
    case invalid(String, location: ParseLocation?)
}
