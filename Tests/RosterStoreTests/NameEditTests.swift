import Testing
@testable import RosterCore
@testable import RosterStore

/// A name edited in every shape the loader reads it in (a name object, one
/// text, CSV first and last name columns, one CSV `name` column): the half
/// not edited is kept, and nobody is left without a name.
@Suite("Editing a person's name")
struct NameEditTests {
    static func change(_ assignment: String) throws -> FieldChange { try FieldCheck.change(from: assignment) }

    static func updated(_ text: String, _ format: InputFormat, _ assignments: String...) throws -> String {
        try RecordFileTests.applying(.update(id: "p1", changes: assignments.map(change)), to: text, format)
    }

    /// The person `p1` of `text`, read as the loader reads them.
    static func person(_ text: String, _ format: InputFormat) throws -> Person? {
        try Array(text.utf8).withUnsafeBufferPointer { buffer in
            try RecordFile(bytes: buffer, format: format, sourceName: "people").person(id: "p1", in: buffer)
        }
    }

    @Test("one text splits as the loader splits it: the last word is the last name", arguments: [
        ("Ada Lovelace", "Ada", "Lovelace"), ("Ada King Lovelace", "Ada King", "Lovelace"), ("Lovelace", "", "Lovelace"),
        ("Ada  Lovelace ", "Ada", "Lovelace"), ("", "", ""), ("José Ruiz", "José", "Ruiz"),
    ])
    func halves(_ text: String, _ first: String, _ last: String) throws {
        let halves = WholeName.halves(of: text)
        #expect([halves.first, halves.last] == [first, last])
        guard !text.isEmpty else { return }
        let loaded = try #require(try Self.person("[{\"_id\": \"p1\", \"name\": \(DirectoryExporter.jsonString(text)), \"company\": \"C\"}]", .json))
        #expect([loaded.firstName, loaded.lastName] == [first, last], "the loader agrees")
    }

    @Test("a whole name is written again when it reads back as both halves, never otherwise")
    func wholeNameText() {
        #expect(WholeName.text(first: "Augusta", last: "Lovelace") == "Augusta Lovelace")
        #expect(WholeName.text(first: "Ada King", last: "Lovelace") == "Ada King Lovelace")
        #expect(WholeName.text(first: "", last: "Lovelace") == "Lovelace")
        #expect(WholeName.text(first: "Vincent", last: "van Gogh") == nil, "it would read as 'Vincent van' 'Gogh'")
        #expect(WholeName.text(first: "Ada", last: "") == nil, "alone, a first name reads as the last")
    }

    @Test("JSON and JSON Lines, one text: either half set, the other kept; written whole while it reads back, else as an object of both",
          arguments: [InputFormat.json, .jsonLines])
    func jsonWholeName(_ format: InputFormat) throws {
        let record = "{\"_id\": \"p1\", \"name\": \"Ada Lovelace\", \"company\": \"ACME\"}"
        let text = format == .json ? "[\n  \(record)\n]\n" : record + "\n"
        let cases: [([String], String, [String])] = [
            (["first=Augusta"], "\"Augusta Lovelace\"", ["Augusta", "Lovelace"]),
            (["last=Byron"], "\"Ada Byron\"", ["Ada", "Byron"]),
            (["first=Augusta Ada", "last=King"], "\"Augusta Ada King\"", ["Augusta Ada", "King"]),
            (["first="], "\"Lovelace\"", ["", "Lovelace"]),
            (["last=van Gogh"], "{\"first\": \"Ada\", \"last\": \"van Gogh\"}", ["Ada", "van Gogh"]),
            (["last="], "{\"first\": \"Ada\"}", ["Ada", ""]),
        ]
        for (assignments, name, halves) in cases {
            let edited = try RecordFileTests.applying(.update(id: "p1", changes: assignments.map(Self.change)), to: text, format)
            #expect(edited == text.replacingOccurrences(of: "\"Ada Lovelace\"", with: name), "\(assignments)")
            let person = try #require(try Self.person(edited, format))
            #expect([person.firstName, person.lastName] == halves, "\(assignments)")
        }
    }

    @Test("JSON: a name object keeps the half not set, its order and spacing; a half taken out (an undo) goes")
    func jsonNameObject() throws {
        let text = "[{\"_id\": \"p1\", \"name\": { \"last\": \"Lovelace\",  \"first\": \"Ada\" }}]"
        #expect(try Self.updated(text, .json, "first=Augusta") == text.replacingOccurrences(of: "Ada", with: "Augusta"))
        let lastOnly = "[{\"_id\": \"p1\", \"name\": {\"last\": \"Lovelace\"}}]"
        let given = try Self.updated(lastOnly, .json, "first=Ada")
        #expect(given == "[{\"_id\": \"p1\", \"name\": {\"last\": \"Lovelace\", \"first\": \"Ada\"}}]")
        let person = try #require(try Self.person(lastOnly, .json))
        guard case .updated(let before, _)? = UndoableChange.update([try Self.change("first=Ada")], of: person) else {
            Issue.record("no undo")
            return
        }
        #expect(try RecordFileTests.applying(.update(id: "p1", changes: before), to: given, .json) == lastOnly, "the old bytes again")
        let oneText = "[{\"_id\": \"p1\", \"name\": \"Ada Lovelace\"}]"
        let renamed = try Self.updated(oneText, .json, "first=Augusta")
        let read = try #require(try Self.person(oneText, .json))
        guard case .updated(let back, _)? = UndoableChange.update([try Self.change("first=Augusta")], of: read) else {
            Issue.record("no undo")
            return
        }
        #expect(try RecordFileTests.applying(.update(id: "p1", changes: back), to: renamed, .json) == oneText, "undone: the old bytes")
    }

