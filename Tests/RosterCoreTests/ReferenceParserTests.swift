import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// The loader accepts exactly the JSON that Foundation's JSONSerialization
/// accepts, on generated and hand-written documents, valid and invalid.
@Suite("JSON conformance against JSONSerialization")
struct ReferenceParserTests {
    /// Valid means: our loader does not report a syntax error.
    static func weAccept(_ bytes: [UInt8]) -> Bool {
        do {
            _ = try PeopleLoader(format: .json).load(bytes: bytes, sourceName: "x")
            return true
        } catch let error {
            if case .syntax = error { return false }
            return true  // good JSON, just not people (not an array, empty)
        }
    }

    /// The reference, corrected where it departs from RFC 8259: Linux's
    /// JSONSerialization accepts a trailing comma (`[1,]`), which the RFC
    /// forbids and jq and Python reject; and it rejects numbers beyond a
    /// Double's range (`1E456789`), which the RFC's grammar allows (and
    /// jq and Python accept). The loader follows the RFC in both.
    static func referenceAccepts(_ bytes: [UInt8]) -> Bool {
        let accepted = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
        if accepted { return !hasTrailingComma(bytes) }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains(/[0-9][eE][+-]?[0-9]{3,}/) {
            let tamed = text.replacing(/([0-9])[eE]([+-]?)[0-9]{3,}/) { "\($0.output.1)e\($0.output.2)1" }
            return referenceAccepts(Array(tamed.utf8))
        }
        return false
    }

    /// A `,` followed (after whitespace) by `]` or `}`, outside strings.
    static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var inString = false
        var escaped = false
        var lastSignificant: UInt8 = 0
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if byte == UInt8(ascii: " ") || byte == 0x0A || byte == 0x0D || byte == 0x09 { continue }
            if (byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")) && lastSignificant == UInt8(ascii: ",") { return true }
            if byte == UInt8(ascii: "\"") { inString = true }
            lastSignificant = byte
        }
        return false
    }

    @Test("the reference's known leniency is what the correction covers")
    func referenceLeniency() {
        #expect((try? JSONSerialization.jsonObject(with: Data("[1,]".utf8), options: [.fragmentsAllowed])) != nil)
        #expect(!Self.weAccept(Array("[1,]".utf8)))
        #expect((try? JSONSerialization.jsonObject(with: Data("[1e999]".utf8), options: [])) == nil)
        #expect(Self.weAccept(Array("[1e999]".utf8)))
    }

    static let handWritten: [String] = [
        "[]", "[ ]", "[{}]", "[1]", "[1,]", "[,1]", "[[]]", "[{\"a\":1}]", "[{\"a\":1,}]", "[{\"a\" 1}]",
        "[{a:1}]", "[{\"a\":1}", "[\"\\u00e9\"]", "[\"\\u00\"]", "[\"\\x\"]", "[\"\\ud83d\\ude80\"]",
        "[-0]", "[-]", "[01]", "[1.]", "[.5]", "[1e5]", "[1E+5]", "[1e]", "[1.5e-3]", "[-1.5E+3]", "[+1]",
        "[true]", "[tru]", "[truex]", "[null]", "[nul]", "[false, true, null]", "[\"a\"]", "[\"a]",
        "[\"\t\"]", "[\"\\t\"]", "[1 2]", "[{\"a\":[1,{\"b\":[]}]}]", "[{\"a\":}]", "[{\"a\":1}}]", "[]]",
        " \n [ \r\n ] \t ", "[\"\\/\"]", "[\"\\\"\"]", "[1,2,3,]", "[{\"name\":{\"first\":\"x\"}}]",
        "[{\"name\":{\"first\":1}}]", "[0.0]", "[-0.0e-0]", "[\"\\uD834\\uDD1E\"]", "[{\"\":\"\"}]",
    ]

    @Test("hand-written documents", arguments: handWritten)
    func handWrittenDocument(_ json: String) {
        let bytes = Array(json.utf8)
        #expect(Self.weAccept(bytes) == Self.referenceAccepts(bytes), "\(json)")
    }

    @Test("generated documents and their mutations agree with the reference")
    func generatedDocuments() {
        var random = SeededRandom(seed: 7)
        var disagreements: [String] = []
        for _ in 0..<1500 {
            let valid = "[" + (0..<random.below(4)).map { _ in Self.value(&random, depth: 0) }.joined(separator: ",") + "]"
            var bytes = Array(valid.utf8)
            if random.below(3) > 0, !bytes.isEmpty {
                Self.mutate(&bytes, &random)
            }
            guard String(validating: bytes, as: UTF8.self) != nil else { continue }
            if Self.weAccept(bytes) != Self.referenceAccepts(bytes) {
                disagreements.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    static func value(_ random: inout SeededRandom, depth: Int) -> String {
        let choice = depth > 3 ? random.below(5) : random.below(8)
        switch choice {
        case 0: return ["0", "-1", "3.25", "1e3", "-2.5E-2", "123456789"][random.below(6)]
        case 1: return ["\"\"", "\"abc\"", "\"é\\n\"", "\"\\u00e9\\ud83d\\ude80\"", "\"q\\\"\\\\\""][random.below(5)]
        case 2: return ["true", "false", "null"][random.below(3)]
        case 3: return #"{"name":{"first":"A","last":"B"},"age":3}"#
        case 4: return "\"x y\""
        case 5: return "[" + (0..<random.below(3)).map { _ in value(&random, depth: depth + 1) }.joined(separator: ", ") + "]"
        default:
            let members = (0..<random.below(3)).map { index in "\"k\(index)\": " + value(&random, depth: depth + 1) }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    static func mutate(_ bytes: inout [UInt8], _ random: inout SeededRandom) {
        let position = random.below(bytes.count)
        let tokens: [UInt8] = Array("[]{},:\"\\0123456789-+.eEtrufalsn x".utf8)
        switch random.below(3) {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(tokens[random.below(tokens.count)], at: position)
        default: bytes[position] = tokens[random.below(tokens.count)]
        }
    }
}
