// roster-bench orgchart-db TARGET: the org chart of a table `roster import`
// filled from a file roster-gen made with --managers: everyone's narrow
// columns read in runs of rows, resolved, the tree built (what `T` and the
// person's screen wait for, in the background). TARGET: an SQLite path or
// a postgres:// conninfo. Then the person's screen's answer without the
// chart (`OrgPlaceLookup`): the chain and direct reports of people spread
// over the table, and the organisation counted under a top person and a
// manager three levels down. Prints key=value lines (milliseconds).
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
    if case .loaded(let chart) = reading.readChart(orderKeys: nil), let lookup = reading.placeLookup {
        personsPlaces(in: chart, lookup: lookup)
    }
}

/// The person's screen's lookups, timed: 101 people spread over the table
/// (p50 and max, and their chains' longest), then a top person's and a
/// third-level manager's place and organisation count.
private func personsPlaces(in chart: OrgChart, lookup: any OrgPlaceLookup) {
    let count = chart.tree.managers.count
    var times: [Double] = []
    var longest = 0
    for step in 0..<101 {
        let recordID = chart.people.recordID(of: step * (count - 1) / 100)
        let (place, wall) = timed { try? lookup.place(ofRecord: recordID) }
        times.append(wall)
        longest = max(longest, place?.chain.count ?? 0)
    }
    times.sort()
    report("place_p50_ms", times[50])
    report("place_max_ms", times[100])
    print("place_longest_chain=\(longest)")
    guard var manager = chart.tree.roots.max(by: { chart.tree.organisationSize(of: Int($0)) < chart.tree.organisationSize(of: Int($1)) })
        .map(Int.init) else { return }
    for level in 0...3 {
        let recordID = chart.people.recordID(of: manager)
        let (place, wall) = timed { try? lookup.place(ofRecord: recordID) }
        let (organisation, counted) = timed { try? lookup.organisationSize(ofRecord: recordID) }
        print("level\(level)_reports=\(place?.reports ?? -1) level\(level)_organisation=\(organisation ?? -1)")
        report("level\(level)_place_ms", wall)
        report("level\(level)_organisation_ms", counted)
        guard let next = chart.tree.directReports(of: manager).max(by: {
            chart.tree.organisationSize(of: Int($0)) < chart.tree.organisationSize(of: Int($1))
        }) else { return }
        manager = Int(next)
    }
}
