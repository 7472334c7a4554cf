import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// Loading from real files and pipes: errors from the file system, and the
/// same people whatever the chunk size or the number of threads.
@Suite("Loading files")
struct FileLoadingTests {
    static func temporaryFile(_ contents: String) throws -> String {
        let path = NSTemporaryDirectory() + "roster-test-\(UUID().uuidString).json"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A pipe whose write end a thread feeds `bytes` into, `piecesOf` at a
    /// time, then closes; read from `[0]`.
    static func pipeFeeding(_ bytes: [UInt8], piecesOf size: Int) -> [Int32] {
        var ends: [Int32] = [0, 0]
        pipe(&ends)
        let writeEnd = ends[1]
        Thread {
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress! + offset, min(size, $0.count - offset)) }
                if written <= 0 { break }
                offset += written
            }
            close(writeEnd)
        }.start()
        return ends
    }

    static func generated(people: Int) -> String {
        let companies = ["ACME", "Globex", "Initech", "Umbrella", "", "Hooli", "acme"]
        let records = (0..<people).map { index in
            Fixtures.record(first: "First\(index % 97)", last: ["Núñez", "Smith", "Ölberg", "王", "Doe"][index % 5],
                            company: companies[index % companies.count], index: index,
                            extra: index % 13 == 0 ? #""notes": {"deep": [1, 2, {"x": "}, {"}]}"# : "")
        }
        var mixed = records
        for bad in stride(from: 5, to: mixed.count, by: 50) { mixed[bad] = "null" }
        return Fixtures.array(mixed)
    }

    @Test("a missing file and a directory are named errors")
    func fileSystemErrors() async {
        await #expect(throws: LoadError.notFound(file: "nope.json")) {
            try await PeopleLoader().load(path: "/nonexistent/nope.json", sourceName: "nope.json")
        }
        // A folder of its own: the temporary folder may hold a .vcf file (another test's, anyone's),
        // and a folder of cards is a directory Roster opens.
        let folder = NSTemporaryDirectory() + "roster-folder-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await #expect(throws: LoadError.isDirectory(file: "tmp")) {
            try await PeopleLoader().load(path: folder, sourceName: "tmp")
        }
    }

    @Test("an unreadable file says so (skipped as root, who can read anything)", .enabled(if: getuid() != 0))
    func unreadable() async throws {
        let path = try Self.temporaryFile("[]")
        defer { try? FileManager.default.removeItem(atPath: path) }
        chmod(path, 0)
        await #expect(throws: LoadError.notReadable(file: "f", reason: "permission denied")) {
            try await PeopleLoader().load(path: path, sourceName: "f")
        }
    }

    @Test("the same people and skipped records whatever the chunk size and split")
    func chunkAndSplitInvariance() async throws {
        let json = Self.generated(people: 600)
        let path = try Self.temporaryFile(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try PeopleLoader().load(bytes: Array(json.utf8), sourceName: "f")
        #expect(reference.skipped.count == 12)
        for (chunk, threshold) in [(7, Int.max), (64, Int.max), (4096, 1), (97, 1), (1 << 20, 1)] {
            let loaded = try await PeopleLoader(chunkSize: chunk, parallelThreshold: threshold).load(path: path, sourceName: "f")
            #expect(loaded.store.count == reference.store.count, "chunk \(chunk)")
            #expect(loaded.skipped == reference.skipped, "chunk \(chunk)")
            for position in stride(from: 0, to: reference.store.count, by: 37) {
                #expect(loaded.store[position] == reference.store[position])
            }
            #expect(loaded.store.companies.map(\.headcount).sorted() == reference.store.companies.map(\.headcount).sorted())
        }
    }

    @Test("every person's file offset is where their record starts, whatever the format, chunk size and split")
    func fileOffsets() async throws {
        let records = (0..<400).map { Fixtures.record(first: "P\($0)", company: "C\($0 % 7)", index: $0, extra: #""_id": "r\#($0)", "note": "}, {""#) }
        let csv = "_id,first_name,company\n" + (0..<400).map { "r\($0),\"P\($0),\n\",C" }.joined(separator: "\r\n") + "\n"
        for (text, ext) in [(Fixtures.array(records), "json"), (records.joined(separator: "\n  \n"), "jsonl"), (csv, "csv")] {
            let path = try Self.temporaryFile(text) + "." + ext
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            defer { unlink(path) }
            let bytes = Array(text.utf8)
            for (chunk, threshold) in [(97, 1), (4096, 1), (1 << 20, Int.max)] {
                let store = try await PeopleLoader(chunkSize: chunk, parallelThreshold: threshold).load(path: path, sourceName: "f").store
                #expect(store.count == 400)
                for position in 0..<store.count {
                    let record = Array(bytes[store.fileOffset(of: position)...].prefix(ext == "csv" ? 8 : 400))
                    let id = store[position].id
                    if ext == "csv" {
                        #expect(String(decoding: record, as: UTF8.self).hasPrefix(id + ","), "\(ext), chunk \(chunk), person \(position)")
                    } else {
                        let end = try #require(RecordFile.endOfJSONValue(in: record), "\(ext), chunk \(chunk), person \(position)")
                        #expect(String(decoding: record[..<end], as: UTF8.self).contains(#""_id": "\#(id)""#))
                    }
                }
            }
        }
    }

    @Test("locating keeps every record's _id where its record starts, named or not, whatever the values, at any split; bad JSON still fails")
    func locatingKeepsEveryRecordsIDAndStart() async throws {
        let records = (0..<300).map { number in
            number % 50 == 7
                ? #"{"_id": "r\#(number)", "age": "old", "name": 5, "company": ["not", "text"]}"#  // skipped by a load: no name
                : #"{"_id": "r\#(number)", "index": \#(number), "name": {"first": "P\#(number)"}, "company": "C\#(number % 7)"}"#
        }
        for (text, ext) in [(Fixtures.array(records), "json"), (records.joined(separator: "\n"), "jsonl")] {
            let path = try Self.temporaryFile(text) + "." + ext
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            defer { unlink(path) }
            let bytes = Array(text.utf8)
            let full = try await PeopleLoader().load(path: path, sourceName: "f")
            #expect(full.skipped.count == 6, "\(ext)")
            for (chunk, threshold) in [(97, 1), (1 << 20, Int.max)] {
                var loader = PeopleLoader(chunkSize: chunk, parallelThreshold: threshold)
                loader.locatesOnly = true
                let located = try await loader.load(path: path, sourceName: "f")
                #expect(located.skipped.isEmpty && located.store.count == 300, "\(ext), chunk \(chunk)")
                for number in [0, 7, 8, 157, 299] {
                    let found = located.store.positions(withID: "r\(number)", limit: 2)
                    try #require(found.count == 1, "\(ext), chunk \(chunk), r\(number)")
                    let start = located.store.fileOffset(of: found[0])
                    #expect(String(decoding: bytes[start...].prefix(20), as: UTF8.self).hasPrefix("{\"_id\": \"r\(number)\""))
                }
            }
        }
        let broken = try Self.temporaryFile(#"[{"_id": "a", "name": {"first": "A"}}, {"_id": "b", "age": 3 4}]"#)
        defer { unlink(broken) }
        var loader = PeopleLoader()
        loader.locatesOnly = true
        await #expect(throws: LoadError.self) { try await loader.load(path: broken, sourceName: "f") }
    }

    @Test("bytes read add up to the file's size, however it is split, never more")
    func progressCountsEachByteOnce() async throws {
        let json = Self.generated(people: 600)
        let path = try Self.temporaryFile(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (chunk, threshold) in [(4096, 1), (97, 1), (1 << 20, 1), (512, Int.max)] {
            let progress = LoadProgress()
            _ = try await PeopleLoader(chunkSize: chunk, parallelThreshold: threshold).load(path: path, sourceName: "f", progress: progress)
            #expect(progress.bytesRead.load(ordering: .relaxed) == json.utf8.count, "chunk \(chunk)")
        }
        let progress = LoadProgress()
        progress.totalBytes.store(483_000_000, ordering: .relaxed)
        progress.bytesRead.store(485_000_000, ordering: .relaxed)
        #expect(progress.snapshot.bytes == 483_000_000)
    }

    @Test("a syntax error in the second half reports the line in the whole file")
    func splitErrorLines() async throws {
        var lines = Self.generated(people: 400).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let broken = lines.count - 10
        lines[broken] = "{\"name\": }"
        let path = try Self.temporaryFile(lines.joined(separator: "\n"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(throws: LoadError.syntax(file: "f", line: broken + 1, column: 10, message: "expected a value, found '}'")) {
            try await PeopleLoader(chunkSize: 512, parallelThreshold: 1).load(path: path, sourceName: "f")
        }
    }

    @Test("the split guess may land inside text; the result is still right")
    func misleadingBoundary() async throws {
        // Text that looks like an element boundary, everywhere.
        let trap = #"}, {"#
        let records = (0..<300).map { Fixtures.record(first: "P\($0)", company: "C", index: $0, extra: #""note": "\#(trap) \#(trap)""#) }
        let json = Fixtures.array(records)
        let path = try Self.temporaryFile(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try await PeopleLoader(chunkSize: 1024, parallelThreshold: 1).load(path: path, sourceName: "f")
        #expect(loaded.store.count == 300)
        #expect(loaded.store[299].firstName == "P299")
    }

    @Test("standard input streams through a pipe")
    func streamsFromPipe() throws {
        let json = Self.generated(people: 200)
        let ends = Self.pipeFeeding(Array(json.utf8), piecesOf: 333)
        let loaded = try PeopleLoader(chunkSize: 256).stream(descriptor: ends[0], sourceName: "stdin")
        close(ends[0])
        #expect(loaded.store.count == 196)
        #expect(loaded.sourceName == "stdin")
    }

    @Test("the input file is never written")
    func inputUntouched() async throws {
        let json = Self.generated(people: 50)
        let path = try Self.temporaryFile(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        _ = try await PeopleLoader().load(path: path, sourceName: "f")
        let after = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        #expect(before == after)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == json)
    }

    @Test("a file that shrinks while it is read ends in one clear line, never SIGBUS",
          arguments: [Int.max, 1])
    func shrinkingFile(parallelThreshold: Int) async throws {
        let json = Self.generated(people: 600)
        let path = try Self.temporaryFile(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let truncated = Flag()
        // Another program cuts the file to a quarter right after the first chunk is read.
        let loader = PeopleLoader(chunkSize: 1024, parallelThreshold: parallelThreshold) { _ in
            if truncated.set() { truncate(path, off_t(json.utf8.count / 4)) }
        }
        await #expect(throws: LoadError.notReadable(file: "f", reason: "it shrank while being read")) {
            try await loader.load(path: path, sourceName: "f")
        }
        #expect(LoadError.notReadable(file: "f", reason: "it shrank while being read").message == "f: cannot be read (it shrank while being read)")
    }

    @Test("a syntax error on one long line reports the exact column, wherever the halves split")
    func oneLineErrorColumn() async throws {
        let records = (0..<600).map { Fixtures.record(first: "Zoë\($0)", company: "Ça", index: $0) }
        var json = "[" + records.joined(separator: ",") + "]"
        let marker = json.range(of: "\"Zoë590\"")!
        json.replaceSubrange(marker, with: "Zoë590\"")  // an unquoted name: a syntax error
        let path = try Self.temporaryFile(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let column = json.distance(from: json.startIndex, to: marker.lowerBound) + 1
        for (chunk, threshold) in [(1 << 20, Int.max), (4096, 1), (512, 1)] {
            do {
                _ = try await PeopleLoader(chunkSize: chunk, parallelThreshold: threshold).load(path: path, sourceName: "f")
                Issue.record("loaded a broken file")
            } catch {
                guard case .syntax(_, let line, let found, _) = error else { Issue.record("\(error)"); continue }
                #expect(line == 1)
                #expect(found == column, "chunk \(chunk), threshold \(threshold)")
            }
        }
    }

    @Test("a pipe is parsed once per buffer, not once per read: one huge element costs linear time")
    func pipeIsLinear() throws {
        let huge = String(repeating: "x", count: 4 << 20)
        let json = "[" + Fixtures.record(first: huge, index: 0) + "]"
        let ends = Self.pipeFeeding(Array(json.utf8), piecesOf: 1 << 16)
        let attempts = Counter()
        let loaded = try PeopleLoader(chunkSize: 4096) { _ in attempts.increment() }.stream(descriptor: ends[0], sourceName: "stdin")
        close(ends[0])
        #expect(loaded.store.count == 1)
        #expect(loaded.store[0].firstName.count == 4 << 20)
        // 4 KiB doubling to 8 MiB is 12 buffers; parsing after each 64 KiB read was 64 and more.
        #expect(attempts.value <= 16)
    }
}

/// Set once, from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    /// True for the first caller only.
    func set() -> Bool {
        lock.withLock {
            defer { isSet = true }
            return !isSet
        }
    }
}

/// Counts from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
