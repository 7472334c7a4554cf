import Foundation
import Testing
import TestTraits
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// The CSV reader against hand-written edge cases (RFC 4180 and worse).
@Suite("Reading CSV")
struct CSVReaderTests {
    static func load(_ text: String, name: String = "t.csv") throws -> LoadedDirectory {
        try PeopleLoader().load(bytes: Array(text.utf8), sourceName: name)
    }

    static func loadError(_ text: String, name: String = "t.csv") -> LoadError? {
        do {
            _ = try load(text, name: name)
            return nil
        } catch let error as LoadError {
            return error
        } catch {
            return nil
        }
    }

    @Test("the columns --export csv writes fill every field")
    func exportColumns() throws {
        let text = DirectoryExporter.csvHeader.joined(separator: ",") + "\r\n"
            + "Ada,Lovelace,ACME,ada@acme.test,555,\"1 Main St, Town\",1234.50,\"$1,234.50\",36,true,id7,7,g-1,http://p,blue,kiwi\r\n"
        let loaded = try Self.load(text)
        #expect(loaded.skipped.isEmpty)
        let ada = loaded.store[0]
        #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace" && ada.company == "ACME" && ada.email == "ada@acme.test")
        #expect(ada.phone == "555" && ada.address == "1 Main St, Town" && ada.balance.text == "$1,234.50" && ada.balance.cents == 123_450)
        #expect(ada.age == 36 && ada.isActive == true && ada.id == "id7" && ada.index == 7 && ada.guid == "g-1")
        #expect(ada.picture == "http://p" && ada.eyeColor == "blue" && ada.favoriteFruit == "kiwi")
    }

