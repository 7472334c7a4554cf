import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// The export flow alone, with the in-memory writer: no presenter.
@MainActor
@Suite("List export flow")
struct ListExportFlowTests {
    let directory = try! Fixtures.directory(json: Fixtures.seedJSON, name: "people.json")
    var shown: ExportContent { .shown(directory.everyone, of: directory.repository) }

    @Test("the prompt opens on the data's name; Enter on a free name writes and says what")
    func writes() throws {
        let writer = InMemoryExportWriter()
        let history = PromptHistory()
        let flow = ListExportFlow(writer: writer, history: history)
        flow.begin(sourceName: "data/people.json", people: "6 people")
        #expect(flow.line?.text == "people.csv")
        flow.editName("out.json")
        #expect(flow.commit { shown } == "wrote 6 people to out.json (json)")
        #expect(flow.line == nil)
        #expect(flow.fileName == "out.json")
        #expect(history.entries(for: .export) == ["out.json"])
        #expect(String(decoding: try #require(writer.files["out.json"]), as: UTF8.self).hasPrefix("["))
        flow.messageShown()
        #expect(flow.fileName == nil)
    }

    /// The directory, but every whole person's read fails (a server gone).
    final class UnreadablePeople: DelegatingRepository {
        let base: any PeopleRepository
        init(_ base: any PeopleRepository) { self.base = base }
        func person(_ id: PersonID) async throws(RepositoryError) -> Person {
            throw RepositoryError(.connectionLost, reason: "connection lost, r reconnects")
        }
    }

    @Test("marked people who cannot be read: the export says why and writes nothing, never blank people")
    func marksThatCannotBeRead() throws {
        let writer = InMemoryExportWriter()
        let flow = ListExportFlow(writer: writer, history: PromptHistory())
        flow.begin(sourceName: "people.json", people: "2 marked")
        flow.editName("out.csv")
        let marks = ExportContent.marks([PersonID(0), PersonID(1)], of: UnreadablePeople(directory.repository), orderedBy: directory.everyone)
        #expect(flow.commit { marks } == "could not write out.csv (the marked people could not be read (connection lost, r reconnects))")
        #expect(writer.files["out.csv"] == nil)
    }

    @Test("the prompt says what it will write: who, in which format, and for CSV the leading ' and how to do without it")
    func summary() {
        let flow = ListExportFlow(writer: InMemoryExportWriter(), history: PromptHistory())
        #expect(flow.summary == nil)
        flow.begin(sourceName: "people.json", people: "2 marked")
        #expect(flow.summary == "2 marked as CSV; formulas get a ' (--export csv --csv-verbatim: as is)")
        flow.editName("out.vcf")
        #expect(flow.summary == "2 marked as vCard")
    }

    @Test("an existing file is asked about; no writes nothing, yes replaces it; the name stays while asking")
    func overwrite() throws {
        let writer = InMemoryExportWriter(existing: ["taken.csv"])
        let flow = ListExportFlow(writer: writer, history: PromptHistory())
        flow.begin(sourceName: "people.json", people: "6 people")
        flow.editName("taken.csv")
        #expect(flow.commit { shown } == nil)
        #expect(flow.question == "taken.csv exists; overwrite? (y/n)")
        flow.messageShown()
        #expect(flow.fileName == "taken.csv")
        #expect(flow.confirm(false) { shown } == "not written")
        #expect(flow.question == nil)
        #expect(writer.files["taken.csv"] == [])
        #expect(flow.confirm(true) { shown } == nil)  // no question asked: a stray y does nothing
        flow.begin(sourceName: "people.json", people: "6 people")
        flow.editName("taken.csv")
        _ = flow.commit { shown }
        #expect(flow.confirm(true) { shown } == "wrote 6 people to taken.csv (csv)")
        #expect(String(decoding: try #require(writer.files["taken.csv"]), as: UTF8.self).hasPrefix("first_name,"))
    }

