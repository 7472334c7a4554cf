import Foundation
import RosterCore

/// Writes exports next to where roster runs (or where the name points).
///
/// A new file is created exclusively (`O_EXCL`), so an existing one is
/// never replaced by accident; replacing is only done when the user said
/// yes, only ever of a regular file, atomically and keeping its permission
/// bits (`Platform.writeFile`).
@MainActor
final class FileExportWriter: ExportWriting {
    /// `lstat` first, so that a dangling symbolic link is seen as one; a
    /// link that leads somewhere is judged by what it leads to.
    func target(at path: String) -> ExportTarget {
        let expanded = Self.expanded(path)
        var status = stat()
        guard lstat(expanded, &status) == 0 else {
            return errno == ENOENT ? .nothing : .unusable(reason: String(cString: strerror(errno)))
        }
        if status.st_mode & S_IFMT == S_IFLNK {
            guard stat(expanded, &status) == 0 else {
                return errno == ENOENT ? .brokenSymbolicLink : .unusable(reason: String(cString: strerror(errno)))
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFIFO: return .namedPipe
        case S_IFSOCK: return .socket
        default: return .unusable(reason: "not a regular file")
        }
    }

    /// Streams the export into the file, as `--export` streams to standard output.
    /// Into a temporary file beside it, renamed into place only when every
    /// person was read and written: a failure part way leaves `path` as it was.
    nonisolated func write(to path: String, replacing: Bool, _ produce: (inout OutputBuffer) async -> String?) async -> String? {
        let file: Platform.PendingFile
        do throws(Platform.FileFailure) {
            file = try Platform.beginFile(to: Self.expanded(path), replacing: replacing)
        } catch {
            return "could not write \(path) (\(error.reason))"
        }
        var output = OutputBuffer(descriptor: file.descriptor)
        let unread = await produce(&output)
        guard let failure = Platform.finishFile(file, written: output.flush() && unread == nil) else { return nil }
        return "could not write \(path) (\(unread ?? failure))" + (replacing && unread != nil ? "; it was left as it was" : "")
    }

    /// `~/people.csv` → the home folder's.
    nonisolated static func expanded(_ path: String) -> String {
        (path as NSString).expandingTildeInPath
    }
}
