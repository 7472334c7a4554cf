import Foundation
import Testing
@testable import RosterApp
import RosterCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 34, item 14: the passwords in Roster's own arguments are taken
/// out of the memory the kernel shows as its command line.
@Suite("Passwords out of the process's arguments")
struct ProcessArgumentsTests {
    static func masked(_ text: String) -> String {
        String(decoding: ProcessArguments.masked(Array(text.utf8)), as: UTF8.self)
    }

    @Test("a URI's password and a password= setting become ***; everything else stays")
    func masking() {
        #expect(Self.masked("postgres://ann:hunter22@db/hr") == "postgres://ann:***@db/hr")
        #expect(Self.masked("host=db password='a b\\' c' dbname=hr") == "host=db password=*** dbname=hr")
        #expect(Self.masked("postgresql://db/hr?sslmode=require&password=S3cret&user=ann") == "postgresql://db/hr?sslmode=require&password=***&user=ann")
        #expect(Self.masked("postgres://ann:x@db/hr") == "postgres://ann:*@db/hr", "never longer than the password")
        #expect(Self.masked("postgres://ann:@db/hr") == "postgres://ann:@db/hr")
        #expect(Self.masked("--list") == "--list")
        #expect(Self.masked("people.json") == "people.json")
    }

    @Test("a password= setting in any case, and one in a URI beside the URI's own")
    func settings() {
        #expect(SecretRedaction.passwordRanges(in: Array("PassWord = pw1 x".utf8)) == [11..<14])
        let both = "postgres://ann:pw@db/x?password=a:b@c"
        #expect(SecretRedaction.redact(both) == "postgres://ann:•••@db/x?password=•••")
    }

    /// `arguments` laid out as the kernel lays them (one block, each ended by a NUL), and `argv` into it.
    static func block(_ arguments: [String]) -> (UnsafeMutablePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, Int) {
        let bytes: [UInt8] = arguments.flatMap { Array($0.utf8) + [UInt8(0)] }
        let memory = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        for (index, byte) in bytes.enumerated() { memory[index] = CChar(bitPattern: byte) }
        let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: arguments.count + 1)
        var offset = 0
        for (index, argument) in arguments.enumerated() {
            argv[index] = memory + offset
            offset += argument.utf8.count + 1
        }
        argv[arguments.count] = nil
        return (memory, argv, bytes.count)
    }

    @Test("in one block (as the kernel lays them out): closed up, the pointers moved, the end zeroed")
    func oneBlock() {
        let arguments = ["roster", "postgres://ann:hunter22@db/hr", "--filter", "host=x password=pw9 y", "--list"]
        let (memory, argv, size) = Self.block(arguments)
        defer {
            memory.deallocate()
            argv.deallocate()
        }
        #expect(ProcessArguments.rewrite(argv, count: arguments.count))
        let shown = ["roster", "postgres://ann:***@db/hr", "--filter", "host=x password=*** y", "--list"]
        let expected: [UInt8] = shown.flatMap { Array($0.utf8) + [UInt8(0)] }
        let bytes = (0..<size).map { UInt8(bitPattern: memory[$0]) }
        #expect(Array(bytes.prefix(expected.count)) == expected)
        #expect(bytes.dropFirst(expected.count).allSatisfy { $0 == 0 }, "what is left is zeroed")
        #expect((0..<arguments.count).map { String(cString: argv[$0]!) } == shown)
        #expect(!ProcessArguments.rewrite(argv, count: arguments.count), "nothing left to hide")
    }

    @Test("apart: each masked where it stands, NULs after")
    func apart() {
        let arguments: [String] = ["roster", "postgres://ann:hunter22@db/hr"]
        let strings = arguments.map { argument in argument.withCString { strdup($0)! } }
        defer { strings.forEach { free($0) } }
        let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 3)
        defer { argv.deallocate() }
        argv[0] = strings[0]
        argv[1] = strings[1]
        argv[2] = nil
        #expect(ProcessArguments.rewrite(argv, count: 2))
        #expect(argv[1] == strings[1])
        #expect(String(cString: strings[1]) == "postgres://ann:***@db/hr")
        #expect((24..<29).allSatisfy { strings[1][$0] == 0 })
    }
}
