import Foundation
import RosterCore
import RosterStore
import TestSupport

/// What a frame of the chart reads: the 24 rows around the selection.
func frameRows(_ rows: OrgChartRows, around selected: Int) -> [OrgChartRow] {
    let top = max(0, min(selected - 12, rows.count - 24))
    return rows.rows(top..<(top + 24))
}

/// Opening at people (a fresh chart each time), then a session of keys on one.
func browse(_ tree: OrgTree) {
    var random = SeededRandom(seed: 38)
    var opens: [Double] = []
    var builds: [Double] = []
    let opensCPU = cpuMilliseconds()
    for _ in 0..<50 {
        let person = random.below(tree.count)
        let (rows, build) = timed { OrgChartRows(tree.outline) }
        var opened = rows
        let (_, open) = timed {
            let row = opened.open(at: person) ?? 0
            _ = frameRows(opened, around: row)
        }
        builds.append(build)
        opens.append(build + open)
    }
    report("open_at_person_cpu_ms_each", (cpuMilliseconds() - opensCPU) / 50)
    reportSpread("rows_build", builds)
    reportSpread("open_at_person", opens)
    var rows = OrgChartRows(tree.outline)
    var selected = rows.open(at: random.below(tree.count)) ?? 0
    var keys: [Double] = []
    let keysCPU = cpuMilliseconds()
    for _ in 0..<5000 {
        let choice = random.below(8)
        let (_, elapsed) = timed {
            selected = key(choice, on: &rows, selected: selected)
            _ = frameRows(rows, around: selected)
        }
        keys.append(elapsed)
    }
    report("key_cpu_ms_each", (cpuMilliseconds() - keysCPU) / 5000)
    print("rows_after_keys=\(rows.count)")
    reportSpread("key", keys)
    bigToggles(tree)
}

/// One key: down, up, page down, Space, left, right (opening first), or
/// opening at someone else.
func key(_ choice: Int, on rows: inout OrgChartRows, selected: Int) -> Int {
    switch choice {
    case 0, 1: return min(rows.count - 1, selected + 1)
    case 2: return max(0, selected - 1)
    case 3: return min(rows.count - 1, selected + 24)
    case 4:
        rows.toggle(row: selected)
        return selected
    case 5: return rows.managerRow(of: selected) ?? selected
    case 6:
        if let report = rows.firstReportRow(of: selected) { return report }
        rows.toggle(row: selected)
        return selected
    default:
        return rows.open(at: (selected * 7919) % rows.outline.count) ?? selected
    }
}

/// Closing and opening the top person with everyone under them open: a
/// million rows hidden and shown again.
func bigToggles(_ tree: OrgTree) {
    var rows = OrgChartRows.allExpanded(tree.outline)
    let (_, allMs) = timed { rows = OrgChartRows.allExpanded(tree.outline) }
    report("rows_all_expanded_build_ms", allMs)
    let (_, close) = timed { rows.toggle(row: 0) }
    let (_, open) = timed { rows.toggle(row: 0) }
    print("rows_all=\(rows.count)")
    report("collapse_top_of_all_ms", close)
    report("expand_top_of_all_ms", open)
}

/// Searches of about 0.05%, 2% and 75% of people: the chart of the matches.
func searches(_ tree: OrgTree, store: PeopleStore) {
    let queries: [(String, (Int) -> Bool)] = [
        ("rare", { store.text(.firstName, of: $0) == "芳" && store.text(.lastName, of: $0) == "王" }),
        ("jose", { store.text(.firstName, of: $0) == "José" }),
        ("age_over_30", { (store.age(of: $0) ?? 0) > 30 }),
    ]
    for (name, matches) in queries {
        let people = (0..<store.count).filter(matches)
        let rows = measured("search_\(name)") { OrgChartRows.openToMatches(tree.searchOutline(matching: people)) }
        print("search_\(name)_matches=\(people.count) search_\(name)_rows=\(rows.count)")
    }
}

/// `--list --tree` against `--list`: the text of everyone, written to /dev/null.
@MainActor
func text(_ tree: OrgTree, resolution: ManagerResolution, index: PersonReferenceIndex<StoreReferenceSource>,
          store: PeopleStore, loaded: LoadedDirectory, listRank: [Int32]) async {
    let devNull = open("/dev/null", O_WRONLY)
    let repository = InMemoryPeopleRepository(loaded)
    let cpuBefore = cpuMilliseconds()
    let start = ContinuousClock.now
    let arrangement = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
    await PlainListWriter(isTerminal: false).write(arrangement, of: repository, to: devNull)
    report("list_arrange_and_write_ms", milliseconds(ContinuousClock.now - start))
    report("list_arrange_and_write_cpu_ms", cpuMilliseconds() - cpuBefore)
    for style in [OrgChartText.Style.indented, .treeLines] {
        measured("tree_text_\(style)") { writeTree(tree, style: style, store: store, to: devNull) }
    }
    measured("tree_resolve_build_and_write") {
        let tree = OrgTree(ManagerResolution.resolve(index.source).0, order: .keys(listRank))
        writeTree(tree, style: .treeLines, store: store, to: devNull)
    }
    close(devNull)
}

/// Every person under their manager, each line as --list words it (name,
/// email, balance, tab-separated), groups by the top person's company.
func writeTree(_ tree: OrgTree, style: OrgChartText.Style, store: PeopleStore, to descriptor: Int32) {
    let rows = OrgChartRows.allExpanded(tree.outline)
    let text = OrgChartText(style: style) { store.text(.company, of: $0) }
    text.write(rows, appendLine: { row, output in
        guard let person = row.person else { return }
        store.withBytes(.firstName, of: person) { output.append(contentsOf: $0) }
        output.append(UInt8(ascii: " "))
        store.withBytes(.lastName, of: person) { output.append(contentsOf: $0) }
        output.append(UInt8(ascii: "\t"))
        store.withBytes(.email, of: person) { output.append(contentsOf: $0) }
        output.append(UInt8(ascii: "\t"))
        store.withBytes(.balance, of: person) { output.append(contentsOf: $0) }
    }, emit: { bytes in
        bytes.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
    })
}
