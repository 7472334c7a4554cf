import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

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
        "$3,9", "3,99", "39,99", "1,0000", "$1234,567", "$1,23.50", "$,1",
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

@Suite("Money beyond 64 bits")
struct MoneyOverflowTests {
    @Test("amounts: the largest kept, one cent more is too large, text that is no amount")
    func amounts() {
        #expect(Balance.amount(fromUTF8: Array("$92,233,720,368,547,758.06".utf8)) == .cents(Int64.max - 1))
        #expect(Balance.amount(fromUTF8: Array("-$92,233,720,368,547,758.06".utf8)) == .cents(-(Int64.max - 1)))
        #expect(Balance.amount(fromUTF8: Array("$92,233,720,368,547,758.07".utf8)) == .tooLarge)
        #expect(Balance.amount(fromUTF8: Array("$1,000,000,000,000,000,000,000,000".utf8)) == .tooLarge)
        #expect(Balance.amount(fromUTF8: Array("$1,000,000,000,000,000,000,000,000x".utf8)) == .notAnAmount)
    }

    @Test("averages round half away from zero", arguments: [
        (Int128(2_440_545), 1_000, Int128(2_441)), (Int128(2_440_545), 10, Int128(244_055)), (Int128(5), 2, Int128(3)), (Int128(-5), 2, Int128(-3)),
        (Int128(4), 3, Int128(1)), (Int128(-4), 3, Int128(-1)), (Int128(7), 1, Int128(7)),
    ])
    func rounding(total: Int128, count: Int, average: Int128) {
        #expect(Balance.average(of: total, count: count) == average)
    }

    @Test("two balances near the 64-bit limit add up exactly in the overview")
    func exactSums() throws {
        let big = "$92,233,720,368,547,756.99"
        let directory = try Fixtures.directory(json: Fixtures.array([
            Fixtures.record(first: "A", last: "One", company: "Huge", balance: big, index: 0),
            Fixtures.record(first: "B", last: "Two", company: "Huge", balance: big, index: 1),
            Fixtures.record(first: "C", last: "Three", company: "Owed", balance: "-" + big, index: 2),
            Fixtures.record(first: "D", last: "Four", company: "Owed", balance: "-" + big, index: 3),
            Fixtures.record(first: "E", last: "Five", company: "Owed", balance: "$1,000,000,000,000,000,000,000.00", index: 4),
        ]))
        #expect(directory.skipped.map(\.reason) == ["'balance' is too large (beyond ±$92,233,720,368,547,758.06)"])
        let summaries = CompanySummary.all(in: directory.store, grouped: GroupedPeople(store: directory.store))
        let huge = try #require(summaries.first { $0.title == "Huge" })
        #expect(huge.totalCents == Int128(9_223_372_036_854_775_699) * 2)
        #expect(Balance.format(cents: huge.totalCents) == "$184,467,440,737,095,513.98")
        #expect(Balance.format(cents: try #require(huge.averageCents)) == big)
        let owed = try #require(summaries.first { $0.title == "Owed" })
        #expect(Balance.format(cents: owed.totalCents) == "-$184,467,440,737,095,513.98")
    }
}
