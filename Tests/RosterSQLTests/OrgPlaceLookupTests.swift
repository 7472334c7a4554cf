import Foundation
import RosterCore
@testable import RosterSQL
import Testing
import TestTraits

/// The person's screen over a table asks the table for one person
/// (`SQLOrgPlaceLookup`) instead of reading everyone's chart: what it says
/// of each person must be what the chart says (manager, chain, why the
/// chain ends, direct reports, organisation), on both engines, through
/// ids, emails, names, a missing manager, an ambiguous one, a loop and a
/// self-reference.
@Suite(.blockingWork) struct OrgPlaceLookupTests {
    /// `OrgQueryTests`' people, and Wes, whose manager "Sam Smith" is two people.
    static let json = OrgQueryTests.json.replacingOccurrences(of: "}]", with: """
        },
         {"_id": "w", "name": {"first": "Wes", "last": "Ambig"}, "email": "w@example.org", "company": "ACME"}]
        """)
    static let managers = OrgQueryTests.managers + ["Sam Smith"]
    static let recordIDs = ["a", "g", "l", "t", "e", "s1", "s2", "x", "y", "z", "u", "w"]

    private func repository(_ dialect: PeopleTable.Dialect) throws -> SQLPeopleRepository {
        try ManagerColumnTests.importing(dialect, json: Self.json, managers: Self.managers).open()
    }

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func eachPlaceIsTheChartsPlace(dialect: PeopleTable.Dialect) throws {
        let repository = try repository(dialect)
        guard case .loaded(let chart) = SQLOrgChartReading(repository: repository).readChart(orderKeys: nil) else {
            Issue.record("no chart")
            return
        }
        let lookup = try #require(SQLOrgChartReading(repository: repository).placeLookup)
        for recordID in Self.recordIDs {
            let person = try #require(chart.people.person(recordID: recordID))
            let expected = OrgPlace(person: person, in: chart)
            var looked = try #require(try lookup.place(ofRecord: recordID), "\(recordID)")
            #expect(looked.isCountingOrganisation == (looked.reports > 0), "\(recordID)")
            if looked.isCountingOrganisation {
                looked.organisation = try lookup.organisationSize(ofRecord: recordID)
                looked.isCountingOrganisation = false
            }
            guard let counted = Self.sharedName[recordID] else {
                #expect(looked == expected, "\(recordID)")
                continue
            }
            // Wes is counted under Sam Smith, and above him (see `sharedName`).
            #expect(looked.chain == expected.chain && looked.manager == expected.manager, "\(recordID)")
            #expect(looked.reports == counted.reports && looked.organisation == counted.organisation, "\(recordID)")
        }
    }

    /// Who counts Wes where the chart does not. His manager "Sam Smith" is
    /// ambiguous to the chart (Wes is at the top), but the table finds
    /// reports on the manager column's index, and a name's being shared
    /// would cost a pass over the table to tell: each Sam has Wes for a
    /// report, as `reports-to:` and `under:` have him, and Alan and Ada one
    /// more under them. A reference by `_id` or email, the usual ones, has
    /// no such case.
    static let sharedName: [String: (reports: Int, organisation: Int?)] = [
        "s1": (1, 1), "s2": (1, 1), "t": (2, 3), "a": (2, 6),
    ]

    @Test(arguments: [PeopleTable.Dialect.postgres, .sqlite])
    func theProblemsAreNamed(dialect: PeopleTable.Dialect) throws {
        let lookup = SQLOrgPlaceLookup(repository: try repository(dialect))
        let place = { (id: String) throws in try #require(try lookup.place(ofRecord: id)) }
        // Linus → Grace (by email) → Ada (by id), the top.
        #expect(try place("l").chain.map(\.name) == ["Grace Hopper", "Ada Lovelace"])
        #expect(try place("l").manager == "Grace Hopper <grace@example.org>")
        #expect(try place("e").problem == "manager not here: \"nobody@example.org\"")
        #expect(try place("w").problem == "manager ambiguous: \"Sam Smith\" names 2 people")
        #expect(try place("u").problem == "own manager")
        #expect(try place("x").problem == "in a loop of managers")
        // Zoe's chain ends at Xavier, at the top for being in a loop.
        #expect(try place("z").chain.map(\.name) == ["Xavier Loop"])
        #expect(try place("z").chainProblem == "in a loop of managers")
        #expect(try place("a").directReports.map(\.name) == ["Alan Turing", "Grace Hopper"])
        #expect(try lookup.organisationSize(ofRecord: "g") == 1)
        #expect(try lookup.organisationSize(ofRecord: "x") == 1, "Zoe; not Yara, of Xavier's loop")
        // Past what is counted level by level, the chart counts it.
        #expect(try SQLOrgPlaceLookup(repository: lookup.repository, organisationCounted: 4).organisationSize(ofRecord: "a") == nil)
        #expect(try lookup.place(ofRecord: "nobody") == nil)
        #expect(try lookup.place(ofRecord: "") == nil)
    }
}
