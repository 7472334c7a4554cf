import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// Every input the fuzzers (`make fuzz`) ever found troublesome, replayed:
/// the loader loads or fails with a LoadError; a person made from the bytes
/// survives every export; a state file decodes or is nil, never a crash.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(name).path)) ?? [])
            .sorted().map { "\(name)/\($0)" }
    }

    static func bytes(_ input: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: folder.appendingPathComponent(input)))
    }

    @Test("every kept folder holds inputs (a moved folder would replay nothing)")
    func foldersFound() {
        #expect(Self.inputs("regressions").count >= 6)
        #expect(Self.inputs("writers-regressions").count >= 2)
        #expect(Self.inputs("state-regressions").count >= 2)
    }

    @Test("the loader's kept inputs", arguments: inputs("regressions"))
    func loader(_ input: String) throws {
        let bytes = try Self.bytes(input)
        let result = Result { () throws(LoadError) -> LoadedDirectory in try PeopleLoader().load(bytes: bytes, sourceName: input) }
        if case .success(let directory) = result {
            let grouped = GroupedPeople(store: directory.store)
            #expect(grouped.order.count == directory.store.count)
        }
    }

    @Test("the writers' kept inputs", arguments: inputs("writers-regressions"))
    func writers(_ input: String) throws {
        #expect(FuzzedPerson.roundTripProblem(FuzzedPerson.person(from: try Self.bytes(input))) == nil)
    }

    @Test("the state reader's kept inputs", arguments: inputs("state-regressions"))
    func state(_ input: String) throws {
        guard var places = RememberedPlaces.decode(try Self.bytes(input)) else { return }
        places.remember(RememberedPlace(selectedPosition: 1, selectedID: nil), for: "/x.json", at: 1)
        #expect(places.encoded().flatMap(RememberedPlaces.decode) != nil)
    }
}
