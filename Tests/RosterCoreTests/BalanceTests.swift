import Testing
@testable import RosterCore

@Suite("Balance")
struct BalanceTests {
    @Test("parses the file's money text into exact cents", arguments: [
        ("$2,107.15", Int64(210_715)),
        ("$0.99", 99),
        ("$1,000", 100_000),
        ("-$1,234.50", -123_450),
        ("$-3.5", -350),
        ("1234.56", 123_456),
        (" $7 ", 700),
        ("$1,234,567.89", 123_456_789),
    ])
    func parses(text: String, cents: Int64) {
        #expect(Balance(text: text).cents == cents)
    }

    @Test("refuses text that is not an amount", arguments: [
        "", "$", "abc", "$1.234", "$1,,000", "$1,000,", "1-2", "$$1", "12 34", "$1.2.3",
    ])
    func refuses(text: String) {
        #expect(Balance(text: text).cents == nil)
    }

    @Test("formats cents in the file's style")
    func formats() {
        #expect(Balance.format(cents: 210_715) == "$2,107.15")
        #expect(Balance.format(cents: 5) == "$0.05")
        #expect(Balance.format(cents: -123_456_789) == "-$1,234,567.89")
    }
}
