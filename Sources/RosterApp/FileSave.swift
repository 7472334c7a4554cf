import Foundation
import Synchronization
import RosterCore
import RosterStore
#if canImport(Glibc)
import Glibc
#endif

/// Saves a change to a directory file without losing anyone's: under the
/// file's lock (`FileLock`), the file is read afresh, the change applied to
/// its records (`RecordFile`: every other record keeps its bytes), and the
/// result written to a temporary file beside it, flushed and renamed over
/// it (`Platform.writeFile`: mode and owner kept, a symbolic link's target
/// written). A file changed by another program between the read and the
/// rename (same device, inode, size and modification time to the
/// nanosecond, or not) is read again and the change made again. A file
/// modified within a second of the read is also compared byte for byte
/// before the rename (git's "racily clean" rule): a same-size write in the
/// same clock tick leaves the modification time as it was.
enum FileSave {
    /// The files this process's last saves left (device, inode, size and
    /// modification time as written), the latest last: a file found so on
    /// a change event is ours, whose own re-read shows it. Told apart by
    /// what was written, never by when: another program's write a moment
    /// after ours leaves another file (`isOwnWrite`).
    private static let ownWrites = Locked<[FileIdentity]>([])

    /// Whether `identity` is a file one of this process's saves left.
    static func isOwnWrite(_ identity: FileIdentity) -> Bool {
        ownWrites.withLock { $0.contains(identity) }
    }

    /// Saves under way: quitting waits for them (`finishSaves`), so that
    /// a save the user confirmed is never cut short by a `q` meanwhile.
    private static let underWay = DispatchGroup()
    private static let underWayCount = Atomic<Int>(0)

    /// How the last save ended, when it did not save.
    private static let lastRefusal = Locked<String?>(nil)

    /// Waits for the saves under way to end (two minutes at most: a save
    /// is bounded by the lock's patience and one copy of the file), saying
    /// so, and how they ended.
    static func finishSaves(saying say: (String) -> Void) {
        guard underWayCount.load(ordering: .acquiring) > 0 else { return }
        lastRefusal.withLock { $0 = nil }
        say("roster: finishing the save under way, so that it is not lost…")
        guard underWay.wait(timeout: .now() + 120) == .success else { return say("roster: the save is still not done; it is left to finish or fail alone") }
        say(lastRefusal.withLock { $0 }.map { "roster: not saved: " + $0 } ?? "roster: saved")
    }

    enum Outcome: Equatable {
        case saved
        /// Nothing written; the message names the file and why.
        case refused(String)
        /// Nothing written: someone else changed a field this edit changes;
        /// `theirs` is the person as the file holds them now.
        case conflict(String, theirs: Person?)
    }

    /// `rewritten` hears, once an update is saved by rewriting its record
    /// alone, what a re-read needs to read only that record again.
    /// `base`, for an update: the person as the user saw them; a field
    /// changed since by someone else, and by this edit too, is a conflict.
    /// `deleting`, for a delete: the people as the user saw them; one
    /// changed since is a conflict, and nobody is deleted. `removed`
    /// hears, once a delete is saved, the records it took out (an undo
    /// puts them back as they were). `found` hears, once an update or a
    /// delete is saved, the people it changed as the file held them just
    /// before (what `roster update` says it changed). `managerSet` hears,
    /// once a manager change is saved (or found to change nothing), the
    /// reference before and after.
    static func save(_ operation: RecordOperation, to path: String, format: InputFormat?, backup: Bool,
                     base: Person? = nil, deleting: [Person] = [], known: KnownRecord? = nil, progress: SaveProgress? = nil,
                     removed: (([RemovedRecord]) -> Void)? = nil, rewritten: ((RecordRewrite) -> Void)? = nil,
                     found: (([Person]) -> Void)? = nil, managerSet: ((RecordFile.ManagerSetting) -> Void)? = nil,
                     patience: Duration = .seconds(5), meanwhile: (() -> Void)? = nil) -> Outcome {
        progress?.begin(total: 0)  // nothing said yet: not the last save's 100%
        underWay.enter()
        underWayCount.add(1, ordering: .releasing)
        let outcome = saveLocked(operation, to: path, format: format, backup: backup, base: base, deleting: deleting, known: known,
                                 progress: progress, removed: removed, rewritten: rewritten, found: found, managerSet: managerSet,
                                 patience: patience, meanwhile: meanwhile)
        switch outcome {
        case .saved: break
        case .refused(let message), .conflict(let message, _): lastRefusal.withLock { $0 = message }
        }
        underWayCount.subtract(1, ordering: .releasing)
        underWay.leave()
        return outcome
    }

