import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@Suite("Loading people")
struct LoaderTests {
    @Test("decodes every field of the seed's records")
    func decodesEveryField() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        #expect(directory.store.count == 6)
        #expect(directory.skipped.isEmpty)
        let bertha = directory.store[0]
        #expect(bertha == Person(
            id: "58f9a19680685a4e1e6d5016", index: 0, guid: "0b10fe86-a222-4ca5-a094-0082b7d4c1af",
            isActive: false, balance: Balance(text: "$2,107.15", cents: 210_715),
            picture: "http://placehold.it/32x32", age: 35, eyeColor: "green",
            firstName: "Bertha", lastName: "Irwin", company: "COMSTAR",
            email: "bertha.irwin@comstar.net", phone: "+1 (806) 584-3949",
            address: "303 Vermont Street, Concho, Arizona, 1707", favoriteFruit: "banana"))
        #expect(directory.store[2].isActive == true)
        #expect(directory.store[5].lastName == "Sanchez")
    }

    @Test("ignores unknown fields and allows missing ones")
    func missingAndExtraFields() throws {
        let json = Fixtures.array([
            #"{"name": {"first": "Ada", "last": "Lovelace", "middle": "X"}, "nested": {"a": [1, {"b": null}]}, "tags": ["x"]}"#,
            #"{"name": {"last": "Turing"}, "age": null, "isActive": null, "balance": null}"#,
        ])
        let directory = try Fixtures.directory(json: json)
        #expect(directory.store.count == 2)
        let ada = directory.store[0]
        #expect(ada.firstName == "Ada")
        #expect(ada.company == "")
        #expect(ada.age == nil)
        #expect(ada.isActive == nil)
        #expect(ada.balance.cents == nil)
        #expect(directory.store[1].fullName == "Turing")
    }

    @Test("accepts any key order, escapes and surrogate pairs")
    func escapesAndOrder() throws {
        let json = #"[{"company": "A\u0026B \"Q\"", "name": {"last": "\u00c9mile\ud83d\ude80", "first": "tab\there"}, "email": "a\/b\\c"}]"#
        let person = try Fixtures.directory(json: json).store[0]
        #expect(person.company == "A&B \"Q\"")
        #expect(person.lastName == "Émile🚀")
        #expect(person.firstName == "tab\there")
        #expect(person.email == "a/b\\c")
    }

    @Test("accepts a balance written as a number and a name written as one string")
    func lenientShapes() throws {
        let json = #"[{"name": "Grace Brewster Hopper", "balance": 1234.5, "age": 3.5e1}]"#
        let person = try Fixtures.directory(json: json).store[0]
        #expect(person.firstName == "Grace Brewster")
        #expect(person.lastName == "Hopper")
        #expect(person.balance.cents == 123_450)
        #expect(person.age == 35)
    }

    @Test("skips elements that are not people, keeping every good one, with number, line and reason")
    func skipsBadRecords() throws {
        let json = """
        [
          {"name": {"first": "Ada", "last": "Lovelace"}},
          null,
          42,
          {"name": {"first": "", "last": "  "}},
          {"name": {"first": "Alan", "last": "Turing"}, "age": "old"},
          {"name": {"first": "Grace", "last": "Hopper"}, "isActive": "yes"},
          ["not", "a", "person"],
          {"name": {"first": "Edsger", "last": "Dijkstra"}, "age": 1e30},
          {"name": {"first": "Barbara", "last": "Liskov"}}
        ]
        """
        let directory = try Fixtures.directory(json: json)
        #expect(directory.store.count == 2)
        #expect(directory.store[1].lastName == "Liskov")
        #expect(directory.skipped == [
            SkippedRecord(number: 2, line: 3, reason: "expected a person (an object), found null"),
            SkippedRecord(number: 3, line: 4, reason: "expected a person (an object), found a number"),
            SkippedRecord(number: 4, line: 5, reason: "no name (needs name.first or name.last)"),
            SkippedRecord(number: 5, line: 6, reason: "'age' should be a number, found text"),
            SkippedRecord(number: 6, line: 7, reason: "'isActive' should be true or false, found text"),
            SkippedRecord(number: 7, line: 8, reason: "expected a person (an object), found an array"),
            SkippedRecord(number: 8, line: 9, reason: "'age' is not a whole number in range"),
        ])
    }

    @Test("an empty array is an empty directory, not an error")
    func emptyArray() throws {
        let directory = try Fixtures.directory(json: " [ ] ")
        #expect(directory.store.count == 0)
        #expect(GroupedPeople(store: directory.store).sections.isEmpty)
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        let label: String
        let json: String
        let expected: LoadError
        var testDescription: String { label }
    }

    static let badFiles: [BadFile] = [
        BadFile(label: "empty", json: "", expected: .empty(file: "t.json")),
        BadFile(label: "whitespace only", json: " \n\t ", expected: .whitespaceOnly(file: "t.json")),
        BadFile(label: "an object", json: #"{"name": "x"}"#, expected: .notAnArray(file: "t.json", found: "an object")),
        BadFile(label: "a scalar", json: "42", expected: .notAnArray(file: "t.json", found: "a number")),
        BadFile(label: "a scalar then garbage", json: "42]", expected: .syntax(file: "t.json", line: 1, column: 3,
            message: "found ']' after the end of the document")),
        BadFile(label: "a string", json: #""people""#, expected: .notAnArray(file: "t.json", found: "text")),
        BadFile(label: "binary", json: "\u{01}\u{02}PNG", expected: .syntax(file: "t.json", line: 1, column: 1,
            message: "expected '[' to start a list of people, found byte 0x1 (is this a JSON file?)")),
        BadFile(label: "not JSON text", json: "name,email\nAda,ada@x", expected: .syntax(file: "t.json", line: 1, column: 1,
            message: "expected '[' to start a list of people, found 'n' (is this a JSON file?)")),
        BadFile(label: "truncated", json: "[\n {\"name\": {\"first\": \"Ada\"", expected: .syntax(file: "t.json", line: 2, column: 26,
            message: "the file ends too early (is it truncated?)")),
        BadFile(label: "truncated after a comma", json: "[{\"name\": \"A\"},\n", expected: .syntax(file: "t.json", line: 2, column: 1,
            message: "the file ends too early (is it truncated?)")),
        BadFile(label: "trailing garbage", json: "[]\nxyz", expected: .syntax(file: "t.json", line: 2, column: 1,
            message: "found 'x' after the end of the list of people")),
        BadFile(label: "missing comma", json: "[\n{\"name\": \"A\"}\n{\"name\": \"B\"}]", expected: .syntax(file: "t.json", line: 3, column: 1,
            message: "expected ',' or ']' after a record, found an object")),
        BadFile(label: "trailing comma", json: "[{\"name\": \"A\"},]", expected: .syntax(file: "t.json", line: 1, column: 16,
            message: "expected a value, found ']'")),
        BadFile(label: "raw newline in text", json: "[{\"name\": \"A\nB\"}]", expected: .syntax(file: "t.json", line: 1, column: 13,
            message: "a line break inside text (a string is missing its closing quote?)")),
        BadFile(label: "bad escape", json: #"[{"name": "\q"}]"#, expected: .syntax(file: "t.json", line: 1, column: 12,
            message: "invalid escape '\\q' in text")),
        BadFile(label: "lone surrogate", json: #"[{"name": "\ud800x"}]"#, expected: .syntax(file: "t.json", line: 1, column: 12,
            message: "a \\u escape starts a surrogate pair that is never finished")),
        BadFile(label: "bad literal", json: #"[{"isActive": tru}]"#, expected: .syntax(file: "t.json", line: 1, column: 15,
            message: "expected 'true'")),
        BadFile(label: "leading zero", json: #"[{"age": 01}]"#, expected: .syntax(file: "t.json", line: 1, column: 11,
            message: "expected ',' or '}' in a record, found a number")),
        BadFile(label: "column counts characters", json: "[{\"name\": \"Zoë\" \"x\"}]", expected: .syntax(file: "t.json", line: 1, column: 17,
            message: "expected ',' or '}' in a record, found text")),
    ]

    @Test("a bad file is one clear error naming the file and the place", arguments: badFiles)
    func badFile(_ bad: BadFile) {
        #expect(throws: bad.expected) {
            try PeopleLoader().load(bytes: Array(bad.json.utf8), sourceName: "t.json")
        }
    }

    @Test("errors read as one line naming the file")
    func messages() {
        #expect(LoadError.syntax(file: "a.json", line: 3, column: 7, message: "expected a value, found ']'").message
                == "a.json: line 3, column 7: not valid JSON: expected a value, found ']'")
        #expect(LoadError.notFound(file: "x.json").message == "x.json: no such file")
    }

    @Test("nesting hundreds of thousands of levels deep neither crashes nor overflows the stack")
    func deepNesting() throws {
        let depth = 300_000
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let json = #"[{"name": {"first": "Deep"}, "junk": "# + deep + "}]"
        let directory = try Fixtures.directory(json: json)
        #expect(directory.store.count == 1)
        let unclosed = "[" + String(repeating: "[", count: depth)
        #expect(throws: LoadError.self) { try Fixtures.directory(json: unclosed) }
    }

    @Test("a single huge string loads")
    func hugeString() throws {
        let long = String(repeating: "x", count: 5_000_000)
        let directory = try Fixtures.directory(json: #"[{"name": {"first": "Big"}, "address": "\#(long)"}]"#)
        #expect(directory.store[0].address.utf8.count == 5_000_000)
    }

    @Test("invalid UTF-8 inside text shows as U+FFFD instead of failing")
    func invalidUTF8() throws {
        var bytes = Array(#"[{"name": {"first": "A"#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(#""}}]"#.utf8)
        let directory = try PeopleLoader().load(bytes: bytes, sourceName: "t.json")
        #expect(directory.store[0].firstName == "A\u{FFFD}\u{FFFD}")
    }

    @Test("companies that differ only by invisible characters are one company; an invisible name is no name")
    func invisibleCharacters() throws {
        let directory = try Fixtures.directory(json: Fixtures.array([
            Fixtures.record(first: "A", company: "ACME", index: 0),
            Fixtures.record(first: "B", company: "AC\u{200B}ME", index: 1),
            Fixtures.record(first: "C", company: "ACME\u{2060}", index: 2),
            Fixtures.record(first: "D", company: "\u{FEFF}ACME", index: 3),
            Fixtures.record(first: "E", company: "\u{200B}", index: 4),
            Fixtures.record(first: "\u{200B}\u{00A0}", last: "\u{200E}\u{2067}", index: 5),
            Fixtures.record(first: "\u{00A0}", last: nil, index: 6),
        ]))
        let grouped = GroupedPeople(store: directory.store)
        #expect(grouped.sections.map(\.title) == ["ACME", GroupedPeople.noCompanyTitle])
        #expect(grouped.sections.map(\.count) == [4, 1])
        #expect(directory.skipped.map(\.number) == [6, 7])
        #expect(directory.skipped.allSatisfy { $0.reason == "no name (needs name.first or name.last)" })
    }

    @Test("a UTF-8 byte-order mark before the list is allowed")
    func byteOrderMark() throws {
        let directory = try PeopleLoader().load(bytes: [0xEF, 0xBB, 0xBF] + Array(#"[{"name": "Ada Lovelace"}]"#.utf8), sourceName: "bom.json")
        #expect(directory.store.count == 1)
    }

    @Test("an age that is whole but too large says so; empty standard input is named as such")
    func clearerReasons() throws {
        let directory = try Fixtures.directory(json: #"[{"name": "A B", "age": 2147483648}, {"name": "C D", "age": 35.5}]"#)
        #expect(directory.skipped.map(\.reason) == ["'age' is out of range", "'age' is not a whole number in range"])
        #expect(LoadError.empty(file: "stdin").message == "stdin: nothing came on standard input; expected a JSON list of people")
    }
}
