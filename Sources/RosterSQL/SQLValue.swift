/// A value bound to a statement's parameter or read from a row.
///
/// Every value a user typed reaches the server as one of these, never
/// as SQL text: the statement carries `$1` (PostgreSQL) or `?` (SQLite).
public enum SQLValue: Sendable, Hashable {
    case null
    case int(Int64)
    case text(String)
    /// Raw bytes: PostgreSQL `bytea`, SQLite `BLOB` (the folded sort keys).
    case bytes([UInt8])
    case bool(Bool)

    /// `.text(value)`, or `.null` for nil.
    public static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    /// `.int(value)`, or `.null` for nil.
    public static func int<Integer: BinaryInteger>(_ value: Integer?) -> SQLValue { value.map { .int(Int64($0)) } ?? .null }
    public static func bool(_ value: Bool?) -> SQLValue { value.map { .bool($0) } ?? .null }
}

/// One row of a result, copied out of the library's buffers so that it
/// outlives the statement or result it came from.
public struct SQLRow: Sendable, Equatable {
    public var values: [SQLValue]

    public init(_ values: [SQLValue]) {
        self.values = values
    }

    public var count: Int { values.count }
    public subscript(column: Int) -> SQLValue { values[column] }

    public func isNull(_ column: Int) -> Bool { values[column] == .null }

    /// The column as text (integers and booleans as they print), nil if NULL.
    public func text(_ column: Int) -> String? {
        switch values[column] {
        case .null: return nil
        case .text(let text): return text
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The column as an integer, nil if NULL or not a whole number.
    public func int(_ column: Int) -> Int64? {
        switch values[column] {
        case .int(let number): return number
        case .text(let text): return Int64(text)
        case .bool(let flag): return flag ? 1 : 0
        case .null, .bytes: return nil
        }
    }

    /// The column as an exact integer wider than 64 bits (PostgreSQL
    /// `numeric` sums arrive as text), nil if NULL or not a whole number.
    public func int128(_ column: Int) -> Int128? {
        switch values[column] {
        case .int(let number): return Int128(number)
        case .text(let text): return Int128(text)
        case .null, .bytes, .bool: return nil
        }
    }

    public func bool(_ column: Int) -> Bool? {
        switch values[column] {
        case .bool(let flag): return flag
        case .int(let number): return number != 0
        case .null, .text, .bytes: return nil
        }
    }

    public func bytes(_ column: Int) -> [UInt8]? {
        switch values[column] {
        case .bytes(let bytes): return bytes
        case .text(let text): return Array(text.utf8)
        case .null, .int, .bool: return nil
        }
    }
}

/// The one shape of a transaction in both dialects.
enum SQLTransaction {
    /// `begin`, then `body`: COMMIT if it returns, ROLLBACK if it throws
    /// (its error is the one that matters; the connection may be gone).
    static func run<Result>(begin: String, execute: (String) throws(DatabaseError) -> Void,
                            _ body: () throws(DatabaseError) -> Result) throws(DatabaseError) -> Result {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }
}

/// One row's columns as the library holds them, for reading many rows
/// without a String each: called with a column's number and what to do
/// with its text bytes (nil for NULL), which are valid only in that call.
public typealias SQLColumnText = (Int32, (UnsafeBufferPointer<UInt8>?) -> Void) -> Void

extension SQLRow {
    /// The row's columns as `SQLColumnText` gives them (for a source that
    /// only gives whole rows).
    func withColumnText(_ body: (SQLColumnText) -> Void) {
        body { column, use in
            guard var text = text(Int(column)) else { return use(nil) }
            text.withUTF8 { use($0) }
        }
    }
}
