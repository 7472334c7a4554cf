import Foundation
import Testing
import TestSupport
@testable import RosterApp
@testable import RosterCore
@testable import RosterStore
@testable import RosterTUI

/// The app's `e` and `--export` are one writer: for the same order and
/// filter they write the same bytes.
@MainActor
@Suite("Exporting from the app")
struct AppExportTests {
    let folder = NSTemporaryDirectory() + "roster-app-export-\(UUID().uuidString)"

    /// Text a careless export would get wrong: a formula, a control
    /// character, a line break, quotes and commas, an accent.
    static let data = Fixtures.array([
        Fixtures.record(first: "=cmd()", last: "Núñez", company: "COMSTAR", email: "a@co.test", balance: "$2,107.15", index: 0,
                        extra: #""age": 35, "phone": "+1 (806) 584-3949""#),
        Fixtures.record(first: "Bell\u{7}", last: "Quote \"Q\", Jr", company: "Comvene", email: "b@co.test", balance: "-$3.00",
                        index: 1, extra: #""age": 41, "address": "1 Main Street,\nTown, State, 1234""#),
        Fixtures.record(first: "Cy", last: "Other", company: "Elsewhere", email: "c@else.test", balance: nil, index: 2,
                        extra: #""age": 20"#),
        Fixtures.record(first: "Di", last: "Last", company: "COMSTAR", email: "d@co.test", balance: "$5.00", index: 3),
    ])

    @Test("e writes exactly what --export writes for the same order and filter", arguments: ExportFormat.allCases)
    func sameAsExportOption(_ format: ExportFormat) async throws {
        let (fromApp, fromOption) = try await bothExports(Self.data, format, filter: "co", sort: "age:desc", shown: 3)
        #expect(!fromApp.isEmpty)
        #expect(fromApp == fromOption)
        let text = String(decoding: fromApp, as: UTF8.self)
        #expect(text.contains("Núñez") && text.contains("d@co.test") && !text.contains("c@else.test"))
    }

    /// Ada leads; Bob reports to her by _id, Cy to Bob by email, Di to Bob
    /// by name (a formula a spreadsheet would run).
    static let org = """
        [{"_id": "a1", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@x.test", "company": "ACME"},
         {"_id": "b2", "name": {"first": "Bob", "last": "Smith"}, "email": "bob@x.test", "company": "ACME", "manager": "a1"},
         {"_id": "c3", "name": {"first": "Cy", "last": "Young"}, "email": "cy@x.test", "company": "ACME", "manager": "bob@x.test"},
         {"_id": "d4", "name": {"first": "=Di", "last": "Ray"}, "company": "ACME", "manager": "Bob Smith"}]
        """

    @Test("e and --export carry each person's manager alike, and the export's org chart is the file's", arguments: ExportFormat.allCases)
    func managers(_ format: ExportFormat) async throws {
        let (fromApp, fromOption) = try await bothExports(Self.org, format, filter: nil, sort: nil, shown: 4)
        #expect(fromApp == fromOption)
        let input: InputFormat = format == .csv ? .csv : format == .json ? .json : .vCard
        let store = try PeopleLoader(format: input).load(bytes: Array(fromApp), sourceName: "out").store
        let references = try #require(Array(fromApp).withUnsafeBufferPointer { FileManagerReferences(store: store, fileBytes: $0, format: input) })
        var managers: [String: String] = [:]
        for person in 0..<store.count { managers[store.text(.id, of: person)] = references.managerReference(of: person) }
        #expect(managers == ["b2": "a1", "c3": "bob@x.test", "d4": "Bob Smith"])
        if format == .csv { #expect(String(decoding: fromApp, as: UTF8.self).contains("'=Di,Ray,")) }
    }

    @Test("--export of a file gone since it was read: everyone written without managers, said, status 1; a folder of cards keeps none")
    func managersUnreadable() async throws {
        try FileManager.default.createDirectory(atPath: folder + "/cards", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/org.json"
        try Data(Self.org.utf8).write(to: URL(fileURLWithPath: input))
        let options = try Options.parse(["--export", "csv", input])
        let loaded = await DirectoryInteractor.withManagers(.file(path: input, name: "org.json"), format: nil).loadDirectory(progress: LoadProgress())
        let repository = try loaded.get()
        try FileManager.default.removeItem(atPath: input)
        let output = folder + "/out.csv"
        var descriptor = open(output, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(await RosterCommand.write(repository, options: options, output: descriptor) == .failure)
        close(descriptor)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasPrefix(DirectoryExporter.csvHeader.joined(separator: ",") + "\r\n") && written.contains("Lovelace"))
        // A folder is no one file to read again: its cards export as before.
        try "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann Lee\r\nEND:VCARD\r\n".write(toFile: folder + "/cards/a.vcf", atomically: true, encoding: .utf8)
        descriptor = open(folder + "/cards.csv", O_WRONLY | O_CREAT | O_EXCL, 0o600)
        let cards = DirectorySource.file(path: folder + "/cards", name: "cards")
        #expect(await RosterCommand.list(source: cards, options: try Options.parse(["--export", "csv", folder + "/cards"]), output: descriptor) == .success)
        close(descriptor)
        #expect(try String(contentsOfFile: folder + "/cards.csv", encoding: .utf8).contains("Ann,Lee,"))
    }

    /// `data` exported as `format` by the app's `e` (with the org chart
    /// read from the file, as the app reads it) and by `--export`, in the
    /// same order and filter: both files' bytes.
    private func bothExports(_ data: String, _ format: ExportFormat, filter: String?, sort: String?, shown: Int) async throws -> (Data, Data) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/people.json"
        try Data(data.utf8).write(to: URL(fileURLWithPath: input))
        let name = ["csv": "out.csv", "json": "out.json", "vcard": "out.vcf"][format.rawValue] ?? "out"

        // The app: loaded from the file, ordered and filtered as --sort and --filter would.
        let source = DirectorySource.file(path: input, name: "people.json")
        let app = AppDependencies(screen: MemoryScreen(rows: 24, columns: 80), interactor: DirectoryInteractor.withManagers(source, format: nil),
                                  sourceName: "people.json", makeSearcher: { ImmediateSearchScheduler() }, placeStore: nil,
                                  startingView: StartingView(filter: filter, sort: sort == nil ? nil : SortOrder(.age, descending: true)))
        app.readOrgChart(fromFile: input, format: nil)
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        let presenter = try #require(app.listWireframe.listPresenter)
        #expect(presenter.displayed.count == shown)
        presenter.beginExport()
        presenter.editExportName(folder + "/app-" + name)
        presenter.commitExport()

        // --export, to a file instead of standard output.
        let options = try Options.parse(["--export", format.rawValue] + (sort.map { ["--sort", $0] } ?? []) + (filter.map { ["--filter", $0] } ?? []) + [input])
        let exported = folder + "/option-" + name
        let descriptor = open(exported, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(descriptor >= 0)
        #expect(await RosterCommand.list(source: source, options: options, output: descriptor) == .success)
        close(descriptor)
        return (try Data(contentsOf: URL(fileURLWithPath: folder + "/app-" + name)), try Data(contentsOf: URL(fileURLWithPath: exported)))
    }
}
