import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `roster query`'s kept index of a file (`$XDG_CACHE_HOME/roster/`): the
/// same bytes out with it as without it, never the answer of a file that
/// changed, and an index that cannot be trusted (garbled, cut short, not
/// 0600, a link) ignored and made again, the query still answered.
@Suite("End to end: roster query's index of a file", .serialized, .blockingWork)
struct QueryIndexTests {
    /// A fresh folder holding a cache folder; its environment for roster.
    struct Place {
        let folder: String
        var cache: String { folder + "/cache" }
        var environment: [String: String] { ["XDG_CACHE_HOME": cache] }

        init() throws {
            folder = NSTemporaryDirectory() + "roster-e2e-index-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }

        /// The one index in the cache (nil when there is none).
        func index() -> String? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/roster")) ?? []
            return names.first { $0.hasSuffix(".index") }.map { cache + "/roster/" + $0 }
        }

        func query(_ path: String, _ words: [String], cached: Bool = true) throws -> String {
            let run = try runRoster(["query"] + (cached ? [] : ["--no-cache"]) + [path] + words, environment: environment)
            #expect(run.error.isEmpty, "\(words): \(run.error)")
            return "\(run.status)\n" + run.output
        }
    }

    /// Every form the query language has on the fields an index keeps (and
    /// two it does not: those read the file).
    static let queries: [String] = [
        "", "a", "garza", "ada garza", "\"ada g\"", "name:\"ada g\"", "first:ada", "last:garza", "name=\"Ada Garza\"",
        "company:qua", "company=QUACRI", "-company:quacri garza", "email:co.uk", "email=", "phone:630", "1883140187", "854-03",
        "address:kansas", "street:harbor", "city:vandiver", "state=Kansas", "zip:96", "state=", "-city= an", "age>30", "age:30-39",
        "age=", "balance<1000", "balance:1000-2000", "active:yes", "-active:no ma", "active=", "zzzqqq", "ÁDA", "eye:blue garza", "fruit:apple an",
    ]

    @Test("the answer from the index is byte for byte the answer from the file, for every form of query")
    func sameAnswers() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(atPath: place.folder) }
        let path = place.folder + "/people.json"
        try generate(people: 1500, into: path)
        _ = try place.query(path, ["garza"])
        #expect(place.index() != nil, "the first query keeps an index")
        for query in Self.queries {
            let words = query.isEmpty ? [] : [query]
            #expect(try place.query(path, words) == place.query(path, words, cached: false), "\(query)")
        }
    }

    @Test("hostile names and emails come out of the index cleaned exactly as from the file")
    func hostileValues() throws {
        let place = try Place()
        let (path, folder) = try QueryCommandTests.file()
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: place.folder) }
        try QueryCommandTests.expectLines(path, environment: place.environment)
        #expect(place.index() != nil)
        try QueryCommandTests.expectLines(path, environment: place.environment)
    }

    @Test("a file replaced by a rename, or written in place (even with its old modification time put back), is read again")
    func changedFile() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(atPath: place.folder) }
        let path = place.folder + "/people.json"
        try QueryCommandTests.people.write(toFile: path, atomically: false, encoding: .utf8)
        let ada = try place.query(path, ["lovelace"])
        #expect(ada.contains("ada@acme.test"))
        let old = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        // Same size, same modification time, another inode.
        let replacement = place.folder + "/new.json"
        try QueryCommandTests.people.replacingOccurrences(of: "Lovelace", with: "Lovelacy").write(toFile: replacement, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: old as Any], ofItemAtPath: replacement)
        #expect(rename(replacement, path) == 0)
        #expect(try place.query(path, ["lovelace"]) == "1\n")
        #expect(try place.query(path, ["lovelacy"]).contains("ada@acme.test"))
        // In place, same size: once with a new modification time, once with the old one put back.
        for keepTime in [false, true] {
            var before = stat()
            #expect(stat(path, &before) == 0)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let swapped = text.contains("Lovelacy") ? text.replacingOccurrences(of: "Lovelacy", with: "Lovelacz")
                : text.replacingOccurrences(of: "Lovelacz", with: "Lovelacy")
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.write(contentsOf: Data(swapped.utf8))
            try handle.close()
            if keepTime {
                // To the nanosecond (a `Date` would round it): only the change time tells.
                let times = [before.st_atim, before.st_mtim]
                #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
                var after = stat()
                #expect(stat(path, &after) == 0 && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec && after.st_size == before.st_size)
            }
            let wanted = swapped.contains("Lovelacy") ? "lovelacy" : "lovelacz"
            #expect(try place.query(path, [wanted]).contains("ada@acme.test"), "keepTime \(keepTime)")
        }
    }

    @Test("a garbled, cut short or open index is ignored and made again; a link is never followed; no cache still answers")
    func untrustedIndex() throws {
        let place = try Place()
        defer { try? FileManager.default.removeItem(atPath: place.folder) }
        let path = place.folder + "/people.json"
        try QueryCommandTests.people.write(toFile: path, atomically: false, encoding: .utf8)
        let truth = try place.query(path, ["lovelace"], cached: false)
        _ = try place.query(path, ["lovelace"])
        let index = try #require(place.index())
        let good = try Data(contentsOf: URL(fileURLWithPath: index))
        let name = try #require(good.range(of: Data("Lovelace".utf8)))
        var garbled = good
        garbled[name.lowerBound] = UInt8(ascii: "L") + 1  // "Movelace": the checksum no longer holds
        var versioned = good
        versioned[versioned.range(of: Data("roster ".utf8))!.upperBound] ^= 1  // another Roster's index
        for bad in [garbled, good.prefix(good.count / 2), Data(), versioned] {
            try bad.write(to: URL(fileURLWithPath: index))
            #expect(try place.query(path, ["lovelace"]) == truth)
            #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == good, "made again")
        }
        #expect(chmod(index, 0o644) == 0)
        #expect(try place.query(path, ["lovelace"]) == truth)
        #expect(try FileManager.default.attributesOfItem(atPath: index)[.posixPermissions] as? Int == 0o600, "replaced, 0600")
        // A link where the index goes: not read through, not replaced, its target untouched.
        let target = place.folder + "/elsewhere"
        try good.write(to: URL(fileURLWithPath: target))
        try FileManager.default.removeItem(atPath: index)
        try FileManager.default.createSymbolicLink(atPath: index, withDestinationPath: target)
        #expect(try place.query(path, ["lovelace"]) == truth)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: index) == target)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == good)
        // A cache that cannot be made (its place is a file): the query answers, quietly.
        let blocked = try runRoster(["query", path, "lovelace"], environment: ["XDG_CACHE_HOME": path])
        #expect("\(blocked.status)\n" + blocked.output == truth && blocked.error.isEmpty)
    }

    /// `roster-gen`'s people (built beside roster) in `path`.
    private func generate(people: Int, into path: String) throws {
        let generator = URL(fileURLWithPath: rosterBinary).deletingLastPathComponent().appendingPathComponent("roster-gen")
        let process = Process()
        process.executableURL = generator
        process.arguments = ["--people", "\(people)", "--seed", "42"]
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
