/// Where a person stands in the org chart, for their screen: their manager
/// (or why they have none that counts), the chain of managers above them,
/// their direct reports and everyone under them.
public struct OrgPlace: Equatable, Sendable {
    /// Someone the person's screen names and Enter opens.
    public struct Named: Equatable, Sendable {
        /// Their `PersonID`'s raw value.
        public let person: Int
        public let name: String

        public init(person: Int, name: String) {
            self.person = person
            self.name = name
        }
    }

    /// "Grace Hopper <grace@example.org>"; nil at the top.
    public let manager: String?
    /// Why they are at the top when it is a problem (`manager not here:
    /// "Zed"`, `manager ambiguous: "Ann Lee" names 2 people`).
    public let problem: String?
    public let reports: Int
    /// Everyone under them, at every level; nil while it is counted
    /// (`isCountingOrganisation`) or when it could not be.
    public var organisation: Int?
    /// The organisation is being counted (a table's `OrgPlaceLookup`
    /// answers it after the rest).
    public var isCountingOrganisation = false
    /// Their managers, the direct one first, up to the top of the chart.
    public var chain: [Named] = []
    /// Why the chain's top person has no manager when that is a problem
    /// (`manager not here: "Zed"`, "in a loop of managers"): the chain ends there
    /// for that reason, not at the head of the organisation.
    public var chainProblem: String?
    /// Their direct reports by name, at most `reportsListed` of them.
    public var directReports: [Named] = []

    /// The most reports a person's screen lists (a manager of thousands
    /// lists the first by name; the chart `T` shows them all).
    public static let reportsListed = 100

    public init(manager: String?, problem: String?, reports: Int, organisation: Int?) {
        self.manager = manager
        self.problem = problem
        self.reports = reports
        self.organisation = organisation
    }

    /// `person`'s place in `chart`.
    public init(person: Int, in chart: OrgChart) {
        let tree = chart.tree
        let manager = Int(tree.managers[person])
        self.init(manager: manager < 0 ? nil : Self.label(of: manager, in: chart.people),
                  problem: tree.problem(of: person),
                  reports: tree.teamSize(of: person), organisation: tree.organisationSize(of: person))
        // Named by `PersonID` (a table's chart numbers its people otherwise): what the person's screen opens.
        let names = { (person: Int) in Named(person: chart.people.personID(of: person), name: Self.name(of: person, in: chart.people)) }
        // The tree has no loops left (each is broken at one of its people), so the walk ends.
        let managers = tree.managerChain(of: person)
        chain = managers.map(names)
        // Asked of the chart's number for the top manager, not of their PersonID (a table's differ).
        chainProblem = managers.last.flatMap(tree.problem(of:))
        let reports = tree.directReports(of: person).map { names(Int($0)) }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
        directReports = Array(reports.prefix(Self.reportsListed))
    }

    private static func name(of person: Int, in people: any OrgChartPeople) -> String {
        shownName(people.name(of: person))
    }

    private static func label(of person: Int, in people: any OrgChartPeople) -> String {
        shownLabel(name: people.name(of: person), email: people.email(of: person))
    }

    /// A name as the screen shows it: made safe for the terminal, and
    /// "(no name)" for none.
    public static func shownName(_ name: String) -> String {
        let name = DisplayText.sanitized(name)
        return name.isEmpty ? "(no name)" : name
    }

    /// A manager as the screen shows them: "Grace Hopper <grace@example.org>",
    /// made safe for the terminal; the name alone without an email.
    public static func shownLabel(name: String, email: String) -> String {
        let name = DisplayText.sanitized(name)
        let email = DisplayText.sanitized(email)
        return email.isEmpty ? name : "\(name) <\(email)>"
    }
}

extension OrgPlace {
    /// `manager not here: "Zed"`: a reference that names nobody, as the chart says it.
    public static func managerNotHere(_ reference: String) -> String {
        "manager not here: \(UnresolvedManager.quoted(reference))"
    }

    /// `manager ambiguous: "Ann Lee" names 2 people`, as the chart says it.
    public static func managerAmbiguous(_ reference: String, people: Int) -> String {
        "manager ambiguous: \(UnresolvedManager.names(reference, people: people))"
    }
}
