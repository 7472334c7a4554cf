/// A source's org chart read once, off the main actor, for every person's
/// screen that asks where someone stands (the chart screen reads its own,
/// in the list's order).
@MainActor
public final class OrgChartCache {
    private let reading: any OrgChartReading
    private let reader: BackgroundReading
    private var chart: OrgChart?
    private var isRead = false
    private var waiting: [@MainActor @Sendable () -> Void] = []
    /// The last answer: asked again at each key on the person's screen,
    /// and finding a record by `_id` is a pass over everyone's.
    private var last: (recordID: String, place: OrgPlace?)?

    public init(reading: any OrgChartReading, reader: BackgroundReading) {
        self.reading = reading
        self.reader = reader
    }

    /// Where the person whose record's `_id` is `recordID` stands: at once
    /// once the chart is read (nil: no chart, or not in it); before that
    /// nil, the chart is read and `whenRead` called once it is.
    public func place(ofRecord recordID: String, whenRead: @escaping @MainActor @Sendable () -> Void) -> OrgPlace? {
        guard isRead else {
            waiting.append(whenRead)
            if waiting.count == 1 {
                let reading = self.reading
                reader.perform({ reading.readChart(orderKeys: nil) }, then: { [weak self] load in self?.read(load) })
            }
            return nil
        }
        if let last, last.recordID == recordID { return last.place }
        guard let chart, !recordID.isEmpty else { return nil }
        let place = chart.people.person(recordID: recordID).map { OrgPlace(person: $0, in: chart) }
        last = (recordID, place)
        return place
    }

    private func read(_ load: OrgChartLoad) {
        if case .loaded(let chart) = load { self.chart = chart }
        isRead = true
        let waiting = self.waiting
        self.waiting = []
        for work in waiting { work() }
    }
}
