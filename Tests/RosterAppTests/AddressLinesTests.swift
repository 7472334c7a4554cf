import Testing
@testable import RosterApp

@Suite("roster query's lines")
struct AddressLinesTests {
    @Test("a value stays on its line and in its field: tabs and line ends are spaces, control and bidi characters go")
    func clean() {
        #expect(AddressLines.clean("Ada Lovelace") == "Ada Lovelace")
        #expect(AddressLines.clean("  Ada  Lovelace ") == "Ada Lovelace")
        #expect(AddressLines.clean("Ada\tKing\r\nLovelace") == "Ada King Lovelace")
        #expect(AddressLines.clean("Ev\u{202E}il\u{1B}[2J\u{7F}") == "Evil[2J")
        #expect(AddressLines.clean("佐藤 🚀\u{2028}Kent") == "佐藤 🚀 Kent")
        #expect(AddressLines.clean("\u{9B}31m") == "31m")
    }

    @Test("an email is one plain address, or the person is left out")
    func plainAddress() {
        for good in ["ada@acme.test", "a.b+c@x.io", "jösé@bücher.de"] { #expect(AddressLines.isPlainAddress(good), "\(good)") }
        for bad in ["", "ada", "@acme.test", "ada@", "a@b@c", "ada@acme.test, boss@evil.test", "Ada <ada@acme.test>", "ada @acme.test",
                    "\"a\"@b", "a;b@c", "(x)a@b"] {
            #expect(!AddressLines.isPlainAddress(bad), "\(bad)")
        }
    }
}
