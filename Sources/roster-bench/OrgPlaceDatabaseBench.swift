// roster-bench orgplace-db TARGET [TABLE]: the person's screen over a table
// `roster import` filled from a file roster-gen made with --managers (or
// that bench-db multiplied): where 101 people spread over the table stand
// (`OrgPlaceLookup`: their chain up and their direct reports), without the
// chart; then the top person of a chain and a manager at each of the three
// levels under them, their organisation counted. Prints key=value lines
// (milliseconds).
import Foundation
import RosterCore
import RosterSQL

func orgPlaceDatabase(target: String, table: String) {
    let isPostgres = target.hasPrefix("postgres")
    let opened: SQLPeopleRepository
    let query: (String, [SQLValue]) -> [SQLRow]
    do {
        opened = isPostgres ? try SQLPeopleRepository.open(postgres: target, table: table)
            : try SQLPeopleRepository.open(sqlite: target, table: table)
        let postgres = isPostgres ? try PostgresConnection(target) : nil
        let sqlite = isPostgres ? nil : try SQLiteConnection(path: target, access: .readOnly)
        query = { sql, values in (try? postgres?.execute(sql, values) ?? sqlite?.query(sql, values)) ?? [] }
    } catch {
        FileHandle.standardError.write(Data("roster-bench: \(error.message)\n".utf8))
        exit(1)
    }
    guard let lookup = SQLOrgChartReading(repository: opened).placeLookup else { exit(1) }
    print("people=\(opened.personCount)")
    let rowID = isPostgres ? "row_id" : "rowid"
    let bounds = query("SELECT min(\(rowID)), max(\(rowID)) FROM \(table)", [])
    let (low, high) = (bounds.first?.int(0) ?? 0, bounds.first?.int(1) ?? 0)
    let recordID = { (row: Int64) in
        query("SELECT id FROM \(table) WHERE \(rowID) >= \(isPostgres ? "$1" : "?1") ORDER BY \(rowID) LIMIT 1", [.int(row)])
            .first?.text(0) ?? ""
    }
    var times: [Double] = []
    var deepest: (chain: [OrgPlace.Named], recordID: String) = ([], "")
    for step in Int64(0)...100 {
        let id = recordID(low + (high - low) * step / 100)
        let (place, wall) = timed { try? lookup.place(ofRecord: id) }
        times.append(wall)
        if let place, place.chain.count > deepest.chain.count { deepest = (place.chain, id) }
    }
    times.sort()
    report("place_p50_ms", times[50])
    report("place_max_ms", times[100])
    print("place_longest_chain=\(deepest.chain.count)")
    guard let top = deepest.chain.last else { return }
    var manager = recordID(Int64(top.person))
    for level in 0...3 {
        let (place, wall) = timed { try? lookup.place(ofRecord: manager) }
        let (organisation, counted) = timed { () -> String in
            do { return try lookup.organisationSize(ofRecord: manager).map(String.init) ?? "over" } catch { return "failed" }
        }
        print("level\(level)_reports=\(place?.reports ?? -1) level\(level)_organisation=\(organisation)")
        report("level\(level)_place_ms", wall)
        report("level\(level)_organisation_ms", counted)
        // Down to the report who has the most reports of their own.
        let reports = (place?.directReports ?? []).map { recordID(Int64($0.person)) }
        guard let next = reports.max(by: { (try? lookup.place(ofRecord: $0))?.reports ?? 0 < (try? lookup.place(ofRecord: $1))?.reports ?? 0 })
        else { return }
        manager = next
    }
}
