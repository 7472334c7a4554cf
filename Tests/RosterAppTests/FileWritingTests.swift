import Foundation
import Testing
import RosterCore
import TestSupport
@testable import RosterApp

/// Writing exports (and the state file) to real paths: only a regular file
/// is ever replaced, and it keeps its permissions.
@MainActor
@Suite("Writing files")
struct FileWritingTests {
    let folder = NSTemporaryDirectory() + "roster-write-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        lstat(path, &status)
        return status.st_mode
    }

    @Test("a new file gets the umask's mode; replacing keeps the old file's permission bits")
    func permissions() async throws {
        defer { cleanUp() }
        let writer = FileExportWriter()
        let path = folder + "/contacts.csv"
        let mask = umask(0o022)
        defer { umask(mask) }
        #expect(await writer.write("one", to: path, replacing: false) == nil)
        #expect(Self.mode(path) & 0o7777 == 0o644)
        chmod(path, 0o600)
        #expect(await writer.write("two", to: path, replacing: true) == nil)
        #expect(Self.mode(path) & 0o7777 == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["contacts.csv"])
    }

    @Test("a FIFO, a directory or a link to a device is never replaced, even after a yes")
    func specialFiles() async throws {
        defer { cleanUp() }
        let writer = FileExportWriter()
        let fifo = folder + "/pipe.csv"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(await writer.write("x", to: fifo, replacing: true) == "could not write \(fifo) (it is a FIFO (named pipe), not a regular file)")
        #expect(Self.mode(fifo) & S_IFMT == S_IFIFO)
        let link = folder + "/null.csv"
        #expect(symlink("/dev/null", link) == 0)
        #expect(await writer.write("x", to: link, replacing: true) == "could not write \(link) (it is a character device, not a regular file)")
        #expect(Self.mode(link) & S_IFMT == S_IFLNK)
        #expect(Self.mode("/dev/null") & S_IFMT == S_IFCHR)
        #expect(await writer.write("x", to: folder, replacing: true) == "could not write \(folder) (it is a directory, not a regular file)")
    }

    @Test("a broken symbolic link says what it is; a link to a regular file replaces that file")
    func symbolicLinks() async throws {
        defer { cleanUp() }
        let writer = FileExportWriter()
        let dangling = folder + "/gone.csv"
        #expect(symlink(folder + "/nowhere", dangling) == 0)
        #expect(await writer.write("x", to: dangling, replacing: false) == "could not write \(dangling) (it is a broken symbolic link)")
        #expect(await writer.write("x", to: dangling, replacing: true) == "could not write \(dangling) (it is a broken symbolic link)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/nowhere"))
        let real = folder + "/real.csv"
        try Data("old".utf8).write(to: URL(fileURLWithPath: real))
        chmod(real, 0o640)
        let link = folder + "/link.csv"
        #expect(symlink(real, link) == 0)
        #expect(await writer.write("new", to: link, replacing: true) == nil)
        #expect(Self.mode(link) & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "new")
        #expect(Self.mode(real) & 0o7777 == 0o640)
    }
}

extension FileExportWriter {
    /// Streams `text` to `path`, as an export would.
    func write(_ text: String, to path: String, replacing: Bool) async -> String? {
        await write(to: path, replacing: replacing) { output -> String? in
            output.append(text)
            return nil
        }
    }
}

/// A source that stops giving people after its first `windows` windows,
/// as a database that went away part way through an export.
final class ShortReadRepository: DelegatingRepository {
    let base: any PeopleRepository
    private let windowsLeft: Locked<Int>

    init(_ base: any PeopleRepository, windows: Int) {
        self.base = base
        windowsLeft = Locked(windows)
    }

    func people(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError) -> [Person] {
        let allowed = windowsLeft.withLock { left in
            defer { left -= 1 }
            return left > 0
        }
        guard allowed else { throw RepositoryError(.connectionLost, reason: "connection lost") }
        return try await base.people(in: arrangement, positions: positions)
    }
}

@MainActor
@Suite("Exports that could not read everyone")
struct IncompleteExportTests {
    let folder = NSTemporaryDirectory() + "roster-incomplete-\(UUID().uuidString)"

    @Test("a source that fails part way: the export says how many were not read and the old file keeps its bytes; a new name is never made")
    func incompleteExportLeavesTheTarget() async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // More than one window (4,096 people) of export.
        let json = "[" + (0..<5000).map { #"{"name":{"first":"P\#($0)","last":"Q"},"company":"C\#($0 % 7)"}"# }.joined(separator: ",") + "]"
        let (memory, _) = try Fixtures.repository(json: json, name: "big.json")
        let repository = ShortReadRepository(memory, windows: 1)
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let writer = FileExportWriter()
        let old = folder + "/people.csv"
        try "the earlier export".write(toFile: old, atomically: false, encoding: .utf8)
        let exporter = DirectoryExporter(format: .csv)
        let failure = await writer.write(to: old, replacing: true) { output -> String? in
            let unread = await exporter.write(everyone, of: repository, to: &output)
            return unread == 0 ? nil : "\(unread) not read"
        }
        #expect(failure == "could not write \(old) (904 not read); it was left as it was")
        #expect(try String(contentsOfFile: old, encoding: .utf8) == "the earlier export")
        let new = folder + "/new.csv"
        let newFailure = await writer.write(to: new, replacing: false) { output -> String? in
            await exporter.write(everyone, of: ShortReadRepository(memory, windows: 0), to: &output) == 0 ? nil : "none read"
        }
        #expect(newFailure == "could not write \(new) (none read)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["people.csv"], "no temporary file left behind")
    }

    @Test("quitting while an export is written removes its temporary file and names the target; the target keeps its bytes")
    func unfinishedWriteRemovedAtExit() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let old = folder + "/people.csv"
        try "the earlier export".write(toFile: old, atomically: false, encoding: .utf8)
        nonisolated(unsafe) var named: [String] = []
        nonisolated(unsafe) var inFolder: [String] = []
        let failure = Platform.writeFile(to: old, replacing: true) { descriptor in
            _ = "half of the new".withCString { write(descriptor, $0, strlen($0)) }
            inFolder = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            named = Platform.removeUnfinishedWrites()  // the app ends here
            return true
        }
        #expect(inFolder.count == 2, "the temporary file was there while written")
        #expect(named == [old])
        #expect(failure != nil, "the write could not be put in place")
        #expect(try String(contentsOfFile: old, encoding: .utf8) == "the earlier export")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["people.csv"], "no temporary file left behind")
        #expect(Platform.removeUnfinishedWrites().isEmpty, "a finished write is no longer listed")
    }
}

/// `v`'s edit file, read back once the editor quits.
@Suite("The edit file read back")
struct EditFileReadBackTests {
    @Test("its bytes as they are (not UTF-8 too); a deleted file says so, not a question about the encoding")
    func readBack() throws {
        let path = NSTemporaryDirectory() + "roster-edit-test-\(UUID().uuidString).json"
        defer { unlink(path) }
        try Data([0x7B, 0xFF, 0x7D]).write(to: URL(fileURLWithPath: path))
        #expect(try ExternalEditor.readBack(path).get() == [0x7B, 0xFF, 0x7D])
        unlink(path)
        #expect(ExternalEditor.readBack(path) == .failure(EditFailure(.failed, "the edit file was deleted; nothing saved")))
    }
}
