import Foundation
import Testing

/// The limits that keep every file readable in one sitting: no product
/// source file over 400 lines, no function over 60. Product code is
/// `Sources/` less the test helpers and the generators.
@Suite("Source limits")
struct SourceLimitsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
    static let notProduct: Set<String> = ["TestSupport", "TestServers", "TestTraits", "roster-gen", "roster-bench"]

    /// Every product source file, by its path under `Sources/`, with its text.
    static func productFiles() throws -> [(path: String, text: String)] {
        let names = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
        return try names.sorted().filter { $0.hasSuffix(".swift") && !notProduct.contains(String($0.prefix { $0 != "/" })) }.map {
            ($0, try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8))
        }
    }

    @Test("no product source file is over 400 lines")
    func fileLengths() throws {
        let files = try Self.productFiles()
        #expect(files.count > 200, "the product's files were found")
        let over = files.map { ($0.path, $0.text.utf8.count { $0 == UInt8(ascii: "\n") }) }.filter { $0.1 > 400 }
        #expect(over.isEmpty, "\(over)")
    }

    @Test("no function, initializer or subscript in product code is over 60 lines")
    func functionLengths() throws {
        var over: [String] = []
        var longest = 0
        for file in try Self.productFiles() {
            for body in CodeShape(file.text).bodies() {
                longest = max(longest, body.lines)
                if body.lines > 60 { over.append("\(file.path):\(body.line) \(body.lines) lines") }
            }
        }
        #expect(over.isEmpty, "\(over)")
        #expect(longest > 30, "bodies were found (the longest has \(longest) lines)")
    }

    @Test("the function scanner skips strings, comments and protocol requirements")
    func scanner() {
        let code = """
            protocol P {
                func a() -> Int
                var b: Int { get }
            }
            func c(_ x: Int = { 1 }()) -> String {
                // a comment with a { brace
                let s = "a { brace \\("}" + "{") and more"
                return s + \"\"\"
                    {
                    \"\"\"
            }
            """
        let bodies = CodeShape(code).bodies()
        #expect(bodies.map(\.line) == [5], "\(bodies)")
        #expect(bodies.first?.lines == 7)
    }
}

/// Swift source with comments and string literals blanked out (newlines
/// kept), so that braces can be matched to find where declarations' bodies
/// start and end.
struct CodeShape {
    let bytes: [UInt8]
    /// Where each line after the first starts.
    private let lineStarts: [Int]

