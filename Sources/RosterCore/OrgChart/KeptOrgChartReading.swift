/// A source's org chart read once and kept: by `T`, the person's screen,
/// `F`'s counts by manager and the query terms of one repository (one
/// store of a file: an edit or a read again makes a new repository, with
/// a kept chart of its own, so an old chart is never shown for new data).
///
/// It can be read ahead (`prepare`), in the background, as soon as the
/// list is up, so that `T` finds it read. The chart in a list's order is
/// made from the kept one (the loops broken once, only the report lists
/// sorted again) and kept in its place: one chart held, not two.
public final class KeptOrgChartReading: OrgChartReading {
    private let reading: any OrgChartReading
    /// The chart, once read (an unreadable file's failure is not kept: the
    /// next ask tries again), and the list order it is in (nil: the source's).
    private let kept = Locked<(load: OrgChartLoad, orderKeys: [Int32]?)?>(nil)
    /// Whether a read ahead was started.
    private let started = Locked(false)
    /// Whether the chart is kept: a lock of its own, never held through a
    /// read (the main actor asks it while a read ahead may be under way).
    private let isKept = Locked(false)

    public init(_ reading: any OrgChartReading) {
        self.reading = reading
    }

    public var takesOrderKeys: Bool { reading.takesOrderKeys }
    public var placeLookup: (any OrgPlaceLookup)? { reading.placeLookup }

    /// Read anew at each ask, never kept: an export is rare, and the
    /// references of a million people would double what the chart holds.
    public func readManagerReferences() -> ManagerReferencesLoad { reading.readManagerReferences() }

    /// Whether the chart has been read and is kept.
    public var isRead: Bool { isKept.withLock { $0 } }

    /// The kept chart in `orderKeys`' order (the source's when nil, or
    /// whatever order it is kept in: a person's place, a team's size and
    /// an organisation's do not depend on it). The first ask reads it;
    /// asks meanwhile wait for that read rather than make their own.
    public func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
        kept.withLock { kept in
            let current = kept ?? (reading.readChart(orderKeys: nil), nil)
            guard case .loaded(let chart) = current.load else {
                if case .noManagers = current.load { keep(current, in: &kept) }
                return current.load
            }
            guard let orderKeys, orderKeys != current.orderKeys else {
                keep(current, in: &kept)
                return current.load
            }
            let ordered = OrgChartLoad.loaded(OrgChart(tree: chart.tree.inOrder(.keys(orderKeys)), people: chart.people,
                                                       references: chart.references))
            keep((ordered, orderKeys), in: &kept)
            return ordered
        }
    }

    private func keep(_ chart: (load: OrgChartLoad, orderKeys: [Int32]?), in kept: inout (load: OrgChartLoad, orderKeys: [Int32]?)?) {
        kept = chart
        isKept.withLock { $0 = true }
    }

    /// Reads the chart through `reader`, off the main actor, unless it is
    /// read or being read.
    @MainActor public func prepare(through reader: BackgroundReading) {
        let isFirst = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard isFirst else { return }
        reader.perform({ [self] in _ = readChart(orderKeys: nil) }, then: { _ in })
    }
}
