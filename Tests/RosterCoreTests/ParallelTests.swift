import Synchronization
import Testing
@testable import RosterCore

@Suite("Work split across the cores")
struct ParallelTests {
    @Test("every part runs once and its result lands in its own slot", arguments: [0, 1, 2, 3, 64])
    func resultsInIndexOrder(count: Int) {
        let runs = Atomic(0)
        let results = Parallel.map(count) { index in
            runs.add(1, ordering: .relaxed)
            return [index, index * index]
        }
        #expect(results == (0..<count).map { [$0, $0 * $0] })
        #expect(runs.load(ordering: .relaxed) == count)
    }
}
