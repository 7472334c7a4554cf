/// A source's org chart read once, off the main actor, for every person's
/// screen that asks where someone stands (the chart screen reads its own,
/// in the list's order). A source that can answer for one person without
/// the chart (`OrgPlaceLookup`: a table) is asked that instead, person by
/// person, until the chart is read for another reason (`F`).
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
    /// The people looked up (`OrgPlaceLookup`) while the chart is not read,
    /// by record `_id` (nil: nobody, or the ask failed): the screen asks at
    /// each key, and ↑/↓ come back to the same few.
    private var answers: [String: OrgPlace?] = [:]
    /// The most answers kept: forgotten all at once past it.
    private static let answersKept = 256
    /// The person being looked up, and who waits for them.
    private var lookingUp: (recordID: String, waiting: [@MainActor @Sendable () -> Void])?

    public init(reading: any OrgChartReading, reader: BackgroundReading) {
        self.reading = reading
        self.reader = reader
    }

    /// Where the person whose record's `_id` is `recordID` stands: at once
    /// once the chart is read or the person looked up (nil: no chart, or
    /// not in it); before that nil, and `whenRead` called once it is
    /// (again when a looked-up person's organisation is counted).
    public func place(ofRecord recordID: String, whenRead: @escaping @MainActor @Sendable () -> Void) -> OrgPlace? {
        if let chart {
            if let last, last.recordID == recordID { return last.place }
            guard !recordID.isEmpty else { return nil }
            let place = chart.people.person(recordID: recordID).map { OrgPlace(person: $0, in: chart) }
            last = (recordID, place)
            return place
        }
        guard let lookup = reading.placeLookup else {
            if !isRead { startReading(then: whenRead) }
            return nil
        }
        if let answer = answers[recordID] { return answer }
        lookUp(recordID, through: lookup, then: whenRead)
        // A source that answered at once has been kept already.
        return answers[recordID] ?? nil
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
        case .loaded(let chart):
            self.chart = chart
            // The chart's answers are the ones `T` shows; a table's own are dropped.
            answers = [:]
        case .noManagers(let reason), .unavailable(let reason):
            noChartReason = reason
            // Nor can it count the organisations it was read to count.
            answers = answers.mapValues { $0.map { place in
                var place = place
                place.isCountingOrganisation = false
                return place
            } }
        }
        isRead = true
        let waiting = self.waiting
        self.waiting = []
        for work in waiting { work() }
    }
}

extension OrgChartCache {
    /// Asks `lookup` where `recordID` stands, off the main actor, unless it
    /// is being asked; then their organisation is counted. A failed ask is
    /// kept as no place (the screen shows the record alone), so a lost
    /// connection is not asked again at every frame.
    private func lookUp(_ recordID: String, through lookup: any OrgPlaceLookup,
                        then whenRead: @escaping @MainActor @Sendable () -> Void) {
        guard !recordID.isEmpty else { return }
        if lookingUp?.recordID == recordID {
            lookingUp?.waiting.append(whenRead)
            return
        }
        lookingUp = (recordID, [whenRead])
        reader.perform({ try? lookup.place(ofRecord: recordID) }, then: { [weak self] place in
            self?.lookedUp(recordID, place, through: lookup)
        })
    }

    private func lookedUp(_ recordID: String, _ place: OrgPlace?, through lookup: any OrgPlaceLookup) {
        let waiting = lookingUp?.recordID == recordID ? lookingUp?.waiting ?? [] : []
        if lookingUp?.recordID == recordID { lookingUp = nil }
        // Read meanwhile, the chart answers instead.
        if chart == nil {
            if answers.count >= Self.answersKept { answers = [:] }
            answers[recordID] = place
        }
        for work in waiting { work() }
        guard chart == nil, place?.isCountingOrganisation == true else { return }
        reader.perform({ () -> Result<Int?, RepositoryError> in
            do throws(RepositoryError) { return .success(try lookup.organisationSize(ofRecord: recordID)) } catch { return .failure(error) }
        }, then: { [weak self] counted in self?.counted(counted, for: recordID, then: waiting) })
    }

    /// A looked-up person's organisation, counted: shown; too many to
    /// count one by one: the chart is read, and counts it (the screen
    /// says it is counting until then); not counted: left out.
    private func counted(_ counted: Result<Int?, RepositoryError>, for recordID: String,
                         then waiting: [@MainActor @Sendable () -> Void]) {
        guard chart == nil, case .some(.some(var place)) = answers[recordID] else { return }
        switch counted {
        case .success(nil) where !isRead:
            return startReading { for work in waiting { work() } }
        case .success(nil):
            break  // the chart could not be read either
        case .success(let size?):
            place.organisation = size
        case .failure:
            break
        }
        place.isCountingOrganisation = false
        answers[recordID] = place
        for work in waiting { work() }
    }
}
