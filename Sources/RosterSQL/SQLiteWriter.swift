import Foundation
import RosterCore

/// The one connection this process writes an SQLite table through, kept
/// open from the first save on: every save of the screens goes through it,
/// and the change watch asks it, not a connection of its own, whether the
/// file moved on. SQLite's `PRAGMA data_version` moves for every commit
/// but the asking connection's own: so a commit of another program is
/// told from one of ours by what was written, never by when (a save of
/// someone else's a moment after ours is not taken for ours).
final class SQLiteWriter: @unchecked Sendable {
    // Unchecked: the connection is only touched under `lock`.
    let path: String
    private let lock = NSLock()
    private var connection: SQLiteConnection?
    /// Where the file cannot be written (nor then saved to): a read-only
    /// connection that tells of every commit, all of them others'.
    private var reader: SQLiteConnection?

    init(path: String) {
        self.path = path
    }

    /// Runs `body` with the writing connection, opened (read-write) the
    /// first time; one caller at a time.
    func write<Result>(_ body: (SQLiteConnection) throws(EditFailure) -> Result) throws(EditFailure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        let connection: SQLiteConnection
        do throws(DatabaseError) {
            connection = try opened()
        } catch {
            throw EditFailure(.readOnly, "\(path) cannot be written (\(ConnectionTrouble.words(for: error)))")
        }
        return try body(connection)
    }

    /// Where the file stands as the writing connection sees it.
    struct Version: Equatable {
        /// The file asked (another when another program replaced it).
        let file: SQLiteFileIdentity?
        /// `PRAGMA data_version`: it moves when a commit other than this
        /// connection's landed.
        let number: Int64
    }

    /// The file's version as the writing connection sees it. Nil when the
    /// file cannot be read.
    func othersVersion() -> Version? {
        lock.lock()
        defer { lock.unlock() }
        if reader?.isFileReplaced == true { reader = nil }
        let asked = (try? opened()) ?? reader ?? (try? SQLiteConnection(path: path, access: .readOnly, busyTimeout: Self.askingPatience))
        if connection == nil { reader = asked }
        // Asking waits on another writer's lock briefly (a save of ours would wait behind it), then asks again next time.
        asked?.setBusyTimeout(Self.askingPatience)
        defer { asked?.setBusyTimeout(Self.savingPatience) }
        guard let asked, let number = (try? asked.query("PRAGMA data_version"))?.first?.int(0) else { return nil }
        return Version(file: asked.openedFile, number: number)
    }

    /// How long a save waits on another writer's lock.
    static let savingPatience: Duration = .seconds(5)
    /// How long the watch's question waits on it.
    static let askingPatience: Duration = .milliseconds(200)

    private func opened() throws(DatabaseError) -> SQLiteConnection {
        // A file another program put in the old one's place is the one saved to (and asked) from now on.
        if let connection, !connection.isFileReplaced { return connection }
        // Never made here: a file gone since it was opened is not written anew.
        if let missing = SQLPeopleRepository.missingFile(path) { throw missing }
        let made = try SQLiteConnection(path: path, access: .readWrite, busyTimeout: Self.savingPatience)
        connection = made
        return made
    }
}
