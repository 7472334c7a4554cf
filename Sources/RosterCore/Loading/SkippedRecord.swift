/// An element of the people array that is valid JSON but not a person.
///
/// It is counted and listed (the `!` screen, `--list`'s summary) rather
/// than dropped silently or allowed to stop the rest from loading.
public struct SkippedRecord: Sendable, Equatable {
    /// 1-based position of the element in the array.
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