    init(_ text: String) {
        var blanked = Array(text.utf8)
        var index = 0
        Self.blank(&blanked, from: &index, until: nil)
        bytes = blanked
        lineStarts = blanked.indices.filter { blanked[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
    }

    /// Blanks comments and strings from `index` on; stops after the `)`
    /// that closes an interpolation when `until` is `)`.
    private static func blank(_ bytes: inout [UInt8], from index: inout Int, until close: UInt8?) {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " "); index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")) {
                    if bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
                    index += 1
                }
                if index + 1 < bytes.count { bytes[index] = UInt8(ascii: " "); bytes[index + 1] = UInt8(ascii: " "); index += 2 }
            } else if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"")) {
                blankString(&bytes, from: &index)
            } else {
                if byte == UInt8(ascii: "(") { depth += 1 }
                if byte == UInt8(ascii: ")") {
                    if depth == 0, close == UInt8(ascii: ")") { index += 1; return }
                    depth -= 1
                }
                index += 1
            }
        }
    }

    /// Blanks one string literal (plain, multi-line or raw) at `index`,
    /// interpolations included.
    private static func blankString(_ bytes: inout [UInt8], from index: inout Int) {
        var hashes = 0
        while bytes[index] == UInt8(ascii: "#") { hashes += 1; index += 1 }
        let isMultiline = index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") && bytes[index + 2] == UInt8(ascii: "\"")
        let quotes = isMultiline ? 3 : 1
        index += quotes
        func closes(at position: Int) -> Bool {
            guard position + quotes + hashes <= bytes.count else { return false }
            return (0..<quotes).allSatisfy { bytes[position + $0] == UInt8(ascii: "\"") }
                && (0..<hashes).allSatisfy { bytes[position + quotes + $0] == UInt8(ascii: "#") }
        }
        while index < bytes.count {
            if closes(at: index) { index += quotes + hashes; return }
            if bytes[index] == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ index + 1 + $0 < bytes.count && bytes[index + 1 + $0] == UInt8(ascii: "#") }) {
                let next = index + 1 + hashes
                if next < bytes.count, bytes[next] == UInt8(ascii: "(") {
                    for blank in index...next { bytes[blank] = UInt8(ascii: " ") }
                    index = next + 1
                    blank(&bytes, from: &index, until: UInt8(ascii: ")"))
                    for blank in max(0, index - 1)..<index { bytes[blank] = UInt8(ascii: " ") }
                    continue
                }
                bytes[index] = UInt8(ascii: " ")
                index += 1
                if index < bytes.count, bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
                index += 1
                continue
            }
            if bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
            index += 1
        }
    }

    /// A declaration's body: the line its keyword is on (1-based) and how
    /// many lines it spans, that line and the closing brace's included.
    struct Body: CustomStringConvertible {
        let line: Int
        let lines: Int
        var description: String { "line \(line): \(lines) lines" }
    }

    static let keywords = ["func", "init", "deinit", "subscript"]
    /// How a line starts when the declaration before it had no body (a
    /// protocol's requirement): the next declaration, or the type's end.
    static let nextDeclaration = ["func ", "var ", "let ", "init", "static ", "public ", "private ", "internal ", "fileprivate ",
                                  "mutating ", "nonisolated", "@", "}", "case ", "subscript", "deinit", "associatedtype ", "typealias ", "#"]

    func bodies() -> [Body] {
        var found: [Body] = []
        var index = 0
        while index < bytes.count {
            guard let keyword = keyword(at: index) else { index += 1; continue }
            if let body = body(after: index + keyword.utf8.count) {
                found.append(Body(line: line(of: index), lines: line(of: body) - line(of: index) + 1))
            }
            index += keyword.utf8.count
        }
        return found
    }

    /// The keyword starting at `index` as a whole word, if any.
    private func keyword(at index: Int) -> String? {
        // Not part of a longer word, nor a call (`self.init(…)`).
        if index > 0, Self.isWordByte(bytes[index - 1]) || bytes[index - 1] == UInt8(ascii: ".") { return nil }
        for keyword in Self.keywords {
            let word = Array(keyword.utf8)
            guard index + word.count <= bytes.count, Array(bytes[index..<(index + word.count)]) == word else { continue }
            let after = index + word.count < bytes.count ? bytes[index + word.count] : UInt8(ascii: " ")
            if !Self.isWordByte(after) { return keyword }
        }
        return nil
    }

    /// Where the body that follows a declaration's keyword ends (its `}`),
    /// or nil for a declaration without a body.
    private func body(after start: Int) -> Int? {
        var index = start
        var parentheses = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: "["): parentheses += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"): parentheses -= 1
            case UInt8(ascii: "{") where parentheses == 0: return closingBrace(from: index)
            case UInt8(ascii: "{"): if let end = closingBrace(from: index) { index = end }
            case UInt8(ascii: "\n") where parentheses == 0:
                let rest = bytes[(index + 1)...].drop { $0 == UInt8(ascii: " ") }
                let line = String(decoding: rest.prefix(20), as: UTF8.self)
                if Self.nextDeclaration.contains(where: line.hasPrefix) || rest.first == UInt8(ascii: "\n") { return nil }
            default: break
            }
            index += 1
        }
        return nil
    }

    private func closingBrace(from open: Int) -> Int? {
        var depth = 0
        for index in open..<bytes.count {
            if bytes[index] == UInt8(ascii: "{") { depth += 1 }
            if bytes[index] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    private func line(of index: Int) -> Int {
        var low = 0, high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= index { low = middle + 1 } else { high = middle }
        }
        return 1 + low
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