    @Test("every exported column names a person field; a header needs a name column")
    func mapping() {
        for column in DirectoryExporter.csvHeader { #expect(PersonColumn(header: column) != nil, "\(column)") }
        #expect(PersonColumn(header: "First Name") == .text(.firstName))
        #expect(PersonColumn(header: "EYECOLOR") == .text(.eyeColor))
        #expect(PersonColumn(header: "isActive") == .active)
        #expect(PersonColumn(header: "notes") == nil)
    }

    @Test("RFC 4180: quoted commas, doubled quotes, line breaks inside quotes, CRLF; line numbers count them")
    func rfc4180() throws {
        let text = "first_name,last_name,address\r\n"
            + "\"Ann, \"\"Nan\"\"\",O'Neil,\"line one\r\nline two\"\r\n"
            + "Bob,Stone,\"\"\r\n"
            + "Cy,Bad,x,extra\r\n"
        let loaded = try Self.load(text)
        #expect(loaded.store.count == 2)
        #expect(loaded.store[0].firstName == "Ann, \"Nan\"")
        #expect(loaded.store[0].address == "line one\r\nline two")
        #expect(loaded.store[1].address == "")
        #expect(!loaded.store[1].has(.address))
        #expect(loaded.skipped == [SkippedRecord(number: 3, line: 5, reason: "4 cells where the header has 3")])
    }

    @Test("a byte order mark, LF line ends, a last record without a line break, blank lines")
    func bomAndBlankLines() throws {
        let loaded = try Self.load("\u{FEFF}last_name,first_name\n\nLovelace,Ada\n\nHopper,Grace")
        #expect(loaded.store.count == 2)
        #expect(loaded.skipped.isEmpty)
        #expect(loaded.store[1].fullName == "Grace Hopper")
    }

    @Test("CR-only line ends (old Mac) end records as CRLF and LF do, in any chunk; line numbers count them")
    func carriageReturnLineEnds() async throws {
        let text = "first_name,last_name,address\r"
            + "Ann,Able,\"one\rtwo\"\r"
            + "Bob,Bell,x,extra\r"
            + "\r"
            + "Cy,Cole,\"\"\r"
        let loaded = try await loadedWhateverTheSplit(text, fileExtension: "csv")
        #expect(loaded.store.count == 2)
        #expect(loaded.store[0].address == "one\rtwo")
        #expect(loaded.store[1].fullName == "Cy Cole")
        #expect(loaded.skipped == [SkippedRecord(number: 2, line: 4, reason: "4 cells where the header has 3")])
        let mixed = try Self.load("first_name,last_name\rAnn,Able\r\nBob,Bell\nCy,Cole")
        #expect(mixed.store.count == 3)
        #expect(mixed.skipped.isEmpty)
    }

    @Test("headers match ignoring case and spelling; unknown columns are ignored, missing ones missing")
    func headers() throws {
        let loaded = try Self.load("Notes,EMAIL,Last Name,eyeColor\nhello,a@x.test,Lovelace,green\n")
        let ada = loaded.store[0]
        #expect(ada.lastName == "Lovelace" && ada.email == "a@x.test" && ada.eyeColor == "green")
        #expect(!ada.has(.firstName) && !ada.has(.company) && ada.age == nil && ada.isActive == nil)
        let whole = try Self.load("name,company\nAda King Lovelace,ACME\n")
        #expect(whole.store[0].firstName == "Ada King" && whole.store[0].lastName == "Lovelace")
    }

    @Test("balance_text is the text when both balance columns are there; balance alone is used too")
    func balances() throws {
        let loaded = try Self.load("first_name,balance,balance_text\nA,1234.50,\"$1,234.50\"\nB,12.00,\nC,,n/a\n")
        #expect(loaded.store[0].balance.text == "$1,234.50")
        #expect(loaded.store[1].balance.text == "12.00" && loaded.store[1].balance.cents == 1200)
        #expect(loaded.store[2].balance.text == "n/a" && loaded.store[2].balance.cents == nil)
    }

    @Test("a wrong-typed value skips its record with line and reason; the others load")
    func badRecords() throws {
        let text = "first_name,age,active,index\nA,30,true,1\nB,abc,true,2\nC,30,maybe,3\nD,3.5,false,4\n\"E\"x,1,true,5\n,1,true,6\nF,,,\nG,2147483648,,\n"
        let loaded = try Self.load(text)
        #expect(loaded.store.count == 2)
        #expect(loaded.store[1].firstName == "F" && loaded.store[1].age == nil)
        #expect(loaded.skipped == [
            SkippedRecord(number: 2, line: 3, reason: "'age' should be a whole number, found 'abc'"),
            SkippedRecord(number: 3, line: 4, reason: "'active' should be true or false, found 'maybe'"),
            SkippedRecord(number: 4, line: 5, reason: "'age' should be a whole number, found '3.5'"),
            SkippedRecord(number: 5, line: 6, reason: "text after the closing quote of column 1"),
            SkippedRecord(number: 6, line: 7, reason: "no name (needs first_name or last_name)"),
            SkippedRecord(number: 8, line: 9, reason: "'age' is out of range, found '2147483648'"),
        ])
    }

    @Test("the quote --export csv adds before a formula is taken off again, and only that one")
    func formulaQuote() throws {
        let loaded = try Self.load("first_name,last_name,company,email\n'=1+2,''=x,'plain,'-5@x.test\n")
        let person = loaded.store[0]
        #expect(person.firstName == "=1+2")
        #expect(person.lastName == "'=x")
        #expect(person.company == "'plain")
        #expect(person.email == "-5@x.test")
    }

    @Test("what stops a load is one line naming the file, line and column")
    func stoppingErrors() {
        #expect(Self.loadError("first_name\nAda\n\"Bob\n") == .invalid(file: "t.csv", line: 3, column: 1,
            message: "a quote opened here never closes (is the file truncated?)"))
        // Doubled quotes and line breaks after the opening quote: still its own place.
        #expect(Self.loadError("first_name\n\"a\"\"\nb\"\"c\n") == .invalid(file: "t.csv", line: 2, column: 1,
            message: "a quote opened here never closes (is the file truncated?)"))
        #expect(Self.loadError("") == .invalid(file: "t.csv", line: nil, column: nil, message: "the file is empty; expected CSV with a header row"))
        let noName = Self.loadError("email,phone\na@x,1\n")
        #expect(noName?.message == "t.csv: line 1, column 1: the CSV header names no first_name, last_name or name column (it reads 'email,phone')")
        #expect(Self.loadError("\n\n")?.message.hasPrefix("t.csv: no header row") == true)
    }

    /// Records with quoted line breaks everywhere, so the guessed middle often falls inside a cell.
    static func awkward(people: Int) -> String {
        var text = "first_name,last_name,address,age\r\n"
        for index in 0..<people {
            let address = index % 3 == 0 ? "\"\(index) Road,\nTown \"\"\(index)\"\"\n\"" : "Street \(index)"
            let age = index % 41 == 0 ? "old" : "\(index % 90)"
            text += "P\(index),Ölberg\(index % 7),\(address),\(age)\r\n"
        }
        return text
    }

    @Test("the same people and skipped records whatever the chunk size and split", arguments: [30, 31, 32, 33, 301])
    func chunkAndSplitInvariance(people: Int) async throws {
        let reference = try await loadedWhateverTheSplit(Self.awkward(people: people), fileExtension: "csv")
        #expect(reference.store.count + reference.skipped.count == people)
        #expect(reference.skipped.first == SkippedRecord(number: 1, line: 2, reason: "'age' should be a whole number, found 'old'"))
    }

    @Test("a middle inside one long quoted cell: the guessed split is refused and the first half reads on")
    func splitInsideQuotes() async throws {
        let cell = "\"" + (0..<500).map { "line \($0), \"\"quoted\"\"" }.joined(separator: "\n") + "\""
        let text = "first_name,address\nA,short\nB,\(cell)\nC,short\n"
        let middle = text.utf8.count / 2
        #expect(middle > text.utf8.count / 10 && middle < text.utf8.count * 9 / 10)  // the middle is inside B's address
        let loaded = try await loadedWhateverTheSplit(text, fileExtension: "csv")
        #expect(loaded.store.count == 3)
        #expect(loaded.store[2].firstName == "C")
        #expect(loaded.store[1].address.hasPrefix("line 0, \"quoted\"\nline 1"))
    }

    @Test("an unclosed quote found by the second half names its place in the whole file")
    func errorInSecondHalf() async throws {
        let text = Self.awkward(people: 200) + "Last,One,\"never closed\n"
        let path = NSTemporaryDirectory() + "roster-test-\(UUID().uuidString).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lastLine = text.utf8.filter { $0 == 0x0A }.count  // the text ends with the open cell's line break
        #expect(lastLine == 336)
        await #expect(throws: LoadError.invalid(file: "f.csv", line: lastLine, column: 10,
                                                message: "a quote opened here never closes (is the file truncated?)")) {
            try await PeopleLoader(chunkSize: 512, parallelThreshold: 1).load(path: path, sourceName: "f.csv")
        }
    }
}

