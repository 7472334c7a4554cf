import Foundation
import RosterCore
import RosterStore
#if canImport(Glibc)
import Glibc
#endif

/// One edit made while a database's server could not be reached, as the
/// outbox keeps it until the server has it: one JSON line.
struct OutboxOperation: Codable, Equatable, Sendable {
    enum Kind: String, Codable, Sendable {
        case update, add, delete
    }

    /// A random UUID: the edit's idempotency key (`AppliedOperations`).
    var id: String
    var kind: Kind
    /// The person's `_id`.
    var person: String
    /// The person as the screen showed them when the edit was made, as a
    /// JSON record (nil for an add): what someone else's change meanwhile
    /// is told from, as a save from the screens does.
    var base: String?
    /// The row's version then, where the copy knew it (it does not yet:
    /// the conflict check is by values, as a screen's save is).
    var baseVersion: Int64?
    /// Field name (the query language's) to its new value; null takes a
    /// text field out again.
    var changes: [String: String?]
    /// When it was made (ISO 8601 UTC), for whoever reads the file; the
    /// order sent is the file's, never a clock's.
    var madeAt: String

    enum CodingKeys: String, CodingKey {
        case id = "operation", kind, person, base, baseVersion = "base_version", changes, madeAt = "made_at"
    }

    init(kind: Kind, person: String, base: Person?, changes: [FieldChange], id: String = UUID().uuidString, madeAt: Date = Date()) {
        self.id = id
        self.kind = kind
        self.person = person
        self.base = base.map { DirectoryExporter(format: .json).jsonLine($0).trimmingCharacters(in: .newlines) }
        self.changes = Dictionary(changes.map { ($0.field.name, Self.text(of: $0)) }, uniquingKeysWith: { $1 })
        self.madeAt = ISO8601DateFormatter().string(from: madeAt)
    }

    /// A change's value as text that `FieldCheck` reads back to it (nil: taken out).
    private static func text(of change: FieldChange) -> String? {
        switch change.value {
        case .absent: return nil
        case .text(let text): return text
        case .age(let age): return age.map(String.init) ?? ""
        case .balance(let cents): return cents.map { Balance.format(cents: $0) } ?? ""
        case .active(let active): return active.map { $0 ? "yes" : "no" } ?? ""
        }
    }

    /// The changes, checked again as any edit is (nil: one no longer reads).
    var fieldChanges: [FieldChange]? {
        var read: [FieldChange] = []
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            guard let field = EditableField(name: name) else { return nil }
            guard let value else {
                read.append(FieldChange(field: field, value: .absent))
                continue
            }
            guard let change = try? FieldCheck.change(field, value) else { return nil }
            read.append(change)
        }
        return read
    }

    /// The person as shown when the edit was made (nil for an add, or a
    /// record that no longer reads).
    var basePerson: Person? {
        guard let base, let store = try? PeopleLoader(format: .jsonLines).load(bytes: Array(base.utf8), sourceName: "outbox").store,
              store.count == 1 else { return nil }
        return store[0]
    }
}

/// Edits made to a database directory while its server could not be
/// reached (the offline copy on screen), kept until the server has them:
/// one JSON line per edit (`OutboxOperation`), in the order made, under
/// `$XDG_STATE_HOME/roster/` (default `~/.local/state/roster/`).
///
/// - Keyed as the offline copy is, by a digest of the target's
///   password-free description and its table: one target's edits never
///   reach another, and no secret is in a file name or a file.
/// - Private: mode 0600 in a folder of mode 0700, never through a link.
/// - Durable before it is said: an edit is appended and fsynced before the
///   screen calls it saved. A line cut short by a crash mid-append was
///   never called saved, and is passed over.
/// - One process writes it at a time (`FileLock`): two Rosters offline on
///   one target both append; crossing sent edits off rewrites it by rename.
struct Outbox: Sendable {
    let path: String

    init(folder: URL, targetName: String, table: String) {
        path = folder.appendingPathComponent("outbox-\(OfflineSnapshot.digest(targetName + "\u{0}" + table)).jsonl").path
    }

