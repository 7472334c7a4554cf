import Testing
@testable import RosterCore
@testable import RosterStore

/// Editing a file's records: only the record an edit touches changes;
/// every other byte (other records, key order, spacing, number spellings,
/// fields Roster does not know) reaches the new file exactly.
@Suite("Editing a file's records")
struct RecordFileTests {
    static func applying(_ operation: RecordOperation, to text: String, _ format: InputFormat) throws -> String {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            let file = try RecordFile(bytes: buffer, format: format, sourceName: "people")
            return String(decoding: FilePiece.joined(try file.applying(operation, to: buffer, sourceName: "people"), buffer), as: UTF8.self)
        }
    }

    static func change(_ assignment: String) throws -> FieldChange { try FieldCheck.change(from: assignment) }

    /// `ids` deleted from `text`, then put back from what the delete took out: the text after each.
    static func deletedAndRestored(_ ids: [String], in text: String, _ format: InputFormat,
                                   meanwhile: (String) throws -> String = { $0 }) throws -> (deleted: String, restored: String) {
        let removed = try Array(text.utf8).withUnsafeBufferPointer { buffer in
            try RecordFile(bytes: buffer, format: format, sourceName: "people").removing(ids, in: buffer)
        }
        #expect(removed.map(\.id) == ids.sorted { text.range(of: $0)!.lowerBound < text.range(of: $1)!.lowerBound })
        let deleted = try meanwhile(try applying(.delete(ids: ids), to: text, format))
        return (deleted, try applying(.restore(removed), to: deleted, format))
    }

    static let uniform = """
    [
      {"_id": "a1", "name": {"first": "A"}, "tags": ["x", {"y": "}"}], "unknown": 1.50e1},
      {"_id": "b2", "name": {"first": "B"}},
      {"_id": "c3", "name": {"first": "C"}},
      {"_id": "d4", "name": {"first": "D"}}
    ]

    """

    @Test("a delete taken back puts each record's own text where it was: first, middle, last, neighbours, everyone",
          arguments: [["a1"], ["b2"], ["d4"], ["b2", "c3"], ["a1", "b2"], ["a1", "c3"], ["c3", "d4"], ["d4", "a1", "c3", "b2"]])
    func restoresInPlace(_ ids: [String]) throws {
        let lines = "{\"_id\": \"a1\", \"x\": [1]}\n{\"_id\": \"b2\"}\n{\"_id\": \"c3\"}\n{\"_id\": \"d4\"}\n"
        let csv = "id,first_name,Notes\r\na1,A,\"x, y\"\r\nb2,B,\r\nc3,C,\r\nd4,D,\r\n"
        for (text, format) in [(Self.uniform, InputFormat.json), (lines, .jsonLines), (csv, .csv)] {
            let restored = try Self.deletedAndRestored(ids, in: text, format).restored
            guard ids.count < 4 else {
                // Everyone deleted: the list's own spacing is gone with them; the same records, each its own bytes, in order.
                #expect(try Self.records(restored, format) == Self.records(text, format), "\(format)")
                continue
            }
            #expect(restored == text, "\(format)")
        }
    }

    /// Each record's text, in order.
    static func records(_ text: String, _ format: InputFormat) throws -> [String] {
        try Array(text.utf8).withUnsafeBufferPointer { buffer in
            try RecordFile(bytes: buffer, format: format, sourceName: "people").records.map { String(decoding: buffer[$0.span], as: UTF8.self) }
        }
    }

    @Test("an edit that gave a record a field it did not have, undone, takes the field out again: the old bytes")
    func undoOfANewField() throws {
        let text = "[\n  {\"_id\": \"a1\", \"name\": {\"first\": \"A\"}, \"age\": 3}\n]\n"
        let person = try #require(try Array(text.utf8).withUnsafeBufferPointer { buffer in
            try RecordFile(bytes: buffer, format: .json, sourceName: "people").person(id: "a1", in: buffer)
        })
        let changes = [try Self.change("phone=555"), try Self.change("email=a@b.c"), try Self.change("age=4")]
        let edited = try Self.applying(.update(id: "a1", changes: changes), to: text, .json)
        #expect(edited.contains("\"phone\": \"555\""))
        guard case .updated(let before, _)? = UndoableChange.update(changes, of: person) else { Issue.record("no undo"); return }
        #expect(before.first?.value == .absent)
        #expect(try Self.applying(.update(id: "a1", changes: before), to: edited, .json) == text)
        let csv = "id,first_name,phone\na1,A,\n"
        #expect(try Self.applying(.update(id: "a1", changes: [FieldChange(field: .text(.phone), value: .absent)]),
                                  to: "id,first_name,phone\na1,A,555\n", .csv) == csv, "a CSV row keeps its cell, empty")
    }

    @Test("a delete is a few stretches of the file, not one per record kept (each is a system call)")
    func deleteIsFewStretches() throws {
        let pieces = try Array(Self.uniform.utf8).withUnsafeBufferPointer { buffer in
            try RecordFile(bytes: buffer, format: .json, sourceName: "people").applying(.delete(ids: ["b2"]), to: buffer, sourceName: "people")
        }
        #expect(pieces.count == 2, "before b2, and from c3 on: \(pieces)")
    }

    @Test("put back after someone else's change meanwhile: after its record if still there, else last; an _id taken again is refused")
    func restoresAfterChanges() throws {
        // b2 went meanwhile: c3, which followed it, goes last.
        let restored = try Self.deletedAndRestored(["c3"], in: Self.uniform, .json) { try Self.applying(.delete(ids: ["b2"]), to: $0, .json) }
        #expect(restored.restored == Self.uniform.replacingOccurrences(of: "  {\"_id\": \"b2\", \"name\": {\"first\": \"B\"}},\n", with: "")
            .replacingOccurrences(of: "  {\"_id\": \"c3\", \"name\": {\"first\": \"C\"}},\n", with: "")
            .replacingOccurrences(of: "\"D\"}}\n", with: "\"D\"}},\n  {\"_id\": \"c3\", \"name\": {\"first\": \"C\"}}\n"))
        let removed = try Array(Self.uniform.utf8).withUnsafeBufferPointer { buffer in
            try RecordFile(bytes: buffer, format: .json, sourceName: "people").removing(["a1"], in: buffer)
        }
        #expect(throws: EditFailure(.failed, "people: a record already has _id a1 again; nothing put back")) {
            try Self.applying(.restore(removed), to: Self.uniform, .json)
        }
    }

    static let json = """
    [
      {"_id": "a1", "index": 0, "isActive": true, "balance": "$2,107.15", "age": 35, "name": {"first": "Bertha", "last": "Irwin"},
       "company": "COMSTAR", "shoe": 1.50e1, "email": "b@x.io"},
      {  "_id" : "b2",   "balance": 1194.790, "name": {"first": "Norton"}, "tags": [1, {"x": "}"}]  },
      {"_id": "c3"}
    ]

    """

    @Test("an update changes the values it sets where they stand and nothing else")
    func updateKeepsBytes() throws {
        let edited = try Self.applying(.update(id: "a1", changes: [Self.change("email=new@x.io"), Self.change("age=36"),
                                                                  Self.change("first=Berta"), Self.change("active=no")]), to: Self.json, .json)
        #expect(edited == Self.json.replacingOccurrences(of: "\"b@x.io\"", with: "\"new@x.io\"")
            .replacingOccurrences(of: "\"age\": 35", with: "\"age\": 36")
            .replacingOccurrences(of: "\"Bertha\"", with: "\"Berta\"")
            .replacingOccurrences(of: "\"isActive\": true", with: "\"isActive\": false"))
    }

    @Test("a balance keeps its kind: a number stays a number, text is written as $1,200.00")
    func balanceKind() throws {
        let number = try Self.applying(.update(id: "b2", changes: [Self.change("balance=$1,200")]), to: Self.json, .json)
        #expect(number.contains("\"balance\": 1200.00,"))
        let text = try Self.applying(.update(id: "a1", changes: [Self.change("balance=-3.5")]), to: Self.json, .json)
        #expect(text.contains("\"balance\": \"-$3.50\""))
    }

    @Test("a cleared number goes with its separator; a new field follows the last in the record's spacing")
    func clearAndAdd() throws {
        let edited = try Self.applying(.update(id: "a1", changes: [Self.change("age="), Self.change("phone=+1 555")]), to: Self.json, .json)
        #expect(!edited.contains("\"age\""))
        #expect(edited.contains("\"email\": \"b@x.io\", \"phone\": \"+1 555\"}"))
        let named = try Self.applying(.update(id: "c3", changes: [Self.change("last=Lovelace")]), to: Self.json, .json)
        #expect(named.contains("{\"_id\": \"c3\", \"name\": {\"last\": \"Lovelace\"}}"))
        let nested = try Self.applying(.update(id: "b2", changes: [Self.change("last=Curtis")]), to: Self.json, .json)
        #expect(nested.contains("\"name\": {\"first\": \"Norton\", \"last\": \"Curtis\"}, \"tags\": [1, {\"x\": \"}\"}]  }"))
    }

    @Test("deleting keeps the separators of the records left; deleting everyone leaves an empty list")
    func delete() throws {
        let middle = try Self.applying(.delete(ids: ["b2"]), to: Self.json, .json)
        #expect(middle == Self.json.replacingOccurrences(of: "  {  \"_id\" : \"b2\",   \"balance\": 1194.790, \"name\": {\"first\": \"Norton\"}, \"tags\": [1, {\"x\": \"}\"}]  },\n", with: ""))
        let all = try Self.applying(.delete(ids: ["c3", "a1", "b2"]), to: Self.json, .json)
        #expect(all == "[\n  \n]\n")
        #expect(try Self.applying(.delete(ids: ["a1"]), to: Self.json, .json).hasPrefix("[\n  {  \"_id\" : \"b2\""))
    }

    @Test("adding puts the new record last, spaced as the records before it")
    func add() throws {
        let added = try Self.applying(.add(id: "d4", changes: [Self.change("first=Ada"), Self.change("company=ACME"), Self.change("age=36")]),
                                      to: Self.json, .json)
        #expect(added.hasSuffix("{\"_id\": \"c3\"},\n  {\"_id\": \"d4\", \"index\": 3, \"age\": 36, \"name\": {\"first\": \"Ada\"}, \"company\": \"ACME\"}\n]\n"))
        #expect(try Self.applying(.add(id: "x", changes: [Self.change("first=A")]), to: "[]", .json)
            == "[{\"_id\": \"x\", \"index\": 0, \"name\": {\"first\": \"A\"}}]")
        #expect(throws: EditFailure.self) { try Self.applying(.add(id: "a1", changes: []), to: Self.json, .json) }
    }

    @Test("a new record's index is one past the highest, not the count: after a delete the count is someone's")
    func addAfterDelete() throws {
        let file = "[{\"_id\": \"a\", \"index\": 0},\n{\"_id\": \"b\", \"index\": 1},\n{\"_id\": \"c\", \"index\": 2}]\n"
        let deleted = try Self.applying(.delete(ids: ["a"]), to: file, .json)
        let added = try Self.applying(.add(id: "d", changes: [Self.change("first=Ada")]), to: deleted, .json)
        #expect(added.contains("{\"_id\": \"d\", \"index\": 3,"))
        let lines = try Self.applying(.add(id: "e", changes: [Self.change("first=Ada")]), to: "{\"_id\": \"x\", \"index\" : 41}\n", .jsonLines)
        #expect(lines.contains("{\"_id\": \"e\", \"index\": 42,"))
    }

    @Test("a new record's name object is spaced as the last record's is")
    func newNameStyle() throws {
        let seedShaped = "[\n {\n  \"_id\": \"a\",\n  \"name\": {\n   \"first\": \"B\",\n   \"last\": \"I\"\n  }\n }\n]\n"
        #expect(try Self.applying(.add(id: "n", changes: [Self.change("first=Ada"), Self.change("last=Byron")]), to: seedShaped, .json)
            == "[\n {\n  \"_id\": \"a\",\n  \"name\": {\n   \"first\": \"B\",\n   \"last\": \"I\"\n  }\n },\n {\n  \"_id\": \"n\",\n  \"index\": 1,\n  \"name\": {\n   \"first\": \"Ada\",\n   \"last\": \"Byron\"\n  }\n }\n]\n")
    }

    @Test("an unknown or doubled _id, or an unreadable file, is refused with where and why")
    func refusals() throws {
        #expect(throws: EditFailure(.notFound, "people: no record has _id zz; nothing written")) {
            try Self.applying(.update(id: "zz", changes: [Self.change("age=1")]), to: Self.json, .json)
        }
        #expect(throws: EditFailure(.notFound, "people: no record has _id zz; nothing written")) {
            try Self.applying(.delete(ids: ["a1", "zz"]), to: Self.json, .json)
        }
        #expect(throws: EditFailure(.failed, "people: 2 records have _id a (lines 1, 2); nothing written")) {
            try Self.applying(.update(id: "a", changes: [Self.change("age=1")]), to: "[{\"_id\": \"a\"},\n{\"_id\": \"a\"}]", .json)
        }
        #expect(throws: EditFailure(.unreadable, "people, line 2, column 13: expected ',' or '}' in an object, found text; nothing written")) {
            try Self.applying(.update(id: "a", changes: [Self.change("age=1")]), to: "[{\"_id\": \"a\"},\n{\"_id\": \"b\" \"age\": 3}]", .json)
        }
    }

    static let lines = "{\"_id\":\"a1\",\"age\":35,\"x\":[1,2]}\r\n\nnot json\n{\"_id\": \"b2\", \"name\": {\"first\": \"N\"}}"

    @Test("JSON Lines: a record stays on its line; blank and unreadable lines are kept")
    func jsonLines() throws {
        #expect(try Self.applying(.update(id: "a1", changes: [Self.change("age=36"), Self.change("email=a@b.c")]), to: Self.lines, .jsonLines)
            == "{\"_id\":\"a1\",\"age\":36,\"x\":[1,2],\"email\":\"a@b.c\"}\r\n\nnot json\n{\"_id\": \"b2\", \"name\": {\"first\": \"N\"}}")
        #expect(try Self.applying(.delete(ids: ["a1"]), to: Self.lines, .jsonLines) == "not json\n{\"_id\": \"b2\", \"name\": {\"first\": \"N\"}}")
        #expect(try Self.applying(.add(id: "c3", changes: [Self.change("first=Ada")]), to: Self.lines, .jsonLines)
            == Self.lines + "\n{\"_id\": \"c3\", \"index\": 3, \"name\": {\"first\": \"Ada\"}}")
        #expect(try Self.applying(.add(id: "c3", changes: [Self.change("first=Ada")]), to: "", .jsonLines)
            == "{\"_id\": \"c3\", \"index\": 0, \"name\": {\"first\": \"Ada\"}}\n")
        // An indented line is a record like any (the load reads it), and keeps its indentation.
        #expect(try Self.applying(.update(id: "i1", changes: [Self.change("age=2")]), to: "\t {\"_id\": \"i1\", \"age\": 1}\n", .jsonLines)
            == "\t {\"_id\": \"i1\", \"age\": 2}\n")
    }

    static let csv = "first_name,last_name,Notes,balance,balance_text,active,id\r\nBertha,Irwin,\"a, b\",2107.15,\"$2,107.15\",yes,a1\r\n\"N\",\"C\",,1.0,$1.00,no,b2\r\n"

    @Test("CSV: the cells an edit sets are written anew, the others keep their bytes and quotes")
    func csvUpdate() throws {
        let edited = try Self.applying(.update(id: "b2", changes: [Self.change("balance=$1,200"), Self.change("active=yes"),
                                                                  Self.change("last=O\"Neil, Jr")]), to: Self.csv, .csv)
        #expect(edited == "first_name,last_name,Notes,balance,balance_text,active,id\r\nBertha,Irwin,\"a, b\",2107.15,\"$2,107.15\",yes,a1\r\n\"N\",\"O\"\"Neil, Jr\",,1200.00,\"$1,200.00\",yes,b2\r\n")
        #expect(throws: EditFailure(.failed, "people has no column for email; nothing written")) {
            try Self.applying(.update(id: "a1", changes: [Self.change("email=a@b.c")]), to: Self.csv, .csv)
        }
    }

    @Test("CSV: add and delete whole rows, CRLF kept; a whole-name column takes a first or last name")
    func csvRows() throws {
        #expect(try Self.applying(.delete(ids: ["a1"]), to: Self.csv, .csv)
            == "first_name,last_name,Notes,balance,balance_text,active,id\r\n\"N\",\"C\",,1.0,$1.00,no,b2\r\n")
        #expect(try Self.applying(.add(id: "c3", changes: [Self.change("first=Ada")]), to: Self.csv, .csv)
            == Self.csv + "Ada,,,,,,c3\r\n")
        let whole = "name,id\nAda Lovelace,a1\n"
        #expect(try Self.applying(.update(id: "a1", changes: [Self.change("first=Augusta Ada")]), to: whole, .csv)
            == "name,id\nAugusta Ada Lovelace,a1\n")
    }

    @Test("CSV: a value a spreadsheet would run is written as --export csv writes it, and every value reads back as typed")
    func csvFormulas() throws {
        let csv = "first_name,last_name,company,phone,id\r\nBertha,Irwin,ACME,,a1\r\n"
        let hyperlink = "=HYPERLINK(\"http://evil.example\",\"x\")"
        let changes = try ["company=" + hyperlink, "last='=1+2", "phone=+1 (575) 919-9368", "first=@Ann"].map(Self.change)
        let edited = try Self.applying(.update(id: "a1", changes: changes), to: csv, .csv)
        let row = "'@Ann,''=1+2,\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\",+1 (575) 919-9368,"
        #expect(edited == "first_name,last_name,company,phone,id\r\n" + row + "a1\r\n",
                "guarded as the export guards: a ' before a formula, one more before a typed '; a phone number as it is")
        #expect(edited.contains("," + DirectoryExporter.csvField(DirectoryExporter(format: .csv).csvText(hyperlink)) + ","))
        let added = try Self.applying(.add(id: "b2", changes: changes.dropLast() + [Self.change("first='tis")]), to: edited, .csv)
        #expect(added == edited + "'tis" + row.drop { $0 != "," } + "b2\r\n")
        let people = try PeopleLoader(format: .csv).load(bytes: Array(added.utf8), sourceName: "people.csv").store
        let read = (0..<people.count).map { people[$0] }
        #expect(read.map(\.company) == [hyperlink, hyperlink])
        #expect(read.map(\.lastName) == ["'=1+2", "'=1+2"], "a value typed with its own ' keeps it")
        #expect(read.map(\.firstName) == ["@Ann", "'tis"])
        #expect(read.map(\.phone) == ["+1 (575) 919-9368", "+1 (575) 919-9368"])
        // A whole name guarded in the file: changing its other half keeps this half as it reads.
        let whole = try Self.applying(.update(id: "a1", changes: [Self.change("last=Smith")]), to: "name,id\n'=Evil Corp,a1\n", .csv)
        #expect(whole == "name,id\n'=Evil Smith,a1\n")
    }
}

