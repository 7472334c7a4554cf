/// A record that is not a person: an element of a JSON array, a line of
/// JSON Lines, a CSV record (after the header).
///
/// It is counted and listed (the `!` screen, `--list`'s summary) rather
/// than dropped silently or allowed to stop the rest from loading.
public struct SkippedRecord: Sendable, Equatable {
    /// 1-based position of the record (the element, the non-blank line, the CSV record).
    public var number: Int
    /// 1-based line where the element starts.
    public var line: Int
    public var reason: String

    public init(number: Int, line: Int, reason: String) {
        self.number = number
        self.line = line
        self.reason = reason
    }

    /// "record 3 (line 40): no name".
    public var description: String { "record \(number) (line \(line)): \(reason)" }
}
