import Foundation
import RosterCore

/// A hand-written repository for presenter tests: a few people in an
/// array, every answer worked out the plain way (sort the array, filter it
/// with `PeopleQuery.matches`), and a record of the calls made, so a test
/// can pin how a presenter uses the protocol.
///
/// It passes `RepositoryContract` like the real repositories, so it cannot
/// drift from them.
public final class FakePeopleRepository: PeopleRepository, ReadingAtOnce {
    /// A call a presenter made (reading the counts and names is not recorded).
    public enum Call: Equatable, Sendable {
        case arrange(RosterCore.SortOrder, byCompany: Bool, company: Int?)
        /// The query, and the query of the earlier result it may search within.
        case search(String, within: String?)
        case reapply(query: String?)
        case rows(Range<Int>)
        case people(Range<Int>)
        case person(PersonID)
        case position(of: PersonID)
        case personID(recordID: String)
        /// Summaries for an arrangement of `count` people.
        case companySummaries(count: Int)
        /// Counts by `field` for an arrangement of `count` people.
        case valueSummaries(SummaryField, count: Int)
    }

    public let sourceName: String
    public let skippedRecords: [SkippedRecord]
    public let companies: [Company]
    /// Everyone, in file order: a person's id is their index here.
    private let filed: [Person]
    private let companyOfPerson: [Int]
    /// Company ids by folded name, "No company" last.
    private let rankedCompanies: [Int]
    private let log = Locked<[Call]>([])
    /// False plays a database: the list reads rows off the main actor.
    private let answersAtOnce: Bool
    public var atOnce: (any ReadingAtOnce)? { answersAtOnce ? self : nil }

    public init(people: [Person], skipped: [SkippedRecord] = [], sourceName: String = "fake.json", readsAtOnce: Bool = true) {
        answersAtOnce = readsAtOnce
        var companies: [Company] = []
        var companyOfPerson: [Int] = []
        for person in people {
            let name = person.company.trimmingCharacters(in: .whitespacesAndNewlines)
            let key = TextFolding.foldedBytes(name)
            let id = companies.firstIndex { $0.key == key } ?? companies.count
            if id == companies.count { companies.append(Company(name: key.isEmpty ? "" : name, key: key, headcount: 0)) }
            companies[id].headcount += 1
            companyOfPerson.append(id)
        }
        filed = people
        self.companies = companies
        self.companyOfPerson = companyOfPerson
        rankedCompanies = companies.indices.sorted { left, right in
            let (a, b) = (companies[left].key, companies[right].key)
            if a.isEmpty != b.isEmpty { return b.isEmpty }
            return a.lexicographicallyPrecedes(b)
        }
        skippedRecords = skipped
        self.sourceName = sourceName
    }

    /// The people of a JSON array, read by the app's own loader.
    public convenience init(json: String, sourceName: String = "fake.json") throws {
        let directory = try Fixtures.directory(json: json, name: sourceName)
        let store = directory.store
        self.init(people: (0..<store.count).map { store[$0] }, skipped: directory.skipped, sourceName: sourceName)
    }

    /// The six people of the fixture in file order, as a source that may
    /// wait (a database named "db"): a list reads its rows off the main actor.
    public static func seedThatMayWait() throws -> FakePeopleRepository {
        let file = try FakePeopleRepository(json: Fixtures.seedJSON, sourceName: "db")
        return FakePeopleRepository(people: (0..<file.personCount).compactMap { file.personAtOnce(PersonID($0)) }, sourceName: "db",
                                    readsAtOnce: false)
    }

    /// The calls made so far, oldest first.
    public var calls: [Call] { log.withLock { $0 } }

    public func forgetCalls() {
        log.withLock { $0.removeAll() }
    }

    private func record(_ call: Call) {
        log.withLock { $0.append(call) }
    }

    public var personCount: Int { filed.count }

    /// Everyone, the list's first way: by company, then last name.
    public var everyone: PeopleArrangement { arrange(sort: .byLastName, byCompany: true, company: nil) }

    // MARK: Arrangements

    /// An arrangement's people, as indices into `filed`, in display order.
    struct Handle: Sendable {
        let order: [Int]
    }

    private func order(of arrangement: PeopleArrangement) -> [Int] {
        guard let handle = arrangement.handle as? Handle else { preconditionFailure("an arrangement made by another repository") }
        return handle.order
    }

