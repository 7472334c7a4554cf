import CLibpq
import Dispatch
import Foundation
import RosterCore

/// Tells when another Roster (or `roster update`) saved to a PostgreSQL
/// table: every save notifies one channel in its own transaction (so the
/// notification comes at commit, once per save, never per row), and this
/// listens on a connection of its own, whose socket Dispatch polls: no
/// thread waits on it, and the table is never polled. A notification
/// carries the table's name and the saving process's token, so a save of
/// this process's own is not taken for someone else's.
///
/// Not yet: a change log to catch up from after the listening connection
/// is lost (it then simply stops; `r` reads the table again).
public final class PostgresChangeListener: TableChangeWatch, @unchecked Sendable {
    public static let channel = "roster_changes"
    /// This process, as its notifications name it.
    static let token = UUID().uuidString

    /// What a save in this process sends: the table, then the process.
    static func payload(table: String) -> String { table + "\t" + token }

    private let connection: PostgresConnection
    private let table: String
    private let queue = DispatchQueue(label: "roster.postgres-listener")
    private var source: DispatchSourceRead?

    /// Listens beside `browsing` (the same server, user and password), for
    /// saves to `table`; nil if the second connection cannot be made.
    init?(beside browsing: PostgresConnection, table: String) {
        guard let connection = try? browsing.duplicate(),
              (try? connection.execute("LISTEN \(SQLText.identifier(Self.channel))")) != nil else { return nil }
        self.connection = connection
        self.table = table
    }

    public func start(changed: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: connection.socket, queue: queue)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            guard let payloads = self.connection.takeNotifications() else {
                self.source?.cancel()  // the connection is gone: no more news from it
                return
            }
            let others = payloads.filter { payload in
                let parts = payload.split(separator: "\t", maxSplits: 1).map(String.init)
                return parts.first == self.table && parts.last != Self.token
            }
            if !others.isEmpty { changed() }
        }
        source.resume()
        self.source = source
    }

    /// Nothing to count from: saves of this process are told apart by their token.
    public func countFromNow() {}

    public func stop() {
        source?.cancel()
        source = nil
    }

    deinit {
        source?.cancel()
    }
}
