import Foundation
import RosterCore
@testable import RosterSQL
import Testing
import TestTraits

/// `reports-to:X` and `under:X` over a people table, answered in SQL
/// (`SQLOrgTerms`): X found by id, email or name as a file finds them,
/// nobody or two people said in a file's words, the terms combined with
/// others and negated, a loop ended; `depth` answered by the table's
/// chart; a table without the manager column refused in one line.
@Suite(.blockingWork) struct OrgQueryTests {
    /// Ada leads: Grace reports to her by id, Alan by name; Linus to Grace
    /// by email; Edsger names nobody here; the two Sam Smiths report to
    /// Alan; Xavier and Yara report to each other, Zoe to Xavier; Uma
    /// names herself.
    static let json = """
    [{"_id": "a", "name": {"first": "Ada", "last": "Lovelace"}, "email": "ada@example.org", "company": "ACME"},
     {"_id": "g", "name": {"first": "Grace", "last": "Hopper"}, "email": "grace@example.org", "company": "ACME"},
     {"_id": "l", "name": {"first": "Linus", "last": "Torvalds"}, "email": "Linus@Example.org", "company": "ACME"},
     {"_id": "t", "name": {"first": "Alan", "last": "Turing"}, "email": "alan@example.org", "company": "ACME"},
     {"_id": "e", "name": {"first": "Edsger", "last": "Dijkstra"}, "email": "ed@example.org", "company": "ACME"},
     {"_id": "s1", "name": {"first": "Sam", "last": "Smith"}, "email": "sam1@example.org", "company": "ACME"},
     {"_id": "s2", "name": {"first": "Sam", "last": "Smith"}, "email": "sam2@example.org", "company": "ACME"},
     {"_id": "x", "name": {"first": "Xavier", "last": "Loop"}, "email": "x@example.org", "company": "ACME"},
     {"_id": "y", "name": {"first": "Yara", "last": "Loop"}, "email": "y@example.org", "company": "ACME"},
     {"_id": "z", "name": {"first": "Zoe", "last": "Below"}, "email": "z@example.org", "company": "ACME"},
     {"_id": "u", "name": {"first": "Uma", "last": "Self"}, "email": "u@example.org", "company": "ACME"}]
    """
    static let managers: [String?] = [nil, "a", "grace@example.org", "Ada Lovelace", "nobody@example.org", "t", "alan@example.org", "y", "x", "x", "u"]

    private func repository(_ dialect: PeopleTable.Dialect) throws -> SQLPeopleRepository {
        try ManagerColumnTests.importing(dialect, json: Self.json, managers: Self.managers).open()
    }

    private func names(_ text: String, in repository: SQLPeopleRepository) async throws -> Set<String> {
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let found = try await repository.search(SearchQuery(text), in: everyone, within: nil)
        return Set(try await repository.rows(in: found, positions: 0..<found.count).map(\.name))
    }

