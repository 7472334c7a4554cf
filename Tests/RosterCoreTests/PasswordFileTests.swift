import Foundation
import RosterCore
import Testing

/// `--password-file FILE`: the user's own file, readable by them alone;
/// its bytes less one line ending; refusals name the file, never its text.
@Suite struct PasswordFileTests {
    private let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("password-file-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func file(_ name: String, _ bytes: [UInt8], mode: Int = 0o600) throws -> String {
        let path = folder + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: mode]))
        return path
    }

    @Test func theFilesBytesLessOneLineEndingAreThePassword() throws {
        #expect(try PasswordFile.read(try file("plain", Array("s3cret".utf8))) == Array("s3cret".utf8))
        #expect(try PasswordFile.read(try file("newline", Array("s3cret\n".utf8))) == Array("s3cret".utf8))
        #expect(try PasswordFile.read(try file("crlf", Array("s3cret\r\n".utf8))) == Array("s3cret".utf8))
        #expect(try PasswordFile.read(try file("two", Array("s3cret\n\n".utf8))) == Array("s3cret\n".utf8))
        #expect(try PasswordFile.read(try file("cr", Array("s3cret\r".utf8))) == Array("s3cret\r".utf8))
        #expect(try PasswordFile.read(try file("readonly", [0xFF, 0x00, 0x41], mode: 0o400)) == [0xFF, 0x00, 0x41])
    }

    @Test func aFileOthersCanReadOrWriteIsRefusedWithTheFix() throws {
        let path = try file("open", Array("s3cret".utf8), mode: 0o644)
        let error = #expect(throws: PasswordFile.Problem.self) { try PasswordFile.read(path) }
        #expect(error?.message == "\(path): others can read or change the password file (mode 0644): chmod 600 \(path)")
        #expect(throws: PasswordFile.Problem.self) { try PasswordFile.read(try file("group", Array("s3cret".utf8), mode: 0o620)) }
    }

    @Test func whatIsNotAPasswordFileIsRefusedWithoutWaiting() throws {
        #expect((#expect(throws: PasswordFile.Problem.self) { try PasswordFile.read(folder) })?.message
                == "\(folder): the password file is not a regular file")
        let fifo = folder + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: PasswordFile.Problem.self) { try PasswordFile.read(fifo) }
        #expect((#expect(throws: PasswordFile.Problem.self) { try PasswordFile.read(folder + "/missing") })?.message
                == "\(folder)/missing: cannot read the password file (no such file or directory)")
        #expect((#expect(throws: PasswordFile.Problem.self) { try PasswordFile.read(try file("empty", Array("\n".utf8))) })?.message
                == "\(folder)/empty: the password file is empty")
        #expect(throws: PasswordFile.Problem.self) { try PasswordFile.read(try file("long", [UInt8](repeating: 0x41, count: 5000))) }
    }

    @Test func anotherUsersFileIsRefused() throws {
        let path = try file("theirs", Array("s3cret".utf8))
        // Only root can give a file away; elsewhere the file is ours.
        guard geteuid() == 0 else { return }
        #expect(chown(path, 65534, 65534) == 0)
        #expect((#expect(throws: PasswordFile.Problem.self) { try PasswordFile.read(path) })?.message
                == "\(path): the password file belongs to another user")
    }
}
