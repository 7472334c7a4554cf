import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// `v`'s text: the record under four `//` lines, and what the user saved
/// read back as changes, or as the reason it does not read.
@Suite("A record in the user's editor")
struct RecordEditTextTests {
    static func ada() throws -> Person {
        try Fixtures.directory(json: Fixtures.array([Fixtures.record(index: 1, extra: "\"age\": 36")])).store[0]
    }

    @Test("the text is the record as JSON under four lines saying what to do")
    func text() throws {
        let text = RecordEditText.text(for: try Self.ada())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "// Roster")
        #expect(lines[1].hasPrefix("// Ada Lovelace: save and quit"))
        #expect(lines[4] == "{")
        #expect(text.contains("\"email\": \"ada@acme.test\""))
        #expect(RecordEditText.reading(text, base: try Self.ada()) == .unchanged, "saved as it was: nothing to do")
        #expect(RecordEditText.reading("// all gone\n\n", base: try Self.ada()) == .unchanged, "emptied: nothing to do")
    }

    @Test("where the source keeps managers, the text starts with the person's; what the saved text names is read back, none when its line is gone")
    func manager() throws {
        let ada = try Self.ada()
        #expect(!RecordEditText.text(for: ada).contains("\"manager\""))
        let text = RecordEditText.text(for: ada, manager: .reference("grace@x.org"))
        #expect(text.contains("{\n  \"manager\": \"grace@x.org\",\n  \"_id\""))
        // Its line taken out (`dd`), the rest still reads: no comma left hanging.
        let without = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\"manager\"") }.joined(separator: "\n")
        #expect(RecordEditText.reading(without, base: ada) == .unchanged && RecordEditText.manager(in: without) == "")
        #expect(RecordEditText.reading(text, base: ada) == .unchanged && RecordEditText.manager(in: text) == "grace@x.org")
        #expect(RecordEditText.text(for: ada, manager: .reference(nil)).contains("{\n  \"manager\": \"\",\n"))
        #expect(RecordEditText.manager(in: text.replacingOccurrences(of: "grace@x.org", with: "Alan \\\"T\\\" Turing")) == "Alan \"T\" Turing")
        #expect(RecordEditText.manager(in: text.replacingOccurrences(of: "\"manager\": \"grace@x.org\",\n  ", with: "")) == "")
        #expect(RecordEditText.manager(in: "// Roster\n") == "")
    }

    @Test("changed values are checked changes, only of the fields that changed")
    func changes() throws {
        let ada = try Self.ada()
        let edited = RecordEditText.text(for: ada).replacingOccurrences(of: "ada@acme.test", with: "ada@new.io")
            .replacingOccurrences(of: "\"age\": 36", with: "\"age\": 37")
        #expect(RecordEditText.reading(edited, base: ada) == .changes([FieldChange(field: .text(.email), value: .text("ada@new.io")),
                                                                      FieldChange(field: .age, value: .age(37))]))
    }

    @Test("a text that does not read says where; the _id and bad values are refused; reopening keeps the user's text")
    func problems() throws {
        let ada = try Self.ada()
        let text = RecordEditText.text(for: ada)
        let broken = text.replacingOccurrences(of: "\"age\": 36,", with: "\"age\": 36")
        guard case .problem(let problem) = RecordEditText.reading(broken, base: ada) else {
            Issue.record("a broken record read")
            return
        }
        let line = broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\"age\": 36") }! + 2
        #expect(problem.hasPrefix("the record: line \(line), column 3:"), "\(problem)")
        let reopened = RecordEditText.text(reopening: broken, for: ada, problem: problem)
        #expect(reopened.hasPrefix("// not saved: the record: line \(line)"))
        #expect(reopened.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(4).joined(separator: "\n")
            == broken.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(4).joined(separator: "\n"))
        #expect(RecordEditText.reading(text.replacingOccurrences(of: "\"id1\"", with: "\"id9\""), base: ada)
            == .problem("the _id cannot change (it is id1)"))
        // A value that does not check is said at its own line, not the record's first.
        let emailLine = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("ada@acme.test") }! + 1
        #expect(RecordEditText.reading(text.replacingOccurrences(of: "ada@acme.test", with: "ada"), base: ada)
            == .problem("line \(emailLine): email: expected name@domain, found 'ada'"))
        let ageLine = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\"age\": 36") }! + 1
        #expect(RecordEditText.reading(text.replacingOccurrences(of: "\"age\": 36", with: "\"age\": \"old\""), base: ada)
            == .problem("line \(ageLine): 'age' should be a number, found text"))
    }

    @Test("bytes that are not UTF-8: the first one's line and byte said, each shown as \u{FFFD}, the rest of the text kept")
    func notUTF8() {
        let good = Array("// Roster\n{\"email\": \"é@x.io\"}\n".utf8)
        #expect(RecordEditText.decoding(good) == (String(decoding: good, as: UTF8.self), nil))
        let bad = Array("// Roster\n{\"email\": \"é".utf8) + [0xFF] + Array("@x.io\", \"age\": 3".utf8) + [0xC3] + Array("}\n".utf8)
        let (text, problem) = RecordEditText.decoding(bad)
        #expect(problem == "line 2, byte 14 is not UTF-8 (it shows as \u{FFFD}); type that character again")
        #expect(text == "// Roster\n{\"email\": \"é\u{FFFD}@x.io\", \"age\": 3\u{FFFD}}\n")
    }

    @Test("a record left without a name is refused as every editor refuses it; one half kept is saved")
    func nameless() throws {
        let ada = try Self.ada()
        let text = RecordEditText.text(for: ada)
        #expect(text.contains("\"first\": \"Ada\""))
        for name in ["{\"first\": \"\", \"last\": \" \"}", "{}", "null", "\"\u{200B}\"", "\"  \""] {
            let edited = text.replacing(#/"name": \{[^}]*\}/#, with: "\"name\": \(name)")
            #expect(edited != text)
            #expect(RecordEditText.reading(edited, base: ada) == .problem("a first or last name is needed"), "\(name)")
        }
        let halfKept = text.replacing(#/"name": \{[^}]*\}/#, with: "\"name\": \"Lovelace\"")
        #expect(RecordEditText.reading(halfKept, base: ada) == .changes([FieldChange(field: .text(.firstName), value: .text(""))]))
    }
}
