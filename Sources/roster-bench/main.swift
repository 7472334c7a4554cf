// roster-bench: in-process measurements for `make bench` (bench/run.sh).
//
//     roster-bench phases FILE     load phases and time to a first frame
//     roster-bench keys FILE N [COLUMNS]  key-to-frame latency over N scripted keys (80 columns unless told)
//     roster-bench search FILE     search latency per keystroke (typed queries;
//                                  ROSTER_BENCH_EACH=1 also prints every keystroke)
//     roster-bench sorts FILE      time to re-sort by each order, grouped and flat
//     roster-bench counts FILE     time to count by each field (F), everyone and a search's matches
//     roster-bench orgchart FILE   the org chart's model over a file made with roster-gen --managers
//     roster-bench orgchart-open FILE  where the time of T goes over such a file, phase by phase
//     roster-bench orgchart-db TARGET  the same over a table roster import filled from such a file
//     roster-bench orgplace-db TARGET [TABLE]  the person's screen's chain, team and organisation over such a table
//     roster-bench orgquery FILE   reports-to:, under: and depth timed against plain searches over such a file
//     roster-bench ldap N          a real slapd with N people: reading everyone (against ldapsearch),
//                                  windows by position, searches as typed, a live change (LDAPBench.swift)
//     roster-bench fields FILE     parse time on one core: a .vcf or .ldif file read into a
//                                  counting sink, any other file by the people loader
//
// Prints `key=value` lines; bench/run.sh runs each several times in fresh
// processes and reports medians. Frames are drawn on the in-memory screen,
// so terminal output time (ncurses, the terminal itself) is not included.
import Foundation
import RosterApp
import RosterCore
import RosterStore
import RosterTUI
import TestSupport

func seconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    return String(format: "%.4f", Double(whole) + Double(attoseconds) / 1e18)
}

func peakResidentMiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss / 1024
}

@MainActor
func phases(path: String) async {
    let started = ContinuousClock.now
    let loaded: LoadedDirectory
    do {
        loaded = try await PeopleLoader().load(path: path, sourceName: path)
    } catch {
        print("error=\(error.message)")
        exit(1)
    }
    let loadedAt = ContinuousClock.now
    let repository = InMemoryPeopleRepository(loaded)
    let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
    let groupedAt = ContinuousClock.now
    let screen = MemoryScreen(rows: 24, columns: 80)
    let app = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.success(loaded)), sourceName: path,
                              makeSearcher: { ImmediateSearchScheduler() })
    app.presentLoaded(repository, arrangement: everyone)
    app.root.draw()
    let frameAt = ContinuousClock.now
    print("people=\(loaded.store.count)")
    print("parse=\(seconds(loaded.parseDuration))")
    print("store=\(seconds(loaded.storeDuration))")
    print("group=\(seconds(groupedAt - loadedAt))")
    print("frame=\(seconds(frameAt - groupedAt))")
    print("first_frame=\(seconds(frameAt - started))")
    print("peak_rss_mib=\(peakResidentMiB())")
}

@MainActor
func keys(path: String, count: Int, columns: Int) async {
    guard let loaded = try? await PeopleLoader().load(path: path, sourceName: path) else { exit(1) }
    let screen = MemoryScreen(rows: 24, columns: columns)
    let app = AppDependencies(screen: screen, interactor: StubDirectoryLoading(.success(loaded)), sourceName: path,
                              makeSearcher: { ImmediateSearchScheduler() })
    let repository = InMemoryPeopleRepository(loaded)
    app.presentLoaded(repository, arrangement: repository.arrange(sort: .byLastName, byCompany: true, company: nil))
    app.root.draw()
    // A session's worth of moves: rows, pages, jumps, detail and back.
    let script: [Key] = Array(repeating: .down, count: 40) + Array(repeating: .up, count: 10)
        + [.pageDown, .pageDown, .pageDown, .pageUp, .end, .up, .up, .home, .down, .enter, .down, .down, .up, .escape]
        + Array(repeating: .pageDown, count: 12) + [.character("G"), .character("g"), .enter, .escape]
    var latencies: [Double] = []
    latencies.reserveCapacity(count)
    let clock = ContinuousClock()
    for index in 0..<count {
        let key = script[index % script.count]
        let elapsed = clock.measure {
            app.root.handle(key)
            app.root.draw()
        }
        let (whole, attoseconds) = elapsed.components
        latencies.append(Double(whole) * 1000 + Double(attoseconds) / 1e15)
    }
    latencies.sort()
    func percentile(_ p: Double) -> String { String(format: "%.3f", latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) }
    print("keys=\(count)")
    print("key_p50_ms=\(percentile(0.50))")
    print("key_p99_ms=\(percentile(0.99))")
    print("key_max_ms=\(String(format: "%.3f", latencies.last ?? 0))")
}

