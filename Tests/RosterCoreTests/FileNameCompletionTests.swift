import Testing
@testable import RosterCore

@Suite("File name completion")
struct FileNameCompletionTests {
    static let folders = ["": ["people.csv", "people.json", "reports/", ".hidden"], "reports/": ["q1.csv"]]
    static func complete(_ text: String) -> FileNameCompletion {
        FileNameCompletion.complete(text) { folders[$0] ?? [] }
    }

    @Test("as a shell: a lone match whole (a folder with its /), several as far as they agree, else the list")
    func completes() {
        #expect(Self.complete("r") == .completed("reports/"))
        #expect(Self.complete("reports/") == .completed("reports/q1.csv"))
        #expect(Self.complete("p") == .completed("people."))
        #expect(Self.complete("people.") == .listed(["people.csv", "people.json"]))
        #expect(Self.complete("x") == .none)
        #expect(Self.complete("nowhere/x") == .none)
    }

    @Test("hidden names only when the name starts with a dot")
    func hidden() {
        #expect(Self.complete("") == .listed(["people.csv", "people.json", "reports/"]))
        #expect(Self.complete(".") == .completed(".hidden"))
    }
}
