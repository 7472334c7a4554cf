/// A company as the directory names it, with the key it sorts and groups by.
public struct Company: Sendable, Equatable {
    /// The spelling first seen in the file; empty for people with no company.
    public var name: String
    /// Folded (case- and accent-insensitive) bytes: one company per key.
    public var key: [UInt8]
    public var headcount: Int

    public init(name: String, key: [UInt8], headcount: Int) {
        self.name = name
        self.key = key
        self.headcount = headcount
    }
}
