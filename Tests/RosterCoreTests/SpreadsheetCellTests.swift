import Testing
@testable import RosterCore

/// CSV cells that a spreadsheet would run get a `'`; phone numbers and
/// amounts, which cannot run anything, are written as they are.
@Suite("Spreadsheet cells")
struct SpreadsheetCellTests {
    static let exporter = DirectoryExporter(format: .csv)

    @Test("phone numbers, numbers and money amounts (negative too) stay as they are",
          arguments: ["+1 (575) 919-9368", "+44 20 7946 0958", "+1.575.919.9368", "-$2,989.99", "-$5.00", "-12", "-12.5", "+3",
                      "-1,234,567.00", "+€10.50", "-£3", "(575) 919-9368"])
    func inert(cell: String) {
        #expect(Self.exporter.csvText(cell) == cell)
    }

    @Test("text that would run still gets the '",
          arguments: ["=1+1", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "-2-3", "+1 (575) 919-9368 x", "+1 (575) (919) 9368",
                      "-$2,98.99", "-$", "-", "+", "-1.", "-1,2345", "=HYPERLINK(\"http://evil\")", "\tTab", "\rCR", "-(2)",
                      "-0x1F", "+1e5", "-1 234"])
    func neutralised(cell: String) {
        #expect(Self.exporter.csvText(cell) == "'" + cell)
    }

    @Test("quotes before a phone number get one more, so reading back (which takes one off) gives the text as it was")
    func quotedPhoneRoundTrips() {
        #expect(Self.exporter.csvText("'+1 (575) 919-9368") == "''+1 (575) 919-9368")
        #expect(Self.exporter.csvText("Ann") == "Ann")
    }
}