/// The checks every edit passes, wherever the value comes from.
@Suite("Checking an edited value")
struct FieldCheckTests {
    @Test("good values, as they are kept", arguments: [
        ("email=ada@x.io", FieldChange(field: .text(.email), value: .text("ada@x.io"))),
        ("Age= 36 ", FieldChange(field: .age, value: .age(36))),
        ("age=", FieldChange(field: .age, value: .age(nil))),
        ("balance=$1,200.00", FieldChange(field: .balance, value: .balance(cents: 120000))),
        ("balance=-7", FieldChange(field: .balance, value: .balance(cents: -700))),
        ("active=No", FieldChange(field: .active, value: .active(false))),
        ("is_active=y", FieldChange(field: .active, value: .active(true))),
        ("first_name=Ada = A", FieldChange(field: .text(.firstName), value: .text("Ada = A"))),
        ("eye=", FieldChange(field: .text(.eyeColor), value: .text(""))),
        ("last=\u{301}e", FieldChange(field: .text(.lastName), value: .text("\u{301}e"))),  // the mark would join the `=`
    ])
    func good(_ assignment: String, _ expected: FieldChange) throws {
        #expect(try FieldCheck.change(from: assignment) == expected)
    }

    @Test("bad values name the field and why", arguments: [
        ("email=ada", "email: expected name@domain, found 'ada'"),
        ("email=a@b@c", "email: expected name@domain, found 'a@b@c'"),
        ("age=3.5", "age: expected a whole number of years (0 to 200), found '3.5'"),
        ("age=-1", "age: expected a whole number of years (0 to 200), found '-1'"),
        ("balance=lots", "balance: expected an amount such as $1,200.00, found 'lots'"),
        ("active=maybe", "active: expected yes or no, found 'maybe'"),
        ("company=\u{1B}]0;x\u{07}", "company: a control character (U+001B) is not allowed"),
        ("address=a\nb", "address: a control character (U+000A) is not allowed"),
        ("last=\u{9B}31m", "last: a control character (U+009B) is not allowed"),
        ("colour=red", "unknown field 'colour' (fields: first, last, company, email, phone, address, eye, fruit, guid, age, balance, active, picture)"),
        ("id=x", "unknown field 'id' (fields: first, last, company, email, phone, address, eye, fruit, guid, age, balance, active, picture)"),
        ("email", "expected field=value, found 'email'"),
    ])
    func bad(_ assignment: String, _ message: String) {
        #expect(throws: EditProblem(message)) { try FieldCheck.change(from: assignment) }
    }
}
