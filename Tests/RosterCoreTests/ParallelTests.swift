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

@Suite("A value behind a lock")
struct LockedTests {
    @Test("increments from many threads at once all land")
    func contended() {
        let counter = Locked(0)
        _ = Parallel.map(8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test("what the body throws reaches the caller, and the lock is free again")
    func throwing() {
        struct Refused: Error {}
        let value = Locked([1, 2])
        #expect(throws: Refused.self) { try value.withLock { _ throws(Refused) in throw Refused() } }
        #expect(value.withLock { $0 } == [1, 2])
    }
}
