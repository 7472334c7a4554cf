import Foundation
import RosterCore

/// `roster init FILE`: the sample directory, which is read-only, written to
/// FILE as a copy to edit. It makes a new file only: whatever is at FILE
/// already (a file of one's own, a link, a folder) is left alone.
enum InitCommand {
    static let usage = """
    Usage: roster init FILE

    Writes the sample directory (the one roster opens with no FILE) to
    FILE, a new JSON file you can edit: roster FILE opens it, and E, v, a
    and D change it. Never replaces anything already at FILE.
    """

    /// Runs with `arguments` (after `init`); returns the exit status.
    static func run(_ arguments: [String]) -> ExitStatus {
        if arguments.contains("--help") || arguments.contains("-h") {
            Platform.writeOutput(usage + "\n")
            return .success
        }
        guard arguments.count == 1, let file = arguments.first, !file.hasPrefix("-") || file == "-" else {
            let problem = arguments.isEmpty ? "needs the name of the file to write" : "takes one file name"
            Platform.writeError("roster: init \(problem) (roster init people.json)")
            return .usage
        }
        guard file != "-" else {
            Platform.writeError("roster: init writes a file, not standard output (roster --export json writes the sample there)")
            return .usage
        }
        guard let sample = Platform.bundledDirectoryPath(), let bytes = FileManager.default.contents(atPath: sample) else {
            Platform.writeError("roster: the sample directory (people.json) is missing next to the binary; nothing written")
            return .failure
        }
        if let failure = Platform.writeFile(Array(bytes), to: file, replacing: false) {
            Platform.writeError(DisplayText.sanitized("roster: \(file): \(failure); nothing written"))
            return .failure
        }
        Platform.writeOutput(DisplayText.sanitized("wrote the sample directory to \(file); edit it with: roster \(shellWord(file))") + "\n")
        return .success
    }

    /// `file` as one word a shell reads back as it is (quoted when it must be).
    static func shellWord(_ file: String) -> String {
        let plain = file.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-/+,:@%".unicodeScalars.contains($0) }
        return plain && !file.isEmpty ? file : "'" + file.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
