import Dispatch

extension DispatchTimeInterval {
    /// `duration` to the nanosecond, for Dispatch's deadlines and waits.
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
