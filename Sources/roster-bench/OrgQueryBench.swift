import Foundation
import RosterCore
import RosterStore

/// A file's managers read again from the file, a run of records at a
/// time (as the app's `FileOrgChartReading` reads it, which the bench
/// cannot name).
struct MappedOrgChartReading: OrgChartReading {
    let path: String
    let store: PeopleStore

    func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else { return .unavailable("unreadable") }
        defer { close(descriptor) }
        guard let references = try? FileManagerReferences(store: store, file: descriptor, size: Int(status.st_size), format: nil) else {
            return .unavailable("unreadable")
        }
        return FileOrgChart.chart(of: store, references: references, sourceName: path, orderKeys: orderKeys)
    }
}

/// `reports-to:`, `under:` and `depth` against plain searches, over
/// everyone in the list's order: the first org chart search (the file's
/// managers read again, the chart and the reference tables built), then
/// medians of 11 runs of each query, everyone searched each time.
@MainActor
func orgQueries(path: String) async {
    guard let loaded = try? await PeopleLoader().load(path: path, sourceName: path) else { exit(1) }
    let repository = InMemoryPeopleRepository(loaded) { store in MappedOrgChartReading(path: path, store: store) }
    let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
    var load: OrgChartLoad = .unavailable("")
    let readTime = ContinuousClock().measure { load = MappedOrgChartReading(path: path, store: loaded.store).readChart(orderKeys: nil) }
    guard case .loaded(let chart) = load, let references = chart.references else { exit(1) }
    print("chart_read_ms=\(String(format: "%.0f", milliseconds(readTime)))")
    let indexTime = ContinuousClock().measure { _ = references.indexingEveryKind() }
    print("index_every_kind_ms=\(String(format: "%.0f", milliseconds(indexTime)))")
    // A manager two levels down: a sizeable organisation, not everyone.
    let tree = chart.tree
    let top = Int(tree.roots.max { tree.organisationSize(of: Int($0)) < tree.organisationSize(of: Int($1)) } ?? 0)
    let middle = Int(tree.directReports(of: Int(tree.directReports(of: top).first ?? Int32(top))).first ?? Int32(top))
    let manager = loaded.store.text(.id, of: middle)
    print("people=\(loaded.store.count) manager_org=\(tree.organisationSize(of: middle)) manager_team=\(tree.teamSize(of: middle))")
    func run(_ text: String) async -> (Double, Int) {
        var count = 0
        let elapsed = await ContinuousClock().measure {
            count = (try? await repository.search(SearchQuery(text), in: everyone, within: nil))?.count ?? -1
        }
        return (milliseconds(elapsed), count)
    }
    let (first, firstCount) = await run("under:\(manager)")
    print("org_first_search_ms=\(String(format: "%.0f", first)) (\(firstCount) people)")
    let queries = ["sanchez", "company:comgy", "age>40", "under:\(manager)", "reports-to:\(manager)", "depth>5", "depth:2",
                   "under:\(manager) age>40", "under:\(manager) sanchez"]
    for query in queries {
        var times: [Double] = []
        var found = 0
        for _ in 0..<11 {
            let (time, count) = await run(query)
            times.append(time)
            found = count
        }
        let sorted = times.sorted()
        let label = query.replacingOccurrences(of: manager, with: "X")
        print("\"\(label)\" p50_ms=\(String(format: "%.1f", sorted[5])) max_ms=\(String(format: "%.1f", sorted[10])) people=\(found)")
    }
}
