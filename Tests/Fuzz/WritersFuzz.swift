// libFuzzer target for the writers (`make fuzz`): any bytes become a person
// (fields split at NUL bytes), written as CSV, JSON and vCard; each must read
// back to the same text, and nothing the data holds may break a line or a
// record. Built like LoaderFuzz.swift; kept inputs live in
// writer-regressions/ and are replayed by RosterCoreTests.
import Foundation

public func fuzzWriters(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let person = FuzzedPerson.person(from: Array(UnsafeBufferPointer(start: data, count: size)))
    if let problem = FuzzedPerson.roundTripProblem(person) { fatalError(problem) }
    return 0
}