    private static func saveLocked(_ operation: RecordOperation, to path: String, format: InputFormat?, backup: Bool,
                                   base: Person?, deleting: [Person], known: KnownRecord?, progress: SaveProgress?,
                                   removed: (([RemovedRecord]) -> Void)?, rewritten: ((RecordRewrite) -> Void)?, found: (([Person]) -> Void)?,
                                   managerSet: ((RecordFile.ManagerSetting) -> Void)?, patience: Duration, meanwhile: (() -> Void)?) -> Outcome {
        var status = stat()
        guard stat(path, &status) == 0 else { return .refused("\(path): \(Descriptor.describe(errno: errno)); nothing written") }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return .refused("\(path): it is \(Platform.kind(of: status.st_mode)), not a regular file; nothing written")
        }
        guard let resolved = realpath(path, nil) else { return .refused("\(path): \(Descriptor.describe(errno: errno)); nothing written") }
        let target = String(cString: resolved)
        free(resolved)
        guard access(target, W_OK) == 0, access((target as NSString).deletingLastPathComponent, W_OK) == 0 else {
            return .refused("\(path): Roster may not write this file (or its folder); nothing written")
        }
        let lock: FileLock
        switch FileLock.acquire(for: target, patience: patience) {
        case .success(let held): lock = held
        case .failure(.held(let holder)):
            return .refused("\(path) is being saved by \(holder) (its lock is \(target).lock); nothing written, try again")
        case .failure(.notALock(let kind)):
            // Named as it stands beside the file the user named (in full when that is a link to elsewhere).
            let lock = (lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK ? target : (target as NSString).lastPathComponent)
            return .refused("\(path): its lock \(lock).lock is \(kind); remove it to save; nothing written")
        case .failure(.failed(let reason)):
            return .refused("\(path): cannot make its lock \(target).lock (\(reason)); nothing written")
        }
        defer { lock.release() }
        LeftoverFiles.remove(beside: target)
        if let known, !backup, case .update(let id, let changes) = operation,
           let outcome = updateInPlace(id: id, changes: changes, known: known, path: path, target: target, format: format, base: base,
                                       progress: progress, rewritten: rewritten, found: found, meanwhile: meanwhile) {
            return outcome
        }
        for _ in 0..<3 {
            switch attempt(operation, path: path, target: target, format: format, backup: backup, base: base, deleting: deleting,
                           progress: progress, removed: removed, found: found, managerSet: managerSet, meanwhile: meanwhile) {
            case .some(let outcome): return outcome
            case .none: continue  // changed underneath: again, from what it holds now
            }
        }
        return .refused("\(path) kept changing while Roster saved it; nothing written")
    }

    /// One read, change and write; nil when the file changed before the
    /// rename. `meanwhile` runs just before that check (a test's other program).
    private static func attempt(_ operation: RecordOperation, path: String, target: String, format: InputFormat?,
                                backup: Bool, base: Person?, deleting: [Person], progress: SaveProgress?,
                                removed: (([RemovedRecord]) -> Void)?, found: (([Person]) -> Void)?,
                                managerSet: ((RecordFile.ManagerSetting) -> Void)?, meanwhile: (() -> Void)?) -> Outcome? {
        let readAt = Date()
        guard let (bytes, identity, source) = read(target) else { return .refused("\(path): \(Descriptor.describe(errno: errno)); nothing written") }
        defer { close(source) }
        return bytes.withUnsafeBufferPointer { buffer -> Outcome? in
            let format = format ?? InputFormat(extensionOf: path) ?? InputFormat(sniffing: buffer)
            let pieces: [FilePiece]
            var taken: [RemovedRecord] = []
            var before: [Person] = []
            var manager: RecordFile.ManagerSetting?
            do throws(EditFailure) {
                let file = try RecordFile(bytes: buffer, format: format, sourceName: path)
                if let conflict = conflict(of: operation, in: file, buffer, base: base, deleting: deleting) { return conflict }
                if let unchanged = unchanged(by: operation, in: file, buffer) {
                    found?([unchanged])
                    return .saved
                }
                if case .setManager(let id, let reference) = operation {
                    let (setting, changed) = try file.settingManager(of: id, to: reference, in: buffer, sourceName: path)
                    guard let changed else {
                        managerSet?(setting)
                        return .saved  // the reference it has already: nothing written
                    }
                    (manager, pieces) = (setting, changed)
                } else {
                    pieces = try file.applying(operation, to: buffer, sourceName: path)
                }
                if case .delete(let ids) = operation, removed != nil { taken = file.removing(ids, in: buffer) }
                if found != nil { before = operation.changedIDs.compactMap { file.person(id: $0, in: buffer) } }
            } catch {
                return .refused(error.message)
            }
            if backup, let failure = Platform.writeFile(bytes, to: target + "~", replacing: true, newFileMode: identity.mode) {
                return .refused("\(path): cannot keep a backup in \(target)~ (\(failure)); nothing written")
            }
            let outcome = replace(path: path, target: target, with: pieces, from: source, identity: identity, progress: progress,
                                  meanwhile: meanwhile) {
                !identity.isRecent(before: readAt) || Self.holds(target, bytes)
            }
            if outcome == .saved {
                removed?(taken)
                found?(before)
                if let manager { managerSet?(manager) }
            }
            return outcome
        }
    }

    /// Why `operation` may not be made to `file` as it is now: a field
    /// this edit changes that someone else changed since `base`, a person
    /// gone, or one of `deleting` changed.
    static func conflict(of operation: RecordOperation, in file: RecordFile, _ buffer: UnsafeBufferPointer<UInt8>,
                         base: Person?, deleting: [Person]) -> Outcome? {
        if let base, let id = operation.updatedID, !file.contains(id: id) {
            return .conflict("\(DisplayText.sanitized(base.fullName)) was deleted by someone else meanwhile; nothing saved", theirs: nil)
        }
        if let base, case .update(let id, let changes) = operation, let current = file.person(id: id, in: buffer) {
            let changed = current.conflicts(with: changes, base: base)
            if !changed.isEmpty {
                let fields = changed.map { "\($0.name) to '\(DisplayText.sanitized(current.value(of: $0)))'" }.joined(separator: ", ")
                return .conflict("changed meanwhile: \(fields)", theirs: current)
            }
        }
        for person in deleting where file.person(id: person.id, in: buffer).map({ $0.differs(from: person) }) ?? false {
            return .conflict("someone else changed \(DisplayText.sanitized(person.fullName)) meanwhile", theirs: nil)
        }
        return nil
    }

    /// The person an update leaves as they are (every value it sets is
    /// theirs already), as the file holds them; nil for any other edit.
    /// Such an update is not written at all: the file, and its time, stay.
    static func unchanged(by operation: RecordOperation, in file: RecordFile, _ buffer: UnsafeBufferPointer<UInt8>) -> Person? {
        guard case .update(let id, let changes) = operation, let current = file.person(id: id, in: buffer),
              current.effective(changes).isEmpty else { return nil }
        return current
    }

    /// Writes `pieces` (stretches of `source`, and new bytes) to a
    /// temporary file and renames it over `target`, unless the file is no
    /// longer the one read (nil: read it again). `isStill` adds the
    /// caller's own check of that. (A stretch copied from a file changed
    /// meanwhile is caught before the rename.) `progress` follows the bytes written.
    static func replace(path: String, target: String, with pieces: [FilePiece], from source: Int32, identity: FileIdentity,
                        progress: SaveProgress?, meanwhile: (() -> Void)?, wrote: ((FileIdentity) -> Void)? = nil,
                        isStill: () -> Bool) -> Outcome? {
        var changedUnderneath = false
        var written = 0
        progress?.begin(total: pieces.reduce(0) { total, piece in
            switch piece {
            case .original(let range): total + range.count
            case .new(let text): total + text.count
            }
        })
        var landed: FileIdentity?
        let failure = Platform.writeFile(to: target, replacing: true, beforeReplacing: {
            meanwhile?()
            changedUnderneath = FileIdentity(path: target) != identity || !isStill()
            return changedUnderneath ? "changed" : nil
        }, contents: { descriptor in
            defer {
                // The file as written (a rename keeps it): what a re-read checks it still is.
                var status = stat()
                if fstat(descriptor, &status) == 0 { landed = FileIdentity(status) }
            }
            return pieces.allSatisfy { piece in
                switch piece {
                case .original(let range):
                    defer { written += range.count }
                    return Descriptor.copyAll(range, of: source, to: descriptor) { copied in
                        Descriptor.startWriteback(of: descriptor)
                        progress?.advance(to: written + copied)
                    }
                case .new(let text):
                    written += text.count
                    progress?.advance(to: written)
                    return Descriptor.writeAll(text, to: descriptor)
                }
            }
        })
        if changedUnderneath { return nil }
        if let failure { return .refused("\(path): could not be saved (\(failure)); it is as it was") }
        if let landed {
            ownWrites.withLock { $0 = Array(($0 + [landed]).suffix(8)) }
            wrote?(landed)
        }
        return .saved
    }

    /// The whole file, what it was when read, and its open descriptor
    /// (the unchanged stretches are copied from it).
    private static func read(_ path: String) -> ([UInt8], FileIdentity, Int32)? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        // Opened without waiting (something swapped in since the check may be a FIFO); only a regular file is read.
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              let bytes = readAll(descriptor, count: Int(status.st_size)) else {
            close(descriptor)
            return nil
        }
        return (bytes, FileIdentity(status), descriptor)
    }

    /// `count` bytes of `descriptor` from where it stands, into memory
    /// never zeroed first (nil: an error, or the file ended early).
    static func readAll(_ descriptor: Int32, count: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let got = Glibc.read(descriptor, buffer.baseAddress! + initialized, count - initialized)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    failed = true
                    return
                }
                initialized += got
            }
        }
        return failed ? nil : bytes
    }

    /// Whether the file at `path` holds exactly `bytes`, read a block at a
    /// time (never a second copy of a large file in memory).
    private static func holds(_ path: String, _ bytes: [UInt8]) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            guard let block = readAll(descriptor, count: min(1 << 20, bytes.count - offset)),
                  block.elementsEqual(bytes[offset..<(offset + block.count)]) else { return false }
            offset += block.count
        }
        var probe: UInt8 = 0
        return Glibc.read(descriptor, &probe, 1) == 0
    }
}

