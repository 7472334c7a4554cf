// roster-bench orgchart-open FILE: where the time of `T` goes over a file
// roster-gen made with --managers, the app's own path phase by phase: the
// file's manager references read again (a run of records at a time), resolved, the list's
// order, the tree in that order, the rows opened at a person. Prints
// key=value lines (milliseconds).
import Foundation
import RosterCore
import RosterStore

@MainActor
func orgChartOpen(path: String) async {
    guard let loaded = try? await PeopleLoader().load(path: path, sourceName: path) else { exit(1) }
    let store = loaded.store
    let repository = InMemoryPeopleRepository(loaded)
    let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
    print("people=\(store.count)")
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    var status = stat()
    guard descriptor >= 0, fstat(descriptor, &status) == 0 else { exit(1) }
    let references = measured("phase_references_read") {
        try? FileManagerReferences(store: store, file: descriptor, size: Int(status.st_size), format: nil)
    }
    close(descriptor)
    guard let references = references ?? nil else { exit(1) }
    let (resolution, _) = measured("phase_resolve") { ManagerResolution.resolve(references) }
    let start = ContinuousClock.now
    let keys = await OrgChartInteractor.orderKeys(of: everyone, in: repository)
    report("phase_order_keys_ms", milliseconds(ContinuousClock.now - start))
    let tree = measured("phase_tree_in_order") { OrgTree(resolution, order: keys.map { .keys($0) } ?? .personNumber) }
    _ = measured("phase_rows_open") {
        var rows = OrgChartRows(tree.outline)
        return rows.open(at: store.count / 2)
    }
    await keptChart(path: path, loaded: loaded, order: keys)
}

/// `T` over the chart the repository keeps: pressed as the list shows
/// (the chart read then, as the app reads it ahead), then again (kept),
/// then in another order; and what keeping it costs in memory.
func keptChart(path: String, loaded: LoadedDirectory, order keys: [Int32]?) async {
    let repository = InMemoryPeopleRepository(loaded) { store in MappedOrgChartReading(path: path, store: store) }
    guard let kept = repository.orgChartReading else { exit(1) }
    let before = residentMiB()
    func open() -> Int? {
        guard case .loaded(let chart) = kept.readChart(orderKeys: keys) else { exit(1) }
        var rows = OrgChartRows(chart.tree.outline)
        return rows.open(at: loaded.store.count / 2)
    }
    _ = measured("open_read_ahead", open)
    report("kept_chart_rss_growth_mib", residentMiB() - before)
    report("kept_chart_bytes_per_person", (residentMiB() - before) * 1_048_576 / Double(max(1, loaded.store.count)))
    var again: [Double] = []
    for _ in 0..<5 { again.append(timed(open).1) }
    report("open_kept_median_ms", again.sorted()[2])
    let flat = repository.arrange(sort: .byLastName, byCompany: false, company: nil)
    let otherKeys = await OrgChartInteractor.orderKeys(of: flat, in: repository)
    _ = measured("open_kept_other_order") { kept.readChart(orderKeys: otherKeys) }
}