func milliseconds(_ duration: Duration) -> Double {
    let (whole, attoseconds) = duration.components
    return Double(whole) * 1000 + Double(attoseconds) / 1e15
}

/// CPU time of the whole process (both cores' work), in milliseconds:
/// steadier than wall time on a machine shared with other work.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
}

/// Types queries a key at a time, each narrowing the last when it can, as
/// the app does; then deletes the last term a key at a time (Backspace:
/// each a search of everyone). Plain words, then multi-term and field queries.
@MainActor
func search(path: String) async {
    guard let loaded = try? await PeopleLoader().load(path: path, sourceName: path) else { exit(1) }
    let repository = InMemoryPeopleRepository(loaded)
    let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
    var recent = RecentSearches()
    let printEach = ProcessInfo.processInfo.environment["ROSTER_BENCH_EACH"] == "1"
    var cpuTotal = 0.0
    /// One keystroke's search, within the narrowest earlier result it
    /// narrows, as the list presenter does.
    func keystroke(_ text: String, previous: PeopleArrangement?) -> (Double, PeopleArrangement?) {
        let query = SearchQuery(text)
        guard query.error == nil else { return (0, previous) }  // not run: the list keeps the last result
        let within = recent.narrowest(for: query) ?? previous.flatMap { $0.query.map(query.narrows) == true ? $0 : nil }
        var result: PeopleArrangement?
        let cpuBefore = cpuMilliseconds()
        let elapsed = ContinuousClock().measure {
            result = repository.searchNow(query, in: everyone, within: within)
        }
        let cpu = cpuMilliseconds() - cpuBefore
        cpuTotal += cpu
        if let result { recent.remember(result) }
        if printEach {
            print("keystroke \"\(text)\": \(String(format: "%.1f ms (CPU %.0f ms)", milliseconds(elapsed), cpu)), \(result?.count ?? -1) people"
                  + " (within \(within.map { String($0.count) } ?? "everyone"))")
        }
        return (milliseconds(elapsed), result ?? previous)
    }
    func report(_ name: String, _ queries: [String], widen: Bool) {
        var typing: [Double] = [], widening: [Double] = []
        for typed in queries {
            recent.forget()  // a new query: nothing typed before it
            var previous: PeopleArrangement?
            for length in 1...typed.count {
                let (time, result) = keystroke(String(typed.prefix(length)), previous: previous)
                if time > 0 { typing.append(time) }
                previous = result
            }
            // Backspace over the last term: each shorter query widens.
            let lastTerm = typed.split(separator: " ").last.map(\.count) ?? 0
            for length in stride(from: typed.count - 1, through: max(1, typed.count - lastTerm), by: -1) where widen {
                let (time, result) = keystroke(String(typed.prefix(length)), previous: previous)
                if time > 0 { widening.append(time) }
                previous = result
            }
        }
        print("\(name)_cpu_ms=\(String(format: "%.0f", cpuTotal))")
        cpuTotal = 0
        for (label, latencies) in [("", typing), ("_widen", widening)] where !latencies.isEmpty {
            let sorted = latencies.sorted()
            print("\(name)\(label)_keystrokes=\(sorted.count)")
            print("\(name)\(label)_p50_ms=\(String(format: "%.1f", sorted[sorted.count / 2]))")
            print("\(name)\(label)_max_ms=\(String(format: "%.1f", sorted.last ?? 0))")
        }
    }
    report("search", ["sanchez", "jose", "malmö", "604-", "comstar", "zz"], widen: false)
    report("search_terms", ["abbott beta", "jose garza", "1883140187", "sanchez -comgy"], widen: true)
    report("search_fields", ["company:comgy age>40", "age:30-39 active:yes", "balance>2500 -fruit:apple", "city:concho eye:blue",
                             "state:kentucky balance<$1,000.50"], widen: true)
}