    /// `$XDG_STATE_HOME/roster` when it is absolute, else `~/.local/state/roster`.
    static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        PlaceStore.defaultStateFile(environment: environment).deletingLastPathComponent()
    }

    /// The edits not sent yet, in the order made (none when the file is
    /// not one to read: `read`).
    func pending() -> [OutboxOperation] {
        (try? read().get()) ?? []
    }

    /// Why the file at the outbox's name is not read: what it is, or who
    /// else could have written it ("is a symbolic link, never followed").
    struct Refusal: Error, Equatable {
        let reason: String
    }

    /// The edits not sent yet, in the order made, read as a private file
    /// is: never through a symbolic link, never from anything but a
    /// regular file this user owns and no one else may write (its edits
    /// would be applied to the server as the user's own).
    func read() -> Result<[OutboxOperation], Refusal> {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return .success([]) }
            return .failure(Refusal(reason: errno == ELOOP ? "is a symbolic link, never followed" : Descriptor.describe(errno: errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(Refusal(reason: Descriptor.describe(errno: errno))) }
        if let problem = Self.problem(with: status) { return .failure(Refusal(reason: problem)) }
        guard let bytes = FileSave.readAll(descriptor, count: Int(status.st_size)) else {
            return .failure(Refusal(reason: "could not be read whole"))
        }
        let decoder = JSONDecoder()
        // Only whole lines: a last line without its newline was cut short.
        return .success(bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().compactMap { line in
            try? decoder.decode(OutboxOperation.self, from: Data(line))
        })
    }

    /// Why a file with `status` is not a private file of this user's, or nil.
    static func problem(with status: stat) -> String? {
        guard (status.st_mode & S_IFMT) == S_IFREG else { return "is \(Platform.kind(of: status.st_mode)), not a regular file" }
        guard status.st_uid == geteuid() else { return "belongs to another user (uid \(status.st_uid))" }
        guard status.st_mode & 0o022 == 0 else { return "may be written by other users (mode \(String(status.st_mode & 0o777, radix: 8)))" }
        return nil
    }

    /// Appends `operations` and flushes them to disk; returns why not, or nil.
    func append(_ operations: [OutboxOperation]) -> String? {
        guard !operations.isEmpty else { return nil }
        guard var bytes = Self.lines(operations) else { return "an edit could not be written down" }
        return locked { () -> String? in
            // (`locked` made the folder, private, before taking the lock.)
            let folder = (path as NSString).deletingLastPathComponent
            let existed = FileManager.default.fileExists(atPath: path)
            // Read-write: the last byte is read to see whether a crash cut the last line short.
            let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return errno == ELOOP ? "it is a symbolic link, never followed" : Descriptor.describe(errno: errno) }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return Descriptor.describe(errno: errno) }
            if let problem = Self.problem(with: status) { return "it " + problem }
            _ = fchmod(descriptor, 0o600)
            // A line cut short by a crash is closed first, so that it stays apart from this one.
            if status.st_size > 0, !endsWithNewline(descriptor, size: Int(status.st_size)) { bytes.insert(UInt8(ascii: "\n"), at: 0) }
            guard Descriptor.writeAll(bytes, to: descriptor), fsync(descriptor) == 0 else { return Descriptor.describe(errno: errno) }
            if !existed { Platform.syncFolder(folder) }
            return nil
        }
    }

    /// Crosses off the edits of `ids` (sent, or given up by the user);
    /// returns why not, or nil. The file goes once it is empty.
    func remove(_ ids: Set<String>) -> String? {
        guard !ids.isEmpty else { return nil }
        return locked { () -> String? in
            let pending: [OutboxOperation]
            switch read() {
            case .success(let operations): pending = operations
            case .failure(let refusal): return "it " + refusal.reason
            }
            let kept = pending.filter { !ids.contains($0.id) }
            guard !kept.isEmpty else {
                return unlink(path) == 0 || errno == ENOENT ? nil : Descriptor.describe(errno: errno)
            }
            guard let bytes = Self.lines(kept) else { return "an edit could not be written down" }
            return Platform.writePrivateFile(bytes, to: path)
        }
    }

    /// The edits not sent yet, counted, and the people they edit.
    func unsent() -> UnsentEdits {
        let pending = pending()
        return UnsentEdits(people: Set(pending.map(\.person)), count: pending.count)
    }

    /// `operations` as the file's lines.
    private static func lines(_ operations: [OutboxOperation]) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes: [UInt8] = []
        for operation in operations {
            guard let line = try? encoder.encode(operation) else { return nil }
            bytes += line
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    private func locked(_ body: () -> String?) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        if let failure = Platform.makePrivateFolder(folder) { return failure }
        switch FileLock.acquire(for: path) {
        case .success(let lock):
            defer { lock.release() }
            return body()
        case .failure(.held(let holder)): return "the outbox is held by \(holder)"
        case .failure(.notALock(let kind)): return "its lock \(path).lock is \(kind); remove it"
        case .failure(.failed(let reason)): return reason
        }
    }

    private func endsWithNewline(_ descriptor: Int32, size: Int) -> Bool {
        var last: UInt8 = 0
        return pread(descriptor, &last, 1, off_t(size - 1)) == 1 && last == UInt8(ascii: "\n")
    }
}