    public func arrange(sort: RosterCore.SortOrder, byCompany: Bool, company: Int?) -> PeopleArrangement {
        record(.arrange(sort, byCompany: byCompany, company: company))
        let members = filed.indices.filter { company == nil || companyOfPerson[$0] == company }
        let sorted = members.sorted { precedes($0, $1, in: sort) }
        return layOut(sorted, sort: sort, byCompany: byCompany, company: company, query: nil, totals: nil)
    }

    public func search(_ query: SearchQuery, in arrangement: PeopleArrangement, within earlier: PeopleArrangement?) async throws(RepositoryError)
        -> PeopleArrangement {
        record(.search(query.text, within: earlier?.query?.text))
        if Task.isCancelled { throw .cancelled }
        guard !query.isEmpty else { return arrangement }
        let matches = order(of: arrangement).filter { query.query.matches(filed[$0]) }
        return layOut(matches, sort: arrangement.sort, byCompany: arrangement.byCompany, company: arrangement.company,
                      query: query, totals: arrangement)
    }

    public func reapply(_ filtered: PeopleArrangement, to arrangement: PeopleArrangement) -> PeopleArrangement {
        record(.reapply(query: filtered.query?.text))
        guard let query = filtered.query else { return arrangement }
        let kept = Set(order(of: filtered))
        return layOut(order(of: arrangement).filter(kept.contains), sort: arrangement.sort, byCompany: arrangement.byCompany,
                      company: arrangement.company, query: query, totals: arrangement)
    }

    /// Sections over `sorted` (already in the order's sequence): a run per
    /// company in company order, or one section of everyone. A search's
    /// sections keep the headcounts of `totals`'s sections.
    private func layOut(_ sorted: [Int], sort: RosterCore.SortOrder, byCompany: Bool, company: Int?, query: SearchQuery?,
                        totals: PeopleArrangement?) -> PeopleArrangement {
        var order: [Int] = []
        var sections: [CompanySection] = []
        func total(_ companyID: Int?, _ count: Int) -> Int {
            totals?.sections.first { $0.companyID == companyID }?.total ?? count
        }
        if byCompany {
            let byID = Dictionary(grouping: sorted) { companyOfPerson[$0] }
            for companyID in rankedCompanies {
                guard let people = byID[companyID] else { continue }
                let title = companies[companyID].key.isEmpty ? "No company" : companies[companyID].name
                sections.append(CompanySection(title: title, companyID: companyID, range: order.count..<(order.count + people.count),
                                               total: total(companyID, people.count)))
                order += people
            }
        } else if !sorted.isEmpty {
            order = sorted
            sections = [CompanySection.everyone(0..<sorted.count, total: total(nil, sorted.count))]
        }
        return PeopleArrangement(sort: sort, byCompany: byCompany, company: company, query: query, sections: sections,
                                 count: order.count, handle: Handle(order: order))
    }

    /// `sort`'s order: names ignoring case and accents; a missing number
    /// last either way; ties by name, then file order.
    private func precedes(_ left: Int, _ right: Int, in sort: RosterCore.SortOrder) -> Bool {
        let (a, b) = (filed[left], filed[right])
        func names(_ person: Person) -> [UInt8] {
            let (first, last) = (TextFolding.foldedBytes(person.firstName), TextFolding.foldedBytes(person.lastName))
            return sort.key == .firstName ? first + [0] + last : last + [0] + first
        }
        let numbers: (Int64?, Int64?)
        switch sort.key {
        case .balance: numbers = (a.balance.cents, b.balance.cents)
        case .age: numbers = (a.age.map(Int64.init), b.age.map(Int64.init))
        case .active: numbers = (a.isActive.map { $0 ? 0 : 1 }, b.isActive.map { $0 ? 0 : 1 })
        default: numbers = (0, 0)
        }
        switch numbers {
        case (nil, nil): break
        case (nil, _): return false
        case (_, nil): return true
        case let (x?, y?) where x != y: return sort.descending ? x > y : x < y
        default: break
        }
        if sort.key.isText {
            let (textA, textB) = (TextFolding.foldedBytes(Self.text(of: a, for: sort.key)),
                                  TextFolding.foldedBytes(Self.text(of: b, for: sort.key)))
            if textA.isEmpty != textB.isEmpty { return textB.isEmpty }
            if textA != textB { return textA.lexicographicallyPrecedes(textB) != sort.descending }
        }
        let (nameA, nameB) = (names(a), names(b))
        if nameA != nameB {
            let isReversed = sort.key == .lastName || sort.key == .firstName || sort.key.isText
            return nameA.lexicographicallyPrecedes(nameB) != (isReversed && sort.descending)
        }
        return left < right
    }

