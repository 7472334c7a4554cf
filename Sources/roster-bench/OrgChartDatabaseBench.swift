// roster-bench orgchart-db TARGET: the org chart of a table `roster import`
// filled from a file roster-gen made with --managers: everyone's narrow
// columns read in runs of rows, resolved, the tree built (what `T` and the
// person's screen wait for, in the background). TARGET: an SQLite path or
// a postgres:// conninfo. Prints key=value lines (milliseconds).
import Foundation
import RosterCore
import RosterSQL

func orgChartDatabase(target: String) {
    let repository: SQLPeopleRepository
    do {
        repository = target.hasPrefix("postgres") ? try SQLPeopleRepository.open(postgres: target)
            : try SQLPeopleRepository.open(sqlite: target)
    } catch {
        FileHandle.standardError.write(Data("roster-bench: \(error.message)\n".utf8))
        exit(1)
    }
    print("people=\(repository.personCount)")
    let reading = SQLOrgChartReading(repository: repository)
    var times: [Double] = []
    for _ in 0..<3 {
        let (load, wall) = timed { reading.readChart(orderKeys: nil) }
        times.append(wall)
        guard case .loaded(let chart) = load else {
            FileHandle.standardError.write(Data("roster-bench: no chart\n".utf8))
            exit(1)
        }
        print("roots=\(chart.tree.roots.count) problems=\(chart.tree.problemSummary ?? "none")")
    }
    report("chart_read_resolve_build_median_ms", times.sorted()[1])
    // The parts: the rows read, then resolved and built as a file's chart is.
    guard let references = measured("rows_read", { try? repository.managerReferences() }) ?? nil else { exit(1) }
    let (resolution, _) = measured("resolve") { ManagerResolution.resolve(references) }
    _ = measured("tree") { OrgTree(resolution) }
    report("rss_mib", residentMiB())
}
