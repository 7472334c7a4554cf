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
    func fileExists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: Self.expanded(path))
    }

    func write(_ bytes: [UInt8], to path: String, replacing: Bool) -> String? {
        Platform.writeFile(bytes, to: Self.expanded(path), replacing: replacing).map { "could not write \(path) (\($0))" }
    }

    /// `~/people.csv` → the home folder's.
    static func expanded(_ path: String) -> String {
        (path as NSString).expandingTildeInPath
    }
}