/// Loads `text` from a file with many chunk sizes, on one core and split
/// in two, and expects each time what loading it at once gives; returns that.
func loadedWhateverTheSplit(_ text: String, fileExtension: String) async throws -> LoadedDirectory {
    let path = NSTemporaryDirectory() + "roster-test-\(UUID().uuidString).\(fileExtension)"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reference = try PeopleLoader().load(bytes: Array(text.utf8), sourceName: "f.\(fileExtension)")
    for (chunk, threshold) in [(7, Int.max), (64, Int.max), (97, 1), (4096, 1), (1 << 20, 1)] {
        let loaded = try await PeopleLoader(chunkSize: chunk, parallelThreshold: threshold).load(path: path, sourceName: "f.\(fileExtension)")
        #expect(loaded.store.count == reference.store.count, "chunk \(chunk)")
        #expect(loaded.skipped == reference.skipped, "chunk \(chunk)")
        for position in 0..<min(loaded.store.count, reference.store.count) {
            #expect(loaded.store[position] == reference.store[position])
        }
    }
    return reference
}

/// Random text made of the characters that matter to the readers: the
/// same result (people, skipped records, or the error) whatever the chunk
/// size and whether the file is split for two cores.
@Suite("Readers against random text", .blockingWork)
struct ReaderInvarianceTests {
    static func randomText(_ random: inout SeededRandom, header: String, alphabet: [String]) -> String {
        header + (0..<random.below(120)).map { _ in alphabet[random.below(alphabet.count)] }.joined()
    }

    static func outcome(_ load: () async throws -> LoadedDirectory) async -> String {
        do {
            let loaded = try await load()
            let people = (0..<loaded.store.count).map { "\(loaded.store[$0])" }
            return "people \(people) skipped \(loaded.skipped)"
        } catch {
            return "error \(error)"
        }
    }

    @Test("CSV and JSON Lines", arguments: [
        ("csv", "first_name,age,balance_text\n", ["a", "é", ",", "\"", "\"\"", "\n", "\r\n", "\r", "1", "'", "=", " ", ",x"]),
        ("jsonl", "", ["{\"name\": \"a b\"}", "{", "}", "\"", "\n", "\r\n", ":", "1", " ", "null", "\"age\"", ",", "é"]),
    ])
    func invariance(fileExtension: String, header: String, alphabet: [String]) async throws {
        var random = SeededRandom(seed: fileExtension == "csv" ? 11 : 12)
        let path = NSTemporaryDirectory() + "roster-test-\(UUID().uuidString).\(fileExtension)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var differences: [String] = []
        for _ in 0..<300 {
            let text = Self.randomText(&random, header: header, alphabet: alphabet)
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let whole = await Self.outcome { try PeopleLoader().load(bytes: Array(text.utf8), sourceName: "f.\(fileExtension)") }
            for (chunk, threshold) in [(1, Int.max), (3, Int.max), (5, 1), (64, 1)] {
                let chunked = await Self.outcome {
                    try await PeopleLoader(chunkSize: chunk, parallelThreshold: threshold).load(path: path, sourceName: "f.\(fileExtension)")
                }
                if chunked != whole { differences.append("chunk \(chunk): \(text.debugDescription)\n  \(chunked)\n  \(whole)") }
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(3).joined(separator: "\n"))")
    }
}
