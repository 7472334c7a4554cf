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
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/people.json"
        try Data(Self.data.utf8).write(to: URL(fileURLWithPath: input))
        let name = ["csv": "out.csv", "json": "out.json", "vcard": "out.vcf"][format.rawValue] ?? "out"

        // The app: loaded from the file, ordered and filtered as --sort and --filter would.
        let source = DirectorySource.file(path: input, name: "people.json")
        let app = AppDependencies(screen: MemoryScreen(rows: 24, columns: 80),
                                  interactor: DirectoryInteractor(source: source, loader: PeopleLoader()),
                                  sourceName: "people.json", makeSearcher: { ImmediateSearchScheduler() }, placeStore: nil,
                                  startingView: StartingView(filter: "co", sort: SortOrder(.age, descending: true)))
        app.directoryLoaded(await AppDependencies.loadAndArrange(interactor: app.interactor, progress: LoadProgress()))
        let presenter = try #require(app.listWireframe.listPresenter)
        #expect(presenter.displayed.count == 3)
        presenter.beginExport()
        presenter.editExportName(folder + "/app-" + name)
        presenter.commitExport()

        // --export, to a file instead of standard output.
        let options = try Options.parse(["--export", format.rawValue, "--sort", "age:desc", "--filter", "co", input])
        let exported = folder + "/option-" + name
        let descriptor = open(exported, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(descriptor >= 0)
        #expect(await RosterCommand.list(source: source, options: options, output: descriptor) == .success)
        close(descriptor)

        let fromApp = try Data(contentsOf: URL(fileURLWithPath: folder + "/app-" + name))
        let fromOption = try Data(contentsOf: URL(fileURLWithPath: exported))
        #expect(!fromApp.isEmpty)
        #expect(fromApp == fromOption)
        let text = String(decoding: fromApp, as: UTF8.self)
        #expect(text.contains("Núñez") && text.contains("d@co.test") && !text.contains("c@else.test"))
    }
}