    /// The text a text key orders by.
    private static func text(of person: Person, for key: RosterCore.SortOrder.Key) -> String {
        let parts = QueryCondition.addressParts(person.address)
        switch key {
        case .email: return person.email
        case .phone: return person.phone
        case .company: return person.company
        case .address: return person.address
        case .text(let field): return person.text(field)
        case .recordID: return person.id
        case .city: return parts.city
        case .state: return parts.state
        case .zip: return parts.zip
        default: return ""
        }
    }

    // MARK: People

    nonisolated(nonsending) public func rows(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [ListedPerson] {
        rowsAtOnce(in: arrangement, positions: positions)
    }

    public func personAtOnce(_ id: PersonID) -> Person? {
        record(.person(id))
        return filed.indices.contains(id.rawValue) ? filed[id.rawValue] : nil
    }

    public func rowsAtOnce(in arrangement: PeopleArrangement, positions: Range<Int>) -> [ListedPerson] {
        record(.rows(positions))
        let order = order(of: arrangement)
        return positions.clamped(to: 0..<order.count).map { position in
            let person = filed[order[position]]
            return ListedPerson(id: PersonID(order[position]), position: position, companyID: companyOfPerson[order[position]],
                                age: person.age, isActive: person.isActive, text: person.text)
        }
    }

    nonisolated(nonsending) public func people(in arrangement: PeopleArrangement, positions: Range<Int>) async throws(RepositoryError)
        -> [Person] {
        peopleAtOnce(in: arrangement, positions: positions)
    }

    public func peopleAtOnce(in arrangement: PeopleArrangement, positions: Range<Int>) -> [Person] {
        record(.people(positions))
        let order = order(of: arrangement)
        return positions.clamped(to: 0..<order.count).map { filed[order[$0]] }
    }

    nonisolated(nonsending) public func person(_ id: PersonID) async throws(RepositoryError)
        -> Person {
        record(.person(id))
        return filed[id.rawValue]
    }

    nonisolated(nonsending) public func position(of id: PersonID, in arrangement: PeopleArrangement) async throws(RepositoryError)
        -> Int? {
        record(.position(of: id))
        return order(of: arrangement).firstIndex(of: id.rawValue)
    }

    nonisolated(nonsending) public func personID(recordID: String) async throws(RepositoryError)
        -> PersonID? {
        record(.personID(recordID: recordID))
        return filed.firstIndex { $0.id == recordID }.map(PersonID.init)
    }

    nonisolated(nonsending) public func companySummaries(in arrangement: PeopleArrangement) async throws(RepositoryError)
        -> [CompanySummary] {
        record(.companySummaries(count: arrangement.count))
        var summaries: [Int: CompanySummary] = [:]
        for index in order(of: arrangement) {
            let (person, companyID) = (filed[index], companyOfPerson[index])
            let title = companies[companyID].key.isEmpty ? "No company" : companies[companyID].name
            var summary = summaries[companyID] ?? CompanySummary(companyID: companyID, title: title)
            summary.headcount += 1
            if person.isActive == true { summary.active += 1 }
            if let cents = person.balance.cents {
                summary.totalCents += Int128(cents)
                summary.balances += 1
            }
            if let age = person.age {
                summary.ages += 1
                summary.ageSum += age
            }
            summaries[companyID] = summary
        }
        return rankedCompanies.compactMap { summaries[$0] }
    }

    nonisolated(nonsending) public func valueSummaries(of field: SummaryField, in arrangement: PeopleArrangement) async throws(RepositoryError)
        -> [ValueSummary] {
        record(.valueSummaries(field, count: arrangement.count))
        guard field != .company else { return try await companySummaries(in: arrangement).map(ValueSummary.init) }
        return ValueSummary.counted(order(of: arrangement).map { filed[$0] }, by: field)
    }
}
