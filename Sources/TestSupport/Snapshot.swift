import Foundation

/// Compares `text` with the committed snapshot `name`.txt in the calling
/// test file's `__Snapshots__` folder. With `RECORD_SNAPSHOTS=1` it writes
/// the file instead; a changed snapshot is reviewed in the diff, not
/// blindly re-recorded. Returns nil when they match, else a description.
public func snapshotMismatch(_ text: String, named name: String, filePath: String = #filePath) -> String? {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let file = directory.appendingPathComponent(name + ".txt")
    let content = text + "\n"
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? content.write(to: file, atomically: true, encoding: .utf8)
        return nil
    }
    guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
        return "no snapshot at \(file.path); run with RECORD_SNAPSHOTS=1 to record it"
    }
    guard expected != content else { return nil }
    return "snapshot \(name) differs.\n--- expected\n\(expected)--- actual\n\(content)"
}
