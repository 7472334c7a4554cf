import Foundation
import RosterCore
import RosterStore

/// Reads a file's org chart: the file read again (its manager fields are
/// not kept in memory), at the offsets the store holding its people says
/// each record starts. The repository keeps what it reads, once per store
/// (`KeptOrgChartReading`).
struct FileOrgChartReading: OrgChartReading {
    let path: String
    let format: InputFormat?
    let store: PeopleStore
    let sourceName: String

    /// The file's records are read a run at a time (`FileManagerReferences`),
    /// never the whole file at once.
    func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
        switch readReferences() {
        case .success(let references):
            return FileOrgChart.chart(of: store, references: references, sourceName: sourceName, orderKeys: orderKeys)
        case .failure(let failure):
            return .unavailable(failure.reason)
        }
    }

    /// The references as the chart reads them, for an export to carry;
    /// none from what cannot be read twice or is no one file (a pipe, a
    /// folder of cards), as from standard input.
    func readManagerReferences() -> ManagerReferencesLoad {
        var status = stat()
        guard stat(path, &status) != 0 || (status.st_mode & S_IFMT) == S_IFREG else { return .none }
        switch readReferences() {
        case .success(let references?): return .loaded(references)
        case .success(nil): return .none
        case .failure(let failure): return .unavailable(failure.reason)
        }
    }

    /// Every person's manager reference, read from the file again (nil:
    /// no record has a manager field), or why it could not be read.
    private func readReferences() -> Result<FileManagerReferences?, Unreadable> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(unreadable()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(unreadable()) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            errno = EINVAL
            return .failure(unreadable())
        }
        do throws(FileUnreadable) {
            return .success(try FileManagerReferences(store: store, file: descriptor, size: Int(status.st_size), format: format))
        } catch {
            errno = error.code
            return .failure(unreadable())
        }
    }

    /// Why the file could not be read again, in a message's words.
    struct Unreadable: Error {
        let reason: String
    }

    /// Each person's manager reference as the file at `path` gives it (per
    /// person of `store`, which was read from it), for `roster import`;
    /// nil when the file cannot be read again or no record names a manager.
    static func managerReferences(path: String, format: InputFormat?, store: PeopleStore) -> [String?]? {
        guard let bytes = regularFileBytes(path) else { return nil }
        return bytes.withUnsafeBufferPointer { fileBytes in
            FileManagerReferences(store: store, fileBytes: fileBytes, format: format).map { references in
                (0..<store.count).map(references.managerReference(of:))
            }
        }
    }

    /// The whole of the regular file at `path`; nil (errno set) when it
    /// cannot be opened or read, or is not a regular file.
    static func regularFileBytes(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileSave.readAll(descriptor, count: Int(status.st_size))
    }

    private func unreadable() -> Unreadable {
        Unreadable(reason: "\(DisplayText.sanitized(sourceName)) could not be read again for its managers: \(String(cString: strerror(errno)))")
    }
}
