import Dispatch
import RosterCore

/// How a read of the database leaves its caller: every read of the
/// repository (`rows`, `person`, the counts…) runs through `offCaller`.
extension SQLPeopleRepository {
    /// Runs `read`, which blocks on the database, on a thread of its own,
    /// while the caller's task waits without holding a thread: never the
    /// caller's thread, nor Swift's cooperative pool, which a blocking C call
    /// holds.
    ///
    /// Each read gets a serial queue of its own, which Dispatch serves from
    /// its overcommitting pool: a thread is found even while other reads'
    /// statements keep every core busy. (A concurrent queue is served from
    /// the pool sized to the cores: two long statements, a count here and a
    /// search there, kept a third read from starting for minutes.) The
    /// browse lane runs one statement at a time anyway; what each read makes
    /// of its rows is done side by side (`--list` formats two runs of
    /// companies at once).
    func offCaller<T: Sendable>(_ read: @escaping @Sendable () throws(RepositoryError) -> T) async throws(RepositoryError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, RepositoryError>, Never>) in
            DispatchQueue(label: "roster.database.read", qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(RepositoryError) -> T in try read() })
            }
        }
        return try result.get()
    }
}
