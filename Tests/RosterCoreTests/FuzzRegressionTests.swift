import Foundation
import Testing
@testable import RosterCore

/// Every input the loader's fuzzer ever found troublesome, replayed: it must
/// load or fail with a LoadError, never crash.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/regressions")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("replays kept inputs", arguments: inputs)
    func replay(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(name)))
        let result = Result { () throws(LoadError) -> LoadedDirectory in try PeopleLoader().load(bytes: bytes, sourceName: name) }
        if case .success(let directory) = result {
            let grouped = GroupedPeople(store: directory.store)
            #expect(grouped.order.count == directory.store.count)
        }
    }
}
