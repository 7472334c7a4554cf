import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@Suite("Export")
struct ExportTests {
    static let tricky = try! Fixtures.directory(json: Fixtures.array([
        Fixtures.record(first: "Ann, \"Nan\"", last: "O'Neil", company: "A;B", email: "ann@x.test", balance: "-$1,234.50", index: 0,
                        extra: #""address": "1 Long Street, Springfield, Oregon, 9701", "phone": "555", "age": 41, "isActive": true"#),
        Fixtures.record(first: "Bob", last: "Line\nBreak", company: "C", email: "", balance: nil, index: 1,
                        extra: #""address": "No commas here", "favoriteFruit": "kiwi\\back""#),
    ]))

    static func text(_ format: ExportFormat, _ directory: LoadedDirectory = tricky) -> String {
        String(decoding: DirectoryExporter(format: format).export(directory.repository.everyoneAtOnce(in: directory.everyone)),
               as: UTF8.self)
    }

    @Test("CSV: a header row, RFC 4180 quoting of commas, quotes and line breaks, CRLF, plain-number balances")
    func csv() {
        let lines = Self.text(.csv).components(separatedBy: "\r\n")
        #expect(lines[0] == "first_name,last_name,company,email,phone,address,balance,balance_text,age,active,id,index,guid,picture,eye_color,favorite_fruit")
        #expect(lines[1] == #""Ann, ""Nan""",O'Neil,A;B,ann@x.test,555,"1 Long Street, Springfield, Oregon, 9701",-1234.50,"-$1,234.50",41,true,id0,0,,,,"#)
        #expect(lines[2] == "Bob,\"Line\nBreak\",C,,,No commas here,,,,,id1,1,,,,kiwi\\back")
        #expect(lines[3] == "")
    }

    @Test("JSON: the seed's own shape; reading it back gives the same people")
    func jsonRoundTrip() throws {
        for directory in [Self.tricky, try Fixtures.directory(json: Fixtures.seedJSON)] {
            let exported = Self.text(.json, directory)
            let again = try Fixtures.directory(json: exported)
            #expect(again.store.count == directory.store.count)
            #expect(again.skipped.isEmpty)
            let grouped = GroupedPeople(store: directory.store)
            for (index, person) in grouped.order.enumerated() {
                #expect(again.store[index] == directory.store[Int(person)])
            }
        }
        #expect(Self.text(.json, try Fixtures.directory(json: Fixtures.seedJSON)).hasPrefix("[{\n  \"_id\": \"58f9a19680685a4e1e6d5016\",\n  \"index\": 0,"))
    }

    static let hostile = try! Fixtures.directory(json: Fixtures.array([
        Fixtures.record(first: "=HYPERLINK(\"http://evil\")", last: "+Cmd", company: "@SUM(A1)", email: "-2+3@x.test",
                        balance: "-$5.00", index: 0, extra: #""phone": "\tTab", "address": "\rCR", "age": 30"#),
        Fixtures.record(first: "Esc\u{1B}]0;pwned\u{07}", last: "Clear\u{1B}[2J", company: "C\u{9B}31m", email: "ok@x.test",
                        balance: "lots", index: 1),
    ]))

    static func export(_ format: ExportFormat, _ options: ExportOptions, _ directory: LoadedDirectory = hostile) -> String {
        String(decoding: DirectoryExporter(format: format, options: options).export(directory.repository.everyoneAtOnce(in: directory.everyone)),
               as: UTF8.self)
    }

    @Test("CSV neutralises formulas in text cells (a leading '), never in numeric ones; verbatim on request")
    func csvFormulas() {
        let line = Self.export(.csv, ExportOptions()).components(separatedBy: "\r\n")[1]
        #expect(line == #""'=HYPERLINK(""http://evil"")",'+Cmd,'@SUM(A1),'-2+3@x.test,'\#tTab,"'\#rCR",-5.00,-$5.00,30,,id0,0,,,,"#)
        let verbatim = Self.export(.csv, ExportOptions(neutralisesFormulas: false)).components(separatedBy: "\r\n")[1]
        #expect(verbatim.hasPrefix(#""=HYPERLINK(""http://evil"")",+Cmd,@SUM(A1),-2+3@x.test,\#tTab,"\#rCR",-5.00,-$5.00,30"#))
    }

    @Test("a balance that is not an amount keeps its text in CSV's balance_text")
    func csvBalanceText() {
        let line = Self.export(.csv, ExportOptions()).components(separatedBy: "\r\n")[2]
        #expect(line.contains(",,lots,"))
    }

    @Test("to a terminal, control characters from the data are shown, not sent; into a file, written exactly",
          arguments: [ExportFormat.csv, .vcard, .json])
    func terminalSafe(format: ExportFormat) {
        let shown = Self.export(format, ExportOptions(showsControlCharacters: true))
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
        if format != .json { #expect(shown.contains("Esc␛]0") && shown.contains("pwned␇")) }
        let exact = Self.export(format, ExportOptions(neutralisesFormulas: false))
        if format == .json {
            #expect(exact.contains(#""first": "Esc\u001B]0;pwned\u0007""#))
            #expect(exact.contains(#""company": "C\u009B31m""#))
        } else {
            #expect(exact.contains("Esc\u{1B}]0") && exact.contains("pwned\u{07}"))
        }
    }

    @Test("JSON writes only the fields each record had, with their types")
    func jsonOnlyPresentFields() throws {
        let directory = try Fixtures.directory(json: #"[{"name": {"last": "Solo"}, "balance": 12.5, "guid": ""}, {"name": "Ada Lovelace", "age": null}]"#)
        let json = String(decoding: DirectoryExporter(format: .json).export([directory.store[0], directory.store[1]]), as: UTF8.self)
        #expect(json == """
        [{
          "guid": "",
          "balance": 12.5,
          "name": {
           "last": "Solo"
          }
         },
         {
          "name": {
           "first": "Ada",
           "last": "Lovelace"
          }
         }
        ]

        """)
        let again = try Fixtures.directory(json: json)
        #expect(again.store[0] == directory.store[0])
        #expect(again.store[1] == directory.store[1])
    }

    @Test("vCard 4.0: FN, N, UID (the _id, as text), ORG, EMAIL, TEL, ADR, escaped, CRLF")
    func vcard() {
        let cards = Self.text(.vcard).components(separatedBy: "END:VCARD\r\n")
        #expect(cards[0] == [
            "BEGIN:VCARD", "VERSION:4.0", #"FN:Ann\, "Nan" O'Neil"#, #"N:O'Neil;Ann\, "Nan";;;"#, "UID;VALUE=text:id0", #"ORG:A\;B"#,
            "EMAIL:ann@x.test", "TEL:555", "ADR:;;1 Long Street;Springfield;Oregon;9701;", "",
        ].joined(separator: "\r\n"))
        #expect(cards[1].contains("N:Line\\nBreak;Bob;;;\r\n"))
        #expect(cards[1].contains("ADR:;;No commas here;;;;\r\n"))
        #expect(!cards[1].contains("EMAIL"))
    }

    @Test("vCard lines fold at 75 octets without splitting a character")
    func folding() {
        let long = String(repeating: "é", count: 60)  // 120 octets
        let folded = DirectoryExporter.folded("FN:" + long)
        let lines = folded.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines[1].hasPrefix(" "))
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == "FN:" + long + "\r\n")
    }

    @Test("the format follows a file name's extension")
    func formatFromName() {
        #expect(ExportFormat(fileName: "a.json") == .json)
        #expect(ExportFormat(fileName: "a.VCF") == .vcard)
        #expect(ExportFormat(fileName: "people") == .csv)
    }
}

@MainActor
@Suite("Export from the list")
struct ListExportTests {
    @Test("e asks for a name, writes what the list shows, and never overwrites without a yes")
    func export() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        let writer = InMemoryExportWriter(existing: ["taken.csv"])
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe(), exportWriter: writer)
        presenter.attach(view: view)
        presenter.beginSearch()
        presenter.editSearch("comstar")
        presenter.commitSearch()
        presenter.beginExport()
        #expect(view.last?.exportPrompt == "test.csv")  // the data's name, as CSV
        #expect(view.last?.promptCursor == 8)
        presenter.editExportName("out.vcf")
        presenter.commitExport()
        #expect(view.last?.message == "wrote 3 people to out.vcf (vcard)")
        let card = String(decoding: try #require(writer.files["out.vcf"]), as: UTF8.self)
        #expect(card.components(separatedBy: "BEGIN:VCARD").count == 4)
        presenter.beginExport()
        presenter.editExportName("taken.csv")
        presenter.commitExport()
        #expect(view.last?.question == "taken.csv exists; overwrite? (y/n)")
        presenter.confirmOverwrite(false)
        #expect(view.last?.message == "not written")
        #expect(writer.files["taken.csv"] == [])
        presenter.beginExport()
        presenter.editExportName("taken.csv")
        presenter.commitExport()
        presenter.confirmOverwrite(true)
        #expect(String(decoding: try #require(writer.files["taken.csv"]), as: UTF8.self).hasPrefix("first_name,"))
    }

    @Test("the suggested name is the data's base name as CSV")
    func suggestion() {
        #expect(ExportDecision.suggestedName(for: "people.json") == "people.csv")
        #expect(ExportDecision.suggestedName(for: "data/2024.people.json") == "2024.people.csv")
        #expect(ExportDecision.suggestedName(for: "/tmp/dump") == "dump.csv")
        #expect(ExportDecision.suggestedName(for: "stdin") == "stdin.csv")
        #expect(ExportDecision.suggestedName(for: DirectorySource.sampleTitle) == "people.csv")
        #expect(ExportDecision.suggestedName(for: "") == "roster.csv")
    }

    @Test("the name is edited at the cursor: ^W then json makes people.json; Esc writes nothing")
    func editName() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON, name: "people.json")
        let writer = InMemoryExportWriter()
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe(), exportWriter: writer)
        presenter.attach(view: view)
        presenter.beginExport()
        presenter.editPrompt(.deleteWordBackward)
        #expect(view.last?.exportPrompt == "people.")
        for character in "json" { presenter.editPrompt(.insert(String(character))) }
        presenter.editPrompt(.moveToStart)
        presenter.editPrompt(.insert("all-"))
        #expect(view.last?.exportPrompt == "all-people.json")
        #expect(view.last?.promptCursor == 4)
        presenter.cancelExport()
        #expect(view.last?.exportPrompt == nil)
        #expect(writer.files.isEmpty)
    }

    @Test("↑ in the export prompt recalls the names written before, in this and other lists")
    func history() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON, name: "people.json")
        let history = PromptHistory()
        let view = SpyListView()
        let presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                      arrangement: directory.everyone, wireframe: SpyListWireframe(), exportWriter: InMemoryExportWriter(), history: history)
        presenter.attach(view: view)
        presenter.beginExport()
        presenter.editExportName("first.json")
        presenter.commitExport()
        presenter.beginExport()
        presenter.editPrompt(.previousEntry)
        #expect(view.last?.exportPrompt == "first.json")
        presenter.editPrompt(.nextEntry)
        #expect(view.last?.exportPrompt == "people.csv")
        presenter.cancelExport()
        #expect(history.entries(for: .export) == ["first.json"])
        #expect(history.entries(for: .search).isEmpty)
    }
}

@MainActor
@Suite("Export prompt: what is at the name")
struct ExportTargetTests {
    let view = SpyListView()
    let writer = InMemoryExportWriter(existing: ["taken.txt"], others: [
        "folder": .directory, "dangling.csv": .brokenSymbolicLink, "/dev/null": .characterDevice,
        "pipe.csv": .namedPipe, "sock.csv": .socket, "disk.csv": .blockDevice,
    ])
    let presenter: ListPresenter

    init() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository),
                                  arrangement: directory.everyone, wireframe: SpyListWireframe(), exportWriter: writer)
        presenter.attach(view: view)
    }

    func export(_ name: String) {
        presenter.beginExport()
        presenter.editExportName(name)
        presenter.commitExport()
    }

    @Test("a directory, a broken link, a device, a pipe or a socket is named and never offered for replacement",
          arguments: [
            ("folder", "folder is a directory; not written"),
            ("dangling.csv", "dangling.csv is a broken symbolic link; not written"),
            ("/dev/null", "/dev/null is a character device; not written"),
            ("disk.csv", "disk.csv is a block device; not written"),
            ("pipe.csv", "pipe.csv is a named pipe (FIFO); not written"),
            ("sock.csv", "sock.csv is a socket; not written"),
          ])
    func refused(name: String, message: String) {
        export(name)
        #expect(view.last?.question == nil)
        #expect(view.last?.message == message)
        #expect(view.last?.messageFileName == name)
        presenter.confirmOverwrite(true)  // a stray y writes nothing
        #expect(writer.files[name] == nil)
    }

    @Test("an unknown extension or none asks before writing CSV, and says so")
    func unknownExtension() throws {
        export("foo.txt")
        #expect(view.last?.question == "foo.txt: unknown extension, write CSV? (y/n)")
        #expect(writer.files["foo.txt"] == nil)
        presenter.confirmOverwrite(true)
        #expect(view.last?.message == "wrote 6 people to foo.txt (csv)")
        #expect(String(decoding: try #require(writer.files["foo.txt"]), as: UTF8.self).hasPrefix("first_name,"))
        export("foo")
        #expect(view.last?.question == "foo: no extension, write CSV? (y/n)")
        presenter.confirmOverwrite(false)
        #expect(view.last?.message == "not written")
        #expect(writer.files["foo"] == nil)
        export("taken.txt")
        #expect(view.last?.question == "taken.txt exists (unknown extension); overwrite with CSV? (y/n)")
    }
}

/// A quote, comma, semicolon or backslash followed by a combining mark is
/// one Character with it: escaping goes by scalar, so it is still escaped
/// (the writers' fuzzer found a CSV field ended early by `"` + U+07FD).
@Suite("Escaping a character a combining mark follows")
struct CombiningMarkEscapingTests {
    static let mark = "\u{07FD}"

    @Test("CSV: the quote is doubled and the field reads back whole")
    func csv() throws {
        let text = "\"" + Self.mark + "x, y"
        let field = DirectoryExporter.csvField(text)
        #expect(field == "\"\"\"" + Self.mark + "x, y\"")
        let records = try CSVRecords.parse("a,b\r\n" + field + ",z\r\n")
        #expect(records[1] == [text, "z"])
    }

    @Test("vCard: the comma and the semicolon are escaped; CRLF is one line break")
    func vCard() {
        #expect(DirectoryExporter.vCardText("a," + Self.mark + "b;" + Self.mark) == "a\\," + Self.mark + "b\\;" + Self.mark)
        #expect(DirectoryExporter.vCardText("a\r\nb\nc\rd\\") == "a\\nb\\nc\\nd\\\\")
    }

    @Test("an address list's display name: the quote is escaped")
    func displayName() {
        #expect(ClipboardText.displayName("Ann \"" + Self.mark + " Lee") == "\"Ann \\\"" + Self.mark + " Lee\"")
    }
}