/// What says a file is still the one that was read: device, inode, size
/// and modification time to the nanosecond.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec
    let mode: mode_t

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim
        mode = status.st_mode & 0o7777
    }

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// Modified less than a clock tick before `time`: a write after `time`
    /// in the same tick, of the same size, would leave all of this as it
    /// was, so only the bytes can tell.
    func isRecent(before time: Date) -> Bool {
        modifiedAt > time.timeIntervalSince1970 - tick
    }

    var modifiedAt: Double { Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9 }

    /// The coarsest step the file system's clock may take, in seconds:
    /// Linux stamps files from its tick (10 ms at 100 Hz, the slowest), so
    /// a tenth of a second with room to spare; a whole second where the
    /// time has no fraction (FAT, ext3, some network file systems).
    var tick: Double { modified.tv_nsec == 0 ? 1 : 0.1 }

    static func == (left: FileIdentity, right: FileIdentity) -> Bool {
        left.device == right.device && left.inode == right.inode && left.size == right.size
            && left.modified.tv_sec == right.modified.tv_sec && left.modified.tv_nsec == right.modified.tv_nsec
    }
}

private extension RecordOperation {
    /// The records an update or a delete changes (whose people `found` hears of).
    var changedIDs: [String] {
        switch self {
        case .update(let id, _), .setManager(let id, _): [id]
        case .delete(let ids): ids
        case .add, .restore: []
        }
    }

    /// The record an update or a manager change changes.
    var updatedID: String? {
        switch self {
        case .update(let id, _), .setManager(let id, _): id
        case .add, .delete, .restore: nil
        }
    }
}
