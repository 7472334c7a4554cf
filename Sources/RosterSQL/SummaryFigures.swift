/// The summary table's figures, checked before anything adds them up.
///
/// A database is input like any file: another program (or a person with
/// `psql`) can have written a headcount of -3 or of 2^63 - 1 into the
/// summary. Every figure must be one a Roster import could have written:
/// none negative, active people, balances and ages no more than the
/// headcount, a balance total no larger than that many balances of the
/// largest amount, and the headcounts and age sums adding up without
/// overflowing. A row that fails names its company and the figure.
enum SummaryFigures {
    /// The first figure among `totals` that cannot be right, in words, or
    /// nil when every one can.
    static func problem(in totals: [CompanyTotals]) -> String? {
        var people: Int64 = 0
        var ageSum: Int64 = 0
        for company in totals {
            if let problem = problem(in: company) { return "\(name(company)): \(problem)" }
            let (morePeople, peopleOverflow) = people.addingReportingOverflow(company.headcount)
            let (moreAges, agesOverflow) = ageSum.addingReportingOverflow(company.ageSum)
            if peopleOverflow { return "the headcounts add up to more than \(Int64.max)" }
            if agesOverflow { return "the age sums add up to more than \(Int64.max)" }
            (people, ageSum) = (morePeople, moreAges)
        }
        return nil
    }

    private static func problem(in company: CompanyTotals) -> String? {
        let counts: [(String, Int64)] = [("headcount", company.headcount), ("active", company.active),
                                         ("balances", company.balances), ("ages", company.ages)]
        if let negative = counts.first(where: { $0.1 < 0 }) { return "\(negative.0) \(negative.1)" }
        if let larger = counts.dropFirst().first(where: { $0.1 > company.headcount }) {
            return "\(larger.0) \(larger.1) of a headcount of \(company.headcount)"
        }
        if company.ageSum < 0 { return "age sum \(company.ageSum)" }
        let largest = Int128(company.balances) * Int128(Int64.max)
        if company.totalCents > largest || company.totalCents < -largest {
            return "total \(company.totalCents) cents over \(company.balances) balances"
        }
        return nil
    }

    private static func name(_ company: CompanyTotals) -> String {
        company.companyKey == ImportRows.noCompanyKey ? "the row of people with no company" : "company \"\(company.spelling.prefix(40))\""
    }
}
