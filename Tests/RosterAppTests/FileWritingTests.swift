import Foundation
import Testing
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
    func permissions() throws {
        defer { cleanUp() }
        let writer = FileExportWriter()
        let path = folder + "/contacts.csv"
        let mask = umask(0o022)
        defer { umask(mask) }
        #expect(writer.write("one", to: path, replacing: false) == nil)
        #expect(Self.mode(path) & 0o7777 == 0o644)
        chmod(path, 0o600)
        #expect(writer.write("two", to: path, replacing: true) == nil)
        #expect(Self.mode(path) & 0o7777 == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["contacts.csv"])
    }

    @Test("a FIFO, a directory or a link to a device is never replaced, even after a yes")
    func specialFiles() throws {
        defer { cleanUp() }
        let writer = FileExportWriter()
        let fifo = folder + "/pipe.csv"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(writer.write("x", to: fifo, replacing: true) == "could not write \(fifo) (it is a FIFO (named pipe), not a regular file)")
        #expect(Self.mode(fifo) & S_IFMT == S_IFIFO)
        let link = folder + "/null.csv"
        #expect(symlink("/dev/null", link) == 0)
        #expect(writer.write("x", to: link, replacing: true) == "could not write \(link) (it is a character device, not a regular file)")
        #expect(Self.mode(link) & S_IFMT == S_IFLNK)
        #expect(Self.mode("/dev/null") & S_IFMT == S_IFCHR)
        #expect(writer.write("x", to: folder, replacing: true) == "could not write \(folder) (it is a directory, not a regular file)")
    }

    @Test("a broken symbolic link says what it is; a link to a regular file replaces that file")
    func symbolicLinks() throws {
        defer { cleanUp() }
        let writer = FileExportWriter()
        let dangling = folder + "/gone.csv"
        #expect(symlink(folder + "/nowhere", dangling) == 0)
        #expect(writer.write("x", to: dangling, replacing: false) == "could not write \(dangling) (it is a broken symbolic link)")
        #expect(writer.write("x", to: dangling, replacing: true) == "could not write \(dangling) (it is a broken symbolic link)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/nowhere"))
        let real = folder + "/real.csv"
        try Data("old".utf8).write(to: URL(fileURLWithPath: real))
        chmod(real, 0o640)
        let link = folder + "/link.csv"
        #expect(symlink(real, link) == 0)
        #expect(writer.write("new", to: link, replacing: true) == nil)
        #expect(Self.mode(link) & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "new")
        #expect(Self.mode(real) & 0o7777 == 0o640)
    }
}

extension FileExportWriter {
    /// Streams `text` to `path`, as an export would.
    func write(_ text: String, to path: String, replacing: Bool) -> String? {
        write(to: path, replacing: replacing) { $0.append(text) }
    }
}
