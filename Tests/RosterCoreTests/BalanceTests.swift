import Foundation
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

/// The overview words its figures straight into bytes; these hold the
/// words to the plain way of writing them (and to printf), edges and all.
@Suite("Figures worded without intermediate strings")
struct FigureWordingTests {
    /// The plain spelling: digits from `String`, a comma before every group of three.
    static func plainGrouping(_ digits: String) -> String {
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    static let edges: [Int64] = [0, 1, 9, 10, 99, 100, 101, 999, 1_000, 99_999, 100_000, 123_456_789, Int64.max, Int64.max - 1, Int64.min + 1, Int64.min]

    @Test("counts: thousands separators, a sign before them")
    func counts() {
        var generator = SystemRandomNumberGenerator()
        var values: [Int] = Self.edges.map { Int($0) }
        values += Self.edges.filter { $0 != .min }.map { -Int($0) }
        for _ in 0..<2_000 {
            values.append(Int.random(in: .min ... .max, using: &generator) >> Int.random(in: 0..<63, using: &generator))
        }
        for value in values {
            let expected = (value < 0 ? "-" : "") + Self.plainGrouping(String(value.magnitude))
            #expect(NumberText.grouped(value) == expected, "\(value)")
        }
    }

    @Test("money: 64-bit amounts and 128-bit sums alike")
    func money() {
        var generator = SystemRandomNumberGenerator()
        var values: [Int128] = Self.edges.map { Int128($0) }
        values += Self.edges.map { -Int128($0) }
        values += [Int128(Int64.max) + 1, Int128(Int64.min) - 1, Int128(Int64.max) * 1_000]
        for _ in 0..<2_000 {
            values.append(Int128(Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0..<63, using: &generator)))
        }
        for cents in values {
            let magnitude = cents.magnitude
            let fraction = magnitude % 100
            let expected = "\(cents < 0 ? "-" : "")$\(Self.plainGrouping(String(magnitude / 100))).\(fraction < 10 ? "0" : "")\(fraction)"
            #expect(Balance.format(cents: cents) == expected, "\(cents)")
        }
    }

    @Test("ages to one decimal agree with printf, ties and signs included")
    func tenths() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = stride(from: -2.0, through: 100.0, by: 0.05).map { $0 }
        values += [0, -0.0, 0.04, -0.04, 0.25, 0.35, 0.45, 20.25, 99.95, 1e14, 123_456.75]
        for _ in 0..<5_000 { values.append(Double.random(in: 0..<120, using: &generator)) }
        // Averages of a few whole ages, as the overview's are: ties by the
        // thousand (30.25 exact, 30.15 not), and their neighbours.
        for count in 1...40 {
            for sum in stride(from: 0, through: 4_000, by: 7) {
                let average = Double(sum) / Double(count)
                values += [average, average.nextUp, average.nextDown, -average]
            }
        }
        for value in values {
            #expect(NumberText.tenths(value) == String(format: "%.1f", value), "\(value)")
        }
    }
}
