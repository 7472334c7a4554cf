import TestServers
import Foundation
import RosterCore
@testable import RosterSQL
import RosterStore
import Testing
import TestTraits
import TestSupport

/// A query of as many terms as the parser allows (256) is answered by
/// both databases as the file source answers it, negated terms included,
/// inside the statement timeout (alone, about a second each; before the
/// search_text screen, negated terms ran past it). One more is the
/// parser's error, for every source alike (`QueryParserTests`).
@Suite(.blockingWork) struct ManyTermsTests {
    static let queries: [String] = [
        (0..<256).map { "-nobody\($0)" }.joined(separator: " "),
        ((0..<128).map { "-zz\($0)" } + (0..<64).map { _ in "example" } + (0..<32).map { "-company:q\($0)" }
            + (0..<31).map { "-city=x\($0)" } + ["-an"]).joined(separator: " "),
        ((0..<255).map { "-w\($0)" } + ["age>30"]).joined(separator: " "),
    ]

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func the256TermQueriesAnswerAsTheFileSource(dialect: PeopleTable.Dialect) async throws {
        let database = try #require(SQLRepositoryTests.imported[dialect]).get().open()
        let memory = try Fixtures.repository(json: SQLRepositoryTests.generatedJSON).repository
        let everyone = database.arrange(sort: .byLastName, byCompany: true, company: nil)
        let memoryEveryone = memory.arrange(sort: .byLastName, byCompany: true, company: nil)
        // Warm: the first search of a connection pays for its setup.
        _ = try await database.search(SearchQuery("-warm"), in: everyone, within: nil)
        for text in Self.queries {
            let query = SearchQuery(text)
            #expect(query.terms.count == 256)
            // No wall clock here (a shared machine can hold the test's own
            // thread for many seconds): the statement timeout bounds the
            // query on the server, and a query past it throws, failing the test.
            let found = try await database.search(query, in: everyone, within: nil)
            let rows = try await database.rows(in: found, positions: 0..<found.count).map(\.email)
            let expected = try await memory.search(query, in: memoryEveryone, within: nil)
            #expect(found.count == expected.count)
            let memoryRows = try await memory.rows(in: expected, positions: 0..<expected.count).map(\.email)
            #expect(rows == memoryRows)
            #expect(database.failure == nil)
        }
    }

    /// LLVM compiling a 256-term expression took minutes, deaf to the
    /// statement timeout: every connection Roster opens turns JIT off.
    @Test func postgresConnectionsRunWithoutJIT() throws {
        let server = try TestPostgres.server()
        let connection = try PostgresConnection(server.conninfo(database: server.makeDatabase()))
        #expect(try connection.execute("SHOW jit").first?.text(0) == "off")
        try connection.reset()
        #expect(try connection.execute("SHOW jit").first?.text(0) == "off")
    }
}
