/// A source that can say where one person stands without reading the
/// whole org chart: a table answers from its keys and indexes (the
/// person's chain up, their direct reports) in a few statements, however
/// many people it holds. The person's screen asks it while the chart is
/// not read (`OrgChartCache`); `T` still reads the chart.
public protocol OrgPlaceLookup: Sendable {
    /// Where the person whose record's `_id` is `recordID` stands, their
    /// organisation not counted yet (`OrgPlace.organisation` nil, and
    /// `isCountingOrganisation` when they have reports); nil when nobody
    /// has that `_id`. Blocking: called off the main actor.
    func place(ofRecord recordID: String) throws(RepositoryError) -> OrgPlace?
    /// How many people are under them, at every level: a count that may
    /// pass over many rows, so asked after the place is shown; nil when
    /// there are too many to count so (the chart is read to count them).
    func organisationSize(ofRecord recordID: String) throws(RepositoryError) -> Int?
}
