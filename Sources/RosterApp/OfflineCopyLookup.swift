import Foundation
import RosterCore
import RosterStore

/// A server's offline copy as the people last seen (`LastSeenPeople`):
/// read from its file the first time a person is wanted while the
/// connection is lost, and again whenever the file has changed since (the
/// copy taken again, an edit kept offline made to it). Nothing is read
/// while the connection works.
final class OfflineCopyLookup: LastSeenPeople {
    let path: String
    private let loaded = Locked<(version: FileVersion, people: InMemoryPeopleRepository)?>(nil)

    init(path: String) {
        self.path = path
    }

    func person(recordID: String) async -> Person? {
        guard let people = await current(), let id = try? await people.personID(recordID: recordID) else { return nil }
        return try? await people.person(id)
    }

    /// The copy as the file holds it now, read on a thread of Dispatch's
    /// (a file load never runs on the tasks' few shared threads).
    private func current() async -> InMemoryPeopleRepository? {
        guard let version = FileVersion(path: path) else { return nil }
        if let kept = loaded.withLock({ $0 }), kept.version == version { return kept.people }
        let path = self.path
        let read = await withCheckedContinuation { (continuation: CheckedContinuation<InMemoryPeopleRepository?, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
                let directory = bytes.flatMap { try? PeopleLoader(format: .jsonLines).load(bytes: $0, sourceName: path) }
                continuation.resume(returning: directory.map { InMemoryPeopleRepository($0) })
            }
        }
        if let read { loaded.withLock { $0 = (version, read) } }
        return read
    }

    /// What tells one state of the file from the next: an edit made to the
    /// copy puts its modification time back (`OutboxEditing`), but not the
    /// time of its status change.
    struct FileVersion: Equatable, Sendable {
        let inode: UInt64
        let size: Int64
        let changedSeconds: Int
        let changedNanoseconds: Int

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            changedSeconds = Int(status.st_ctim.tv_sec)
            changedNanoseconds = Int(status.st_ctim.tv_nsec)
        }
    }
}
