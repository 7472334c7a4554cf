import Foundation
import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

@Suite("Plain list output")
struct PlainListWriterTests {
    static func render(_ json: String, isTerminal: Bool) async throws -> String {
        let directory = try Fixtures.directory(json: json)
        let path = NSTemporaryDirectory() + "roster-list-\(UUID().uuidString)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(await PlainListWriter(isTerminal: isTerminal).write(directory.everyone, of: directory.repository, to: descriptor))
        close(descriptor)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("a header per company with its count, a tab-separated line per person")
    func seed() async throws {
        let text = try await Self.render(Fixtures.seedJSON, isTerminal: false)
        #expect(text == """
        COMSTAR (3 people)
          Bertha Irwin\tbertha.irwin@comstar.net\t$2,107.15
          Cohen James\tcohen.james@comvene.name\t$3,334.51
          Vanessa Sanchez\tvanessa.sanchez@magmina.biz\t$2,046.56
        PERMADYNE (1 person)
          Zamora Weber\tzamora.weber@permadyne.co.uk\t$2,259.39
        RECRISYS (2 people)
          Norton Curtis\tnorton.curtis@recrisys.tv\t$1,194.79
          Barnes Pickett\tbarnes.pickett@RECRISYS.info\t$3,019.42

        """)
    }

    @Test("control characters are shown harmlessly on a terminal and never break a line in a pipe")
    func controlCharacters() async throws {
        let json = Fixtures.array([Fixtures.record(first: "Evil\u{1B}]0;pwned\u{07}", last: "Line\nBreak", company: "C\u{9B}O")])
        let terminal = try await Self.render(json, isTerminal: true)
        #expect(!terminal.contains("\u{1B}"))
        #expect(terminal.contains("Evil␛]0;pwned␇ Line␊Break"))
        #expect(terminal.hasPrefix("C?O (1 person)"))
        let piped = try await Self.render(json, isTerminal: false)
        #expect(piped.split(separator: "\n").count == 2)
        #expect(piped.contains("Line Break"))
    }

    @Test("into a pipe only people's lines hold a tab (a company's tab becomes a space), so `cut -s -f2` prints just the emails")
    func cutExample() async throws {
        let json = Fixtures.array([Fixtures.record(company: "Tab\tCo", email: "ada@tab.test"),
                                   Fixtures.record(first: "Bob", company: "ACME", email: "bob@acme.test", index: 1)])
        let piped = try await Self.render(json, isTerminal: false)
        let cut = piped.split(separator: "\n").filter { $0.contains("\t") }.map { $0.split(separator: "\t", omittingEmptySubsequences: false)[1] }
        #expect(cut == ["bob@acme.test", "ada@tab.test"])
        #expect(piped.contains("Tab Co (1 person)"))
    }
}
