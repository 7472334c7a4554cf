import Foundation
import RosterCore

/// Which file a path names: its device and inode. An SQLite connection
/// keeps reading the file it opened after another program put another
/// file at its path (a restore from a backup, `mv new.db people.db`, a
/// sync tool), so the file is told by this, not by its name.
struct SQLiteFileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` now; nil when it names nothing.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// A browsing connection to an SQLite file that follows the file when
/// another program replaces it: `reconnect` (a re-read's, `r`'s) opens
/// the file now at the path in the old one's place, so the screen shows
/// what everyone else sees, not the file only Roster still holds open.
/// One task at a time uses it, as its lane sees to.
final class SQLiteFileSession: PeopleDatabaseSession {
    private(set) var connection: SQLiteConnection
    private let open: () throws(DatabaseError) -> SQLiteConnection
    private let following: FollowingInterrupter

    /// A session on the connection `open` makes (and makes again for a replaced file).
    init(_ open: @escaping () throws(DatabaseError) -> SQLiteConnection) throws(DatabaseError) {
        connection = try open()
        self.open = open
        following = FollowingInterrupter(connection.interruptHandle)
    }

    func rows(_ sql: String, _ parameters: [SQLValue]) throws(DatabaseError) -> [SQLRow] {
        try connection.query(sql, parameters)
    }

    func forEachTextRow(_ sql: String, _ parameters: [SQLValue], _ body: (SQLColumnText) -> Void) throws(DatabaseError) {
        try connection.forEachTextRow(sql, parameters, body)
    }

    var interrupter: any StatementInterrupter { following }

    /// A file has no server to lose; a file replaced is opened anew.
    func reconnect(statementTimeout: Duration) throws(DatabaseError) {
        guard connection.isFileReplaced else { return }
        let fresh = try open()
        connection = fresh
        following.follow(fresh.interruptHandle)
    }
}

/// Interrupts whichever connection a `SQLiteFileSession` has now; the
/// lane holds this one for good while the connection under it changes.
private final class FollowingInterrupter: StatementInterrupter {
    private let current: Locked<SQLiteInterruptHandle>

    init(_ handle: SQLiteInterruptHandle) {
        current = Locked(handle)
    }

    func follow(_ handle: SQLiteInterruptHandle) {
        current.withLock { $0 = handle }
    }

    func interruptStatement(within patience: Duration) -> Bool {
        current.withLock { $0 }.interruptStatement(within: patience)
    }

    func abandonConnection() {}
}