    private func refusal(_ text: String, in repository: SQLPeopleRepository) async -> String? {
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        do {
            _ = try await repository.search(SearchQuery(text), in: everyone, within: nil)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func thePersonIsFoundByIdEmailOrName(dialect: PeopleTable.Dialect) async throws {
        let repository = try repository(dialect)
        for ada in ["a", "ada@example.org", "ADA@example.org", "\"Ada Lovelace\"", "\"ada  lovelace\""] {
            #expect(try await names("reports-to:\(ada)", in: repository) == ["Grace Hopper", "Alan Turing"], "\(ada)")
            #expect(try await names("under:\(ada)", in: repository)
                    == ["Grace Hopper", "Alan Turing", "Linus Torvalds", "Sam Smith"], "\(ada)")
        }
        // Linus's reference names Grace by email; Sam Smiths' name Alan by id and by email.
        #expect(try await names("reports-to:g", in: repository) == ["Linus Torvalds"])
        #expect(try await names("reports-to:\"Alan Turing\"", in: repository) == ["Sam Smith"])
        #expect(try await names("reports-to:l", in: repository).isEmpty)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func nobodyAndTwoPeopleAreSaidAsForAFile(dialect: PeopleTable.Dialect) async throws {
        let repository = try repository(dialect)
        #expect(await refusal("under:zed", in: repository) == "under:zed: nobody here has that _id, email, DN or name")
        #expect(await refusal("reports-to:\"Sam Smith\"", in: repository)
                == "reports-to:\"Sam Smith\": 2 people have that name; name one by _id or email")
        // An id beats a name that reads the same: s1 is one person.
        #expect(try await names("reports-to:s1", in: repository).isEmpty)
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func theTermsCombineWithOthersAndNegate(dialect: PeopleTable.Dialect) async throws {
        let repository = try repository(dialect)
        #expect(try await names("under:a turing", in: repository) == ["Alan Turing"])
        #expect(try await names("under:a -reports-to:a", in: repository) == ["Linus Torvalds", "Sam Smith"])
        #expect(try await names("-under:a", in: repository) == ["Ada Lovelace", "Edsger Dijkstra", "Xavier Loop", "Yara Loop", "Zoe Below", "Uma Self"])
        #expect(try await names("under:a email:sam2", in: repository) == ["Sam Smith"])
    }

    /// Xavier reports to Yara, who reports to Xavier: the recursion ends.
    /// Uma, who names herself, is not her own report.
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aLoopEnds(dialect: PeopleTable.Dialect) async throws {
        let repository = try repository(dialect)
        // As in a file's chart, each of a loop is at the top, under nobody; their other reports stay.
        #expect(try await names("under:x", in: repository) == ["Zoe Below"])
        #expect(try await names("under:y", in: repository).isEmpty)
        #expect(try await names("reports-to:x", in: repository) == ["Zoe Below"])
        #expect(try await names("reports-to:u", in: repository).isEmpty)
        #expect(try await names("under:u", in: repository).isEmpty)
    }

    /// Depths as a file's chart has them: the top people (Ada, Edsger whose
    /// manager is nobody here, Xavier and Yara of the loop, Uma who names
    /// herself) 0; Grace, Alan and Zoe 1; Linus and the Sams 2.
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func depths(dialect: PeopleTable.Dialect) async throws {
        let repository = try repository(dialect)
        #expect(try await names("depth=0", in: repository) == ["Ada Lovelace", "Edsger Dijkstra", "Xavier Loop", "Yara Loop", "Uma Self"])
        #expect(try await names("depth=1", in: repository) == ["Grace Hopper", "Alan Turing", "Zoe Below"])
        #expect(try await names("depth>1", in: repository) == ["Linus Torvalds", "Sam Smith"])
        #expect(try await names("depth>=1 -depth>1 loop", in: repository).isEmpty)
        #expect(try await names("-depth>0 loop", in: repository) == ["Xavier Loop", "Yara Loop"])
        #expect(try await names("depth>9", in: repository).isEmpty)
        #expect(try await names("depth<0", in: repository).isEmpty)
        // Its rows read page by page too (the browse connection has the set as well).
        let everyone = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
        let deep = try await repository.search(SearchQuery("depth>1"), in: everyone, within: nil)
        #expect(deep.count == 3)

        // Linus moved under Ada: the table read again answers from its own chart, not the kept set.
        try repository.setManager(of: "l", to: "a")
        let again = try repository.reread()
        #expect(try await names("depth>1", in: again) == ["Sam Smith"])
        #expect(try await names("depth=1", in: again) == ["Grace Hopper", "Alan Turing", "Zoe Below", "Linus Torvalds"])
    }

    /// A table an earlier Roster made has no manager column: said, not nobody.
    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func aTableWithoutTheManagerColumnSaysSo(dialect: PeopleTable.Dialect) async throws {
        let imported = try ManagerColumnTests.importing(dialect, json: Self.json, managers: Self.managers)
        let drop = ["DROP INDEX people_manager", "ALTER TABLE people DROP COLUMN manager"]
        switch dialect {
        case .postgres: for sql in drop { _ = try PostgresConnection(imported.target).execute(sql, []) }
        case .sqlite: for sql in drop { try SQLiteConnection(path: imported.target, access: .readWrite).execute(sql) }
        }
        let said = await refusal("under:a", in: try imported.open())
        #expect(said == "Table people has no manager column (an earlier Roster made it): "
                + "import the file again to fill it, or edit someone's manager.")
    }
}