    @Test("marked people are written and counted as marked; a refused name writes nothing and never asks")
    func markedAndRefused() throws {
        let writer = InMemoryExportWriter(others: ["folder": .directory])
        let flow = ListExportFlow(writer: writer, history: PromptHistory())
        let two: Set<PersonID> = [PersonID(0), PersonID(1)]
        flow.begin(sourceName: "people.json", people: "6 people")
        flow.editName("marked.vcf")
        #expect(flow.commit { .marks(two, of: directory.repository, orderedBy: directory.everyone) } == "wrote 2 marked to marked.vcf (vcard)")
        let cards = String(decoding: try #require(writer.files["marked.vcf"]), as: UTF8.self)
        #expect(cards.components(separatedBy: "BEGIN:VCARD").count == 3)
        flow.begin(sourceName: "people.json", people: "6 people")
        flow.editName("folder")
        #expect(flow.commit { shown } == "folder is a directory; not written")
        #expect(flow.question == nil)
        #expect(writer.files["folder"] == nil)
    }

    /// A source's managers as its org chart reading gives them.
    struct StubManagers: OrgChartReading {
        let load: ManagerReferencesLoad
        func readChart(orderKeys: [Int32]?) -> OrgChartLoad { .unavailable("not asked") }
        func readManagerReferences() -> ManagerReferencesLoad { load }
    }

    @Test("the source's managers go with what is shown and with the marked: a CSV manager column, each person's reference")
    func managers() throws {
        let writer = InMemoryExportWriter()
        let flow = ListExportFlow(writer: writer, history: PromptHistory())
        // The seed's person 0 is Bertha Irwin, 1 Norton Curtis (by PersonID: the file's order).
        flow.managerReading = { _ in StubManagers(load: .loaded(ManagerReferenceList([0: "=boss()", 1: "Bertha Irwin"]))) }
        for (name, content) in [("all.csv", shown), ("marked.csv", .marks([PersonID(0), PersonID(1)], of: directory.repository,
                                                                          orderedBy: directory.everyone))] {
            flow.begin(sourceName: "people.json", people: "6 people")
            flow.editName(name)
            #expect(flow.commit { content }?.hasPrefix("wrote ") == true)
            let lines = String(decoding: try #require(writer.files[name]), as: UTF8.self).components(separatedBy: "\r\n")
            #expect(lines[0].hasSuffix(",favorite_fruit,manager"))
            #expect(lines.contains { $0.hasPrefix("Bertha,Irwin,") && $0.hasSuffix(",banana,'=boss()") })
            #expect(lines.contains { $0.hasPrefix("Norton,Curtis,") && $0.hasSuffix(",strawberry,Bertha Irwin") })
            #expect(lines.filter { $0.hasSuffix(",") }.count == (name == "all.csv" ? 4 : 0), "the others have none")
        }
    }

    @Test("managers that cannot be read again: the people are written (they may be all that is left), and the message says the managers are not")
    func managersUnreadable() {
        let writer = InMemoryExportWriter()
        let flow = ListExportFlow(writer: writer, history: PromptHistory())
        flow.managerReading = { _ in StubManagers(load: .unavailable("people.json could not be read again for its managers: gone")) }
        flow.begin(sourceName: "people.json", people: "6 people")
        flow.editName("out.json")
        #expect(flow.commit { shown }
                == "people.json could not be read again for its managers: gone; wrote 6 people to out.json (json) without their managers")
        let json = String(decoding: writer.files["out.json"] ?? [], as: UTF8.self)
        #expect(json.contains("Bertha") && !json.contains("manager"))
        flow.managerReading = { _ in StubManagers(load: .none) }
        flow.begin(sourceName: "people.json", people: "6 people")
        flow.editName("out.csv")
        #expect(flow.commit { shown } == "wrote 6 people to out.csv (csv)")
        #expect(String(decoding: writer.files["out.csv"] ?? [], as: UTF8.self).hasPrefix(DirectoryExporter.csvHeader.joined(separator: ",") + "\r\n"),
                "a source without managers: no column")
    }

    @Test("Enter on an empty name closes the prompt and writes nothing; edits reach only an open prompt")
    func emptyName() {
        let writer = InMemoryExportWriter()
        let flow = ListExportFlow(writer: writer, history: PromptHistory())
        #expect(!flow.apply(.insert("x")))
        flow.begin(sourceName: "people.json", people: "6 people")
        #expect(flow.apply(.deleteWordBackward))
        #expect(flow.line?.text == "people.")
        flow.editName("   ")
        #expect(flow.commit { shown } == nil)
        #expect(flow.line == nil)
        #expect(writer.files.isEmpty)
    }
}