/// Re-sorting a loaded directory by each order, grouped and flat.
func sorts(path: String) async {
    guard let loaded = try? await PeopleLoader().load(path: path, sourceName: path) else { exit(1) }
    let repository = InMemoryPeopleRepository(loaded)
    for byCompany in [true, false] {
        for key in SortOrder.Key.allCases {
            let clock = ContinuousClock()
            let elapsed = clock.measure { _ = repository.arrange(sort: SortOrder(key), byCompany: byCompany, company: nil) }
            print("sort_\(key)_\(byCompany ? "grouped" : "flat")=\(seconds(elapsed))")
        }
    }
}

/// Counting by each field (the frequency view, `F`) and the company
/// overview's figures: of everyone, then of a search's matches (`age>30`,
/// about three people in four: a filtered count reads a bitmap too).
func counts(path: String) async {
    guard let loaded = try? await PeopleLoader().load(path: path, sourceName: path) else { exit(1) }
    let repository = InMemoryPeopleRepository(loaded)
    let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
    guard let filtered = repository.searchNow(SearchQuery("age>30"), in: everyone, within: nil) else { exit(1) }
    for (label, shown) in [("", everyone), ("_filtered", filtered)] {
        var slowest = 0.0
        for field in SummaryField.countedByRepositories {
            let elapsed = milliseconds(await ContinuousClock().measure { _ = try? await repository.valueSummaries(of: field, in: shown) })
            slowest = max(slowest, elapsed)
            print("counts_\(field.recordField.map { "\($0)" } ?? "\(field)")\(label)_ms=\(String(format: "%.1f", elapsed))")
        }
        print("counts\(label)_max_ms=\(String(format: "%.1f", slowest))")
        let overview = milliseconds(await ContinuousClock().measure { _ = try? await repository.companySummaries(in: shown) })
        print("overview\(label)_ms=\(String(format: "%.1f", overview))")
    }
}

/// Parse time on one core, in MB/s too: vCard and LDIF into a sink that
/// only counts (what the readers cost before anything is kept), other
/// formats through the loader (`parallelThreshold` past the file's size).
func fields(path: String) async {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let seconds: Double
    switch (path as NSString).pathExtension.lowercased() {
    case "vcf", "ldif":
        guard let (sink, time) = try? FieldFileReading.count(path: path, format: path.hasSuffix("ldif") ? .ldif : .vCard) else { exit(1) }
        seconds = time
        print("records=\(sink.records)")
        print("values=\(sink.values)")
        print("skipped=\(sink.skipped)")
    default:
        guard let loaded = try? await PeopleLoader(parallelThreshold: Int.max).load(path: path, sourceName: path) else { exit(1) }
        let (whole, attoseconds) = loaded.parseDuration.components
        seconds = Double(whole) + Double(attoseconds) / 1e18
        print("records=\(loaded.store.count)")
    }
    print("parse=\(String(format: "%.4f", seconds))")
    print("mb_per_s=\(String(format: "%.0f", Double(size) / 1e6 / seconds))")
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: roster-bench phases FILE | keys FILE N\n".utf8))
    exit(2)
}
switch arguments[1] {
case "phases": await phases(path: arguments[2])
case "search": await search(path: arguments[2])
case "sorts": await sorts(path: arguments[2])
case "counts": await counts(path: arguments[2])
case "orgchart": await orgChart(path: arguments[2])
case "orgchart-open": await orgChartOpen(path: arguments[2])
case "orgquery": await orgQueries(path: arguments[2])
case "orgchart-db": orgChartDatabase(target: arguments[2])
case "orgplace-db": orgPlaceDatabase(target: arguments[2], table: arguments.count > 3 ? arguments[3] : "people")
case "ldap": await ldapBench(people: Int(arguments[2]) ?? 100_000)
case "fields": await fields(path: arguments[2])
case "keys": await keys(path: arguments[2], count: arguments.count > 3 ? Int(arguments[3]) ?? 3000 : 3000,
                       columns: arguments.count > 4 ? Int(arguments[4]) ?? 80 : 80)
default: exit(2)
}
