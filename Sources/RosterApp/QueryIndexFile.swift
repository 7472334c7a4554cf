import Foundation
import RosterCore
import RosterStore
#if canImport(Glibc)
import Glibc
#endif

/// Where `roster query` keeps a data file's `QueryIndex` between runs:
/// `$XDG_CACHE_HOME/roster/query-<digest of the path>.index` (default
/// `~/.cache/roster/`), mode 0600 in a folder of mode 0700.
///
/// An index is used only when everything in its header holds: the magic,
/// the format version, the byte order, the Roster version that wrote it,
/// the data file's path, and the file's device, inode, size, modification
/// and change times (nanoseconds: a rewrite, a rename over it, an edit in
/// place, even one that puts the old modification time back, all change
/// the change time); and the body's checksum. Anything else (a folder or
/// file not ours or open to others, a link, a file cut short or garbled)
/// is no index: the file is read, and a new index written over it.
/// Writing is `Platform.writePrivateFile` (a temporary file, fsync, rename,
/// never through a link); a failure to write (read-only home, a full disk)
/// only means no index.
struct QueryIndexFile {
    let folder: String
    /// The data file's absolute path, as the index names it.
    let dataPath: String

    /// The index's own path in `folder`.
    var path: String { folder + "/query-\(OfflineSnapshot.digest(dataPath)).index" }

    init(folder: String, dataPath: String) {
        self.folder = folder
        self.dataPath = Self.absolute(dataPath)
    }

    /// `path` from the root, links resolved when it can be.
    static func absolute(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The people of the index for `key`; nil when there is none that can
    /// be trusted to be the file as `key` saw it.
    func read(for key: FileKey) -> QueryIndex.Contents? {
        guard Self.isPrivateFolder(folder) else { return nil }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid(),
              status.st_mode & 0o777 == 0o600, status.st_size > 0, status.st_size < Int.max / 2 else { return nil }
        let size = Int(status.st_size)
        // Mapped, not read: the page cache's pages are used as they are, no copy of tens of megabytes.
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0), mapped != MAP_FAILED else { return nil }
        defer { munmap(mapped, size) }
        let buffer = UnsafeRawBufferPointer(start: mapped, count: size)
        let header = QueryIndexHeader(key: key, dataPath: dataPath)
        guard let body = header.body(of: buffer) else { return nil }
        return QueryIndex.decode(body)
    }

    /// Keeps `body` as the index of the file `key` describes; quietly
    /// nothing when it cannot be written.
    func write(_ body: [UInt8], for key: FileKey) {
        guard Platform.makePrivateFolder(folder) == nil, Self.isPrivateFolder(folder) else { return }
        var status = stat()
        // Only ever over a regular file of ours (`writePrivateFile` refuses any other kind).
        if lstat(path, &status) == 0, status.st_uid != geteuid() { return }
        _ = Platform.writePrivateFile(QueryIndexHeader(key: key, dataPath: dataPath).bytes(around: body), to: path)
    }

    /// A folder (not a link to one) of ours that no one else may enter.
    static func isPrivateFolder(_ folder: String) -> Bool {
        var status = stat()
        return lstat(folder, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR && status.st_uid == geteuid()
            && status.st_mode & 0o077 == 0
    }
}

/// What tells one version of a data file from another: its device,
/// inode, size, and modification and change times to the nanosecond.
struct FileKey: Equatable {
    let values: [Int64]

    init(_ status: stat) {
        values = [Int64(bitPattern: UInt64(status.st_dev)), Int64(bitPattern: UInt64(status.st_ino)), Int64(status.st_size),
                  Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec), Int64(status.st_ctim.tv_sec), Int64(status.st_ctim.tv_nsec)]
    }

    /// The key of the regular file at `path` now; nil for anything else.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.init(status)
    }
}
