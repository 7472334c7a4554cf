/// A source's org chart read once, off the main actor, for every person's
/// screen that asks where someone stands (the chart screen reads its own,
/// in the list's order).
@MainActor
public final class OrgChartCache {
    private let reading: any OrgChartReading
    private let reader: BackgroundReading
    private var chart: OrgChart?
    /// Why there is no chart, once read without one.
    private var noChartReason: String?
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
            startReading(then: whenRead)
            return nil
        }
        if let last, last.recordID == recordID { return last.place }
        guard let chart, !recordID.isEmpty else { return nil }
        let place = chart.people.person(recordID: recordID).map { OrgPlace(person: $0, in: chart) }
        last = (recordID, place)
        return place
    }

    /// The chart, or why there is none, handed to `deliver`: at once once
    /// read, else when it is (`F`'s counts by manager).
    public func chart(then deliver: @escaping @MainActor @Sendable (Result<OrgChart, RepositoryError>) -> Void) {
        guard isRead else {
            return startReading { [weak self] in self?.chart(then: deliver) }
        }
        if let chart { return deliver(.success(chart)) }
        deliver(.failure(RepositoryError(.unreadable, reason: noChartReason ?? "there is no org chart here")))
    }

    private func startReading(then work: @escaping @MainActor @Sendable () -> Void) {
        waiting.append(work)
        guard waiting.count == 1 else { return }
        let reading = self.reading
        reader.perform({ reading.readChart(orderKeys: nil) }, then: { [weak self] load in self?.read(load) })
    }

    private func read(_ load: OrgChartLoad) {
        switch load {
        case .loaded(let chart): self.chart = chart
        case .noManagers(let reason), .unavailable(let reason): noChartReason = reason
        }
        isRead = true
        let waiting = self.waiting
        self.waiting = []
        for work in waiting { work() }
    }
}
