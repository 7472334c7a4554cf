import Foundation
import RosterCore
import RosterSQL

/// The last copy Roster kept of a database directory, for when the server
/// cannot be reached: one JSON Lines file per target under
/// `$XDG_CACHE_HOME/roster/` (default `~/.cache/roster/`), which the file
/// loader reads like any other.
///
/// - Keyed by a digest of the target's password-free description (and its
///   table), so no secret is ever in a file name or a file.
/// - Bounded: a directory of more than 200,000 people, or whose JSON
///   Lines pass 64 MiB, is not copied (a partial copy would
///   show a directory that never was); the earlier copy, dated, stays.
/// - Written atomically (`Platform.writePrivateFile`: a temporary file,
///   then rename), mode 0600 in a folder of mode 0700 whatever they were,
///   never through a symbolic link.
/// - Takes any `PeopleRepository`, read a window at a time in browse order.
struct OfflineSnapshot {
    static let defaultMaximumPeople = 200_000
    static let defaultMaximumBytes = 64 << 20

    /// A copy found on disk: where, and when it was taken.
    struct Copy: Equatable {
        let path: String
        let takenAt: Date
    }

    enum SaveOutcome: Equatable {
        case saved(people: Int)
        /// More people than `maximumPeople`, or more bytes than `maximumBytes`.
        case tooLarge
        case failed(String)
    }

    let folder: URL
    /// How the title names the directory: `postgres://ann@db/hr`, never a password.
    let targetName: String
    let path: String
    let maximumPeople: Int
    let maximumBytes: Int

    /// `targetName` must come without secrets (`DatabaseTarget.displayName`);
    /// `table` tells apart two tables of one database.
    init(folder: URL, targetName: String, table: String, maximumPeople: Int = Self.defaultMaximumPeople,
         maximumBytes: Int = Self.defaultMaximumBytes) {
        self.folder = folder
        self.maximumPeople = maximumPeople
        self.maximumBytes = maximumBytes
        self.targetName = targetName
        let key = Self.digest(targetName + "\u{0}" + table)
        path = folder.appendingPathComponent("directory-\(key).jsonl").path
    }

    /// `$XDG_CACHE_HOME/roster` when it is absolute, else `~/.cache/roster`.
    static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return URL(fileURLWithPath: cache).appendingPathComponent("roster")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/roster")
    }

    /// Copies everyone `repository` holds, in browse order, over the last
    /// copy; not at all when `isIntact` says, once all is read, that what
    /// was read cannot be trusted (the connection was lost meanwhile).
    /// `read` hears of each window read (the exit waits while they come).
    func save(_ repository: any PeopleRepository, isIntact: () -> Bool = { true }, read: () -> Void = {}) async -> SaveOutcome {
        guard repository.personCount <= maximumPeople else { return .tooLarge }
        let everyone = repository.arrange(sort: .byLastName, byCompany: true, company: nil)
        let exporter = DirectoryExporter(format: .json)
        var bytes: [UInt8] = []
        var tooLarge = false
        let pass = await repository.readAll(in: everyone) { people in
            read()
            for person in people { bytes += exporter.jsonLine(person).utf8 }
            tooLarge = bytes.count > maximumBytes
            return !tooLarge
        }
        if tooLarge { return .tooLarge }
        if let failure = pass.failure { return .failed("the copy could not be read whole (\(failure.reason))") }
        let count = pass.read
        guard isIntact() else { return .failed("the connection was lost while the copy was read") }
        if let failure = Platform.writePrivateFile(bytes, to: path) {
            return .failed("\(path): \(failure)")
        }
        return .saved(people: count)
    }

    /// The copy on disk, if there is one (a regular file).
    func latest() -> Copy? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let modified = attributes[.modificationDate] as? Date else { return nil }
        return Copy(path: path, takenAt: modified)
    }

    /// The title-bar name of a copy: "offline as of 14:02, r reconnects —
    /// postgres://ann@db/hr" (with the date when it is not today's): the
    /// state and the time first, so a narrow title shortens the target.
    func bannerName(for copy: Copy, now: Date = Date(), timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let time = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: copy.takenAt)
        let clock = String(format: "%02d:%02d", time.hour ?? 0, time.minute ?? 0)
        let day = calendar.isDate(copy.takenAt, inSameDayAs: now)
            ? "" : String(format: "%04d-%02d-%02d ", time.year ?? 0, time.month ?? 0, time.day ?? 0)
        return "offline as of \(day)\(clock), r reconnects — \(targetName)"
    }

    /// FNV-1a, 64 bits, as 16 hex digits: a stable name, not a secret.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// What `roster TARGET` opens when the database cannot be reached: the
/// last copy, named by its banner, or the one-line reason to exit 1 with.
/// The seam the database browse path calls after a failed connect.
enum OfflineFallback {
    /// Only an unreachable server falls back; a wrong password, a missing
    /// table or a table of another shape is an error to fix, not to hide.
    static func source(after failure: DatabaseError, snapshot: OfflineSnapshot, now: Date = Date(),
                       timeZone: TimeZone = .current) -> Result<DirectorySource, FallbackFailure> {
        guard [.cannotConnect, .connectionLost].contains(failure.kind) else { return .failure(FallbackFailure(message: failure.message)) }
        guard let copy = snapshot.latest() else {
            return .failure(FallbackFailure(message: failure.message + " (and no offline copy of \(snapshot.targetName) was kept)"))
        }
        return .success(.file(path: copy.path, name: snapshot.bannerName(for: copy, now: now, timeZone: timeZone)))
    }

    struct FallbackFailure: Error, Equatable {
        let message: String
    }
}
