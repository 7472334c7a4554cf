import Dispatch

/// Work split across the cores, each part returning its own value.
public enum Parallel {
    /// `part(0)`, `part(1)`, … `part(count - 1)` run at once
    /// (`DispatchQueue.concurrentPerform`), their results in index order.
    ///
    /// Each part writes only its own slot of the result, so the parts share
    /// nothing they write and wait on no lock as they finish.
    public static func map<Result>(_ count: Int, _ part: @Sendable (Int) -> Result) -> [Result] {
        // With no parts, the array would be the shared empty one, whose
        // count the initializer writes: ThreadSanitizer reports that write.
        guard count > 0 else { return [] }
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Safe: part `index` initializes slot `index` and nothing else,
            // and concurrentPerform returns only after every part has.
            nonisolated(unsafe) let slots = buffer.baseAddress
            DispatchQueue.concurrentPerform(iterations: count) { index in
                (slots! + index).initialize(to: part(index))
            }
            initialized = count
        }
    }
}
