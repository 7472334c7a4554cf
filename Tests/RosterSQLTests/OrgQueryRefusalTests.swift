import Foundation
import RosterCore
@testable import RosterSQL
import Testing
import TestTraits

/// A database keeps no org chart yet: `reports-to:`, `under:` and `depth`
/// are refused in one line, never answered with nobody.
@Suite(.blockingWork) struct OrgQueryRefusalTests {
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func orgChartTermsAreRefusedInOneLine(dialect: PeopleTable.Dialect) async throws {
        let database = try #require(SQLRepositoryTests.imported[dialect]).get().open()
        let everyone = database.arrange(sort: .byLastName, byCompany: true, company: nil)
        for text in ["under:a1", "reports-to:\"Ada Lovelace\" age>30", "-depth>2"] {
            await #expect(throws: RepositoryError.self) { try await database.search(SearchQuery(text), in: everyone, within: nil) }
            do {
                _ = try await database.search(SearchQuery(text), in: everyone, within: nil)
            } catch {
                #expect(error.reason.hasSuffix("is a database: reports-to:, under: and depth are answered for files only, for now"))
            }
        }
        // A plain search still answers.
        #expect(try await database.search(SearchQuery("age>30"), in: everyone, within: nil).count > 0)
    }
}