    @Test("CSV: first and last name columns each take their half; one name column is written whole, both halves at once")
    func csvNames() throws {
        let columns = "first_name,last_name,id\nAda,Lovelace,p1\n"
        #expect(try Self.updated(columns, .csv, "first=Augusta") == "first_name,last_name,id\nAugusta,Lovelace,p1\n")
        let whole = "id,name,company\r\np1,Ada Lovelace,ACME\r\n"
        #expect(try Self.updated(whole, .csv, "first=Augusta") == "id,name,company\r\np1,Augusta Lovelace,ACME\r\n")
        #expect(try Self.updated(whole, .csv, "last=Byron") == "id,name,company\r\np1,Ada Byron,ACME\r\n")
        #expect(try Self.updated(whole, .csv, "first=Augusta", "last=King") == "id,name,company\r\np1,Augusta King,ACME\r\n",
                "both halves, neither lost to the other")
        #expect(try Self.updated(whole, .csv, "first=") == "id,name,company\r\np1,Lovelace,ACME\r\n")
        // A first name column beside a whole name: the whole name, read last, says the same.
        let both = "first_name,name,id\nAda,Ada Lovelace,p1\n"
        let edited = try Self.updated(both, .csv, "first=Augusta")
        #expect(edited == "first_name,name,id\nAugusta,Augusta Lovelace,p1\n")
        #expect(try Self.person(edited, .csv).map { [$0.firstName, $0.lastName] } == ["Augusta", "Lovelace"])
    }

    @Test("CSV: a name one column cannot hold as given is refused, naming the halves; nothing written")
    func csvWholeNameRefused() throws {
        let whole = "id,name\np1,Ada Lovelace\n"
        for assignment in ["last=van Gogh", "last="] {
            #expect(throws: EditFailure.self, "\(assignment)") { try Self.updated(whole, .csv, assignment) }
        }
        #expect(throws: EditFailure(.failed, "people: its name column holds the whole name and reads its last word as the last name, "
                                    + "so first 'Ada', last 'van Gogh' would not read back as given; nothing written")) {
            try Self.updated(whole, .csv, "last=van Gogh")
        }
    }

    @Test("nobody is left without a name: an update or add that would leave none is refused in every format, with one message",
          arguments: [InputFormat.json, .jsonLines, .csv])
    func namelessRefused(_ format: InputFormat) throws {
        let text = switch format {
        case .json: "[\n  {\"_id\": \"p1\", \"name\": {\"first\": \"Ada\"}, \"company\": \"ACME\"}\n]\n"
        case .jsonLines: "{\"_id\": \"p1\", \"name\": \"Lovelace\", \"company\": \"ACME\"}\n"
        case .csv: "id,first_name,last_name,company\np1,Ada,,ACME\n"
        case .vCard, .ldif: ""  // not among the arguments: edited by their own writers
        }
        let refusal = EditFailure(.invalid, "people: a first or last name is needed; nothing written")
        let half = format == .jsonLines ? "last" : "first"
        for assignments in [["\(half)="], ["\(half)= "], ["\(half)=\u{200B}"], ["first=", "last=\u{A0}"]] {
            #expect(throws: refusal, "\(assignments)") { try RecordFileTests.applying(.update(id: "p1", changes: assignments.map(Self.change)), to: text, format) }
        }
        for assignments in [["company=ACME"], ["first= ", "company=ACME"], ["last=\u{200D}"]] {
            #expect(throws: refusal, "\(assignments)") { try RecordFileTests.applying(.add(id: "p2", changes: assignments.map(Self.change)), to: text, format) }
        }
        #expect(try RecordFileTests.applying(.add(id: "p2", changes: [Self.change("last=Byron")]), to: text, format).contains("Byron"))
    }

    @Test("the rule: a first or last name a reader would see")
    func nameRule() {
        #expect(FieldCheck.nameProblem(of: Person(firstName: "Ada", lastName: "")) == nil)
        #expect(FieldCheck.nameProblem(of: Person(firstName: "", lastName: "李")) == nil)
        for (first, last) in [("", ""), (" ", ""), ("\u{A0}", "\u{200B}"), ("\u{202E}", " \u{FEFF}")] {
            #expect(FieldCheck.nameProblem(of: Person(firstName: first, lastName: last)) == EditProblem("a first or last name is needed"))
        }
    }

    @Test("`U` names the person even when the edit it undoes took their name")
    func undoNamesThePerson() {
        let nameless = Person(id: "p1", firstName: "", lastName: "")
        let undo = UndoableChange.updated(before: [FieldChange(field: .text(.firstName), value: .text("Ada")),
                                                   FieldChange(field: .text(.lastName), value: .text("Lovelace"))], after: nameless)
        #expect(undo.done == "Ada Lovelace's first name, last name put back")
        #expect(UndoableChange.updated(before: [FieldChange(field: .age, value: .age(3))], after: nameless).done == "_id p1's age put back")
        #expect(UndoableChange.added(Person(id: "p1", firstName: "Ada", lastName: "")).done == "Ada deleted again")
    }
}
