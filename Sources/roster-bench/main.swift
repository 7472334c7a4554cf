import Foundation
import RosterCore

let path = CommandLine.arguments[1]
let start = ContinuousClock.now
let loaded = try await PeopleLoader().load(path: path, sourceName: path)
let loadedAt = ContinuousClock.now
let grouped = GroupedPeople(store: loaded.store)
let groupedAt = ContinuousClock.now
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
print("people \(loaded.store.count) skipped \(loaded.skipped.count) sections \(grouped.sections.count)")
print("parse \(loaded.parseDuration) store \(loaded.storeDuration) load \(loadedAt - start) group \(groupedAt - loadedAt) maxrss \(usage.ru_maxrss / 1024) MiB")
for p in grouped.order.prefix(3) { print(loaded.store[Int(p)].fullName, loaded.store[Int(p)].company) }
