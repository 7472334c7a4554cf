// roster-bench: in-process measurements for `make bench` (bench/run.sh).
//
//     roster-bench phases FILE     load phases and time to a first frame
//     roster-bench keys FILE N     key-to-frame latency over N scripted keys
//     roster-bench search FILE     search latency per keystroke (typed queries)
//     roster-bench sorts FILE      time to re-sort by each order, grouped and flat
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
    let app = AppDependencies(screen: screen, interactor: StubListInteractor(.success(loaded)), sourceName: path,
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
func keys(path: String, count: Int) async {
    guard let loaded = try? await PeopleLoader().load(path: path, sourceName: path) else { exit(1) }
    let screen = MemoryScreen(rows: 24, columns: 80)
    let app = AppDependencies(screen: screen, interactor: StubListInteractor(.success(loaded)), sourceName: path,
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

/// Types queries a key at a time, each narrowing the last, as the app does.
@MainActor
func search(path: String) async {
    guard let loaded = try? await PeopleLoader().load(path: path, sourceName: path) else { exit(1) }
    let repository = InMemoryPeopleRepository(loaded)
    let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
    var latencies: [Double] = []
    for typed in ["sanchez", "jose", "malmö", "604-", "comstar", "zz"] {
        var previous: PeopleArrangement?
        for length in 1...typed.count {
            let query = SearchQuery(String(typed.prefix(length)))
            let clock = ContinuousClock()
            var result: PeopleArrangement?
            let elapsed = clock.measure {
                result = repository.searchNow(query, in: everyone, within: previous)
            }
            let (whole, attoseconds) = elapsed.components
            latencies.append(Double(whole) * 1000 + Double(attoseconds) / 1e15)
            if let result { previous = result }
        }
    }
    latencies.sort()
    print("search_keystrokes=\(latencies.count)")
    print("search_p50_ms=\(String(format: "%.1f", latencies[latencies.count / 2]))")
    print("search_max_ms=\(String(format: "%.1f", latencies.last ?? 0))")
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

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: roster-bench phases FILE | keys FILE N\n".utf8))
    exit(2)
}
switch arguments[1] {
case "phases": await phases(path: arguments[2])
case "search": await search(path: arguments[2])
case "sorts": await sorts(path: arguments[2])
case "keys": await keys(path: arguments[2], count: arguments.count > 3 ? Int(arguments[3]) ?? 3000 : 3000)
default: exit(2)
}
