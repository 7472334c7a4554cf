/// People as the user last saw them, by record `_id` (a server's offline
/// copy, taken again from what was read while the connection worked):
/// what a whole person is read from while the connection is lost, so that
/// the person's screen and the editors (`E`, `v`, `D`) still open on the
/// people the list shows, and an edit made then (kept in the outbox) is
/// based on the values the user saw.
public protocol LastSeenPeople: Sendable {
    /// The person whose record's `_id` is `recordID`, as last seen; nil
    /// when they were not (or nothing was kept).
    func person(recordID: String) async -> Person?
}
