// roster-bench orgchart FILE: the org chart's model over a file roster-gen
// made with --managers (id, email or name): resolving every manager, the
// tree, opening at a person, keys, searches, and --list --tree's text
// against plain --list's. Prints key=value lines (milliseconds).
import Foundation
import RosterCore
import RosterStore
import TestSupport

/// Identifiers from the loaded store; manager references from the file's
/// `"manager": "…"` lines (the loader does not read that key yet).
struct StoreReferenceSource: PersonReferenceSource {
    let store: PeopleStore
    let file: Data
    /// Where each person's manager reference lies in `file` (empty: none).
    let managerStarts: [Int]
    let managerLengths: [Int32]

    var count: Int { store.count }

    init(store: PeopleStore, file: Data) {
        self.store = store
        self.file = file
        let pattern = Array(#""manager": ""#.utf8)
        var starts = [Int](repeating: 0, count: store.count)
        var lengths = [Int32](repeating: 0, count: store.count)
        file.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for person in 0..<store.count {
                let start = store.fileOffset(of: person)
                let end = person + 1 < store.count ? store.fileOffset(of: person + 1) : bytes.count
                guard let found = Self.find(pattern, in: bytes, from: start, to: end) else { continue }
                var close = found + pattern.count
                while close < end, bytes[close] != UInt8(ascii: "\"") { close += 1 }
                starts[person] = found + pattern.count
                lengths[person] = Int32(close - starts[person])
            }
        }
        managerStarts = starts
        managerLengths = lengths
    }

    private static func find(_ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var index = start
        while index + pattern.count <= end {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    func forEachIdentifier(_ kind: PersonReferenceKind, of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        switch kind {
        case .id: store.withBytes(.id, of: person, body)
        case .email: store.withBytes(.email, of: person, body)
        case .distinguishedName: break
        case .name:
            store.withBytes(.firstName, of: person) { first in
                store.withBytes(.lastName, of: person) { last in
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: first.count + last.count + 1) { name in
                        _ = name.initialize(fromContentsOf: first)
                        name[first.count] = UInt8(ascii: " ")
                        _ = UnsafeMutableBufferPointer(rebasing: name[(first.count + 1)...]).initialize(fromContentsOf: last)
                        body(UnsafeBufferPointer(name))
                    }
                }
            }
        }
    }

    func withManagerReference(of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let length = Int(managerLengths[person])
        guard length > 0 else { return }
        file.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            body(UnsafeBufferPointer(rebasing: bytes[managerStarts[person]..<(managerStarts[person] + length)]))
        }
    }
}

/// Resident memory now (not the peak), in MiB.
func residentMiB() -> Double {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
          let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let result = try body()
    return (result, milliseconds(ContinuousClock.now - start))
}

func report(_ name: String, _ value: Double) { print("\(name)=\(String(format: "%.2f", value))") }

/// Runs `body`, printing its wall time (`NAME_ms`) and the CPU time of the
/// whole process meanwhile (`NAME_cpu_ms`, both cores': steadier on a
/// shared machine).
func measured<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
    let cpu = cpuMilliseconds()
    let (result, wall) = try timed(body)
    report("\(name)_ms", wall)
    report("\(name)_cpu_ms", cpuMilliseconds() - cpu)
    return result
}

func reportSpread(_ name: String, _ values: [Double]) {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return }
    report("\(name)_p50_ms", sorted[sorted.count / 2])
    report("\(name)_p99_ms", sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
    report("\(name)_max_ms", sorted[sorted.count - 1])
}

@MainActor
func orgChart(path: String) async {
    guard let loaded = try? await PeopleLoader().load(path: path, sourceName: path),
          let file = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { exit(1) }
    let store = loaded.store
    let source = StoreReferenceSource(store: store, file: file)
    print("people=\(store.count)")
    // The way the app resolves: the id table, the others only if needed.
    let (resolution, needed) = measured("resolve_as_needed") { ManagerResolution.resolve(source) }
    print("kinds_indexed=\(needed.kinds.map(\.noun).joined(separator: ","))")
    // Every table, as an edit's check needs them.
    let before = residentMiB()
    let index = measured("index_every_kind") { PersonReferenceIndex(source) }
    report("index_tables_mib", Double(index.memoryBytes) / 1_048_576)
    report("index_rss_growth_mib", residentMiB() - before)
    _ = measured("resolve_with_every_kind") { ManagerResolution(index) }
    let counts = resolution.problemCounts
    print("missing=\(counts.missing) ambiguous=\(counts.ambiguous) self=\(counts.selfReferences)")
    compareWithDictionary(store: store)
    let grouped = GroupedPeople(store: store, sort: .byLastName, byCompany: true)
    var listRank = [Int32](repeating: 0, count: store.count)
    for (rank, person) in grouped.order.enumerated() { listRank[Int(person)] = Int32(rank) }
    _ = measured("tree_by_person_number") { OrgTree(resolution) }
    let tree = measured("tree_in_list_order") { OrgTree(resolution, order: .keys(listRank)) }
    let deepest = (0..<tree.count).max { tree.depth(of: $0) < tree.depth(of: $1) } ?? 0
    print("depth_max=\(tree.depth(of: deepest)) roots=\(tree.roots.count) cycles=\(tree.cycles.count)"
          + " top_team=\(tree.teamSize(of: Int(tree.roots[0])))")
    browse(tree)
    searches(tree, store: store)
    await text(tree, resolution: resolution, index: index, store: store, loaded: loaded, listRank: listRank)
}

/// The same identifiers (ids, emails, names) in `[String: Int32]`s: time
/// and memory, against the tables'.
func compareWithDictionary(store: PeopleStore) {
    let before = residentMiB()
    let dictionaries = measured("dictionaries") {
        [TextField.id, .email, .lastName].map { field in
            var dictionary: [String: Int32] = [:]
            dictionary.reserveCapacity(store.count)
            for person in 0..<store.count {
                let key = field == .lastName ? store.text(.firstName, of: person) + " " + store.text(.lastName, of: person)
                    : store.text(field, of: person)
                dictionary[key] = Int32(person)
            }
            return dictionary
        }
    }
    report("dictionaries_rss_growth_mib", residentMiB() - before)
    withExtendedLifetime(dictionaries) {}
}
