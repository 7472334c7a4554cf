import Foundation
import RosterSQL
import Testing
import TestTraits
import TestSupport

/// The summary table is input: figures another program wrote there that
/// cannot be right are one line naming the company and what to run, never
/// an arithmetic overflow; in both databases.
@Suite(.blockingWork) struct SummaryFiguresTests {
    static let json = Fixtures.array([
        Fixtures.record(first: "Ann", last: "Able", company: "Acme", email: "ann@example.test", index: 0),
        Fixtures.record(first: "Bob", last: "Bell", company: "Acme", email: "bob@example.test", index: 1),
        Fixtures.record(first: "Cy", last: "Cole", company: "Big", email: "cy@example.test", index: 2),
    ])

    /// Imports the three people, runs `update` on the summary, and opens the table again.
    private func opening(_ dialect: PeopleTable.Dialect, after update: String) throws -> DatabaseError? {
        let imported = try SQLRepositoryFixture.importing(json: Self.json, into: dialect)
        switch dialect {
        case .postgres: try PostgresConnection(imported.target).execute(update)
        case .sqlite: try SQLiteConnection(path: imported.target, access: .readWrite).execute(update)
        }
        return #expect(throws: DatabaseError.self) { try imported.open() }
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aHeadcountThatOverflowsTheSumIsOneLine(dialect: PeopleTable.Dialect) throws {
        let error = try opening(dialect, after: "UPDATE people_companies SET headcount = 9223372036854775807 WHERE spelling = 'Acme'")
        #expect(error?.message.contains("the company summary (table people_companies) holds figures that cannot be right") == true)
        #expect(error?.message.contains("the headcounts add up to more than 9223372036854775807") == true)
        #expect(error?.message.contains("import again to rebuild it: roster import FILE --into ") == true)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aNegativeHeadcountIsNamedWithItsCompany(dialect: PeopleTable.Dialect) throws {
        let error = try opening(dialect, after: "UPDATE people_companies SET headcount = -3 WHERE spelling = 'Big'")
        #expect(error?.message.contains(#"(company "Big": headcount -3)"#) == true)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func moreActivePeopleThanTheHeadcountIsRefused(dialect: PeopleTable.Dialect) throws {
        let error = try opening(dialect, after: "UPDATE people_companies SET active = 99 WHERE spelling = 'Big'")
        #expect(error?.message.contains(#"(company "Big": active 99 of a headcount of 1)"#) == true)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func anUntouchedSummaryOpens(dialect: PeopleTable.Dialect) throws {
        let imported = try SQLRepositoryFixture.importing(json: Self.json, into: dialect)
        #expect(try imported.open().personCount == 3)
    }
}
