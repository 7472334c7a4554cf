import Foundation
import RosterCore
import RosterStore

/// `roster init FILE`: the sample directory, which is read-only, written to
/// FILE as a copy to edit, in the format FILE's extension names. It makes a
/// new file only: whatever is at FILE already (a file of one's own, a link,
/// a folder) is left alone.
enum InitCommand {
    static let usage = """
    Usage: roster init FILE

    Writes the sample directory (the one roster opens with no FILE) to
    FILE, a new file you can edit, in the format its extension names:
    .json (the sample as it is), .jsonl or .ndjson (JSON Lines), .csv.
    roster FILE opens it, and E, v, a and D change it. Never replaces
    anything already at FILE.
    """

    /// The extensions init writes, as its refusal lists them.
    static let extensions = ".json, .jsonl, .ndjson or .csv"

    /// Runs with `arguments` (after `init`); returns the exit status.
    static func run(_ arguments: [String]) async -> ExitStatus {
        if arguments.contains("--help") || arguments.contains("-h") {
            Platform.writeOutput(usage + "\n")
            return .success
        }
        let program = ProgramName.current()
        guard arguments.count == 1, let file = arguments.first, !file.hasPrefix("-") || file == "-" else {
            let problem = arguments.isEmpty ? "needs the name of the file to write" : "takes one file name"
            Platform.writeError("roster: init \(problem) (\(program) init people.json)")
            return .usage
        }
        guard file != "-" else {
            Platform.writeError("roster: init writes a file, not standard output (\(program) --export json writes the sample there)")
            return .usage
        }
        guard let format = InputFormat(extensionOf: file), !format.isFieldRecords else {
            Platform.writeError(DisplayText.sanitized("roster: init: \(file): the name must end in \(extensions), which says its format; nothing written"))
            return .usage
        }
        guard let sample = Platform.bundledDirectoryPath(), let bytes = await sampleBytes(at: sample, as: format) else {
            Platform.writeError("roster: the sample directory (people.json) is missing next to the binary; nothing written")
            return .failure
        }
        if let failure = Platform.writeFile(bytes, to: file, replacing: false) {
            Platform.writeError(DisplayText.sanitized("roster: \(file): \(failure); nothing written"))
            return .failure
        }
        Platform.writeOutput(DisplayText.sanitized("wrote the sample directory to \(file); edit it with: \(program) \(shellWord(file))") + "\n")
        return .success
    }

    /// The sample in `format`: its own bytes for JSON; read and written
    /// again, in its order, by the writers `--export` and the offline copy
    /// use, for JSON Lines and CSV. Nil when it cannot be read.
    static func sampleBytes(at path: String, as format: InputFormat) async -> [UInt8]? {
        guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
        if format == .json { return Array(bytes) }
        guard let loaded = try? await PeopleLoader(format: .json).load(path: path, sourceName: path) else { return nil }
        let store = loaded.store
        let people = (0..<store.count).lazy.map { store[$0] }
        switch format {
        case .csv:
            return DirectoryExporter(format: .csv).export(people)
        case .vCard, .ldif:
            return nil  // refused by its name before
        case .jsonLines, .json:
            let exporter = DirectoryExporter(format: .json)
            return people.reduce(into: []) { $0 += exporter.jsonLine($1).utf8 }
        }
    }

    /// `file` as one word a shell reads back as it is (quoted when it must be).
    static func shellWord(_ file: String) -> String {
        let plain = file.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-/+,:@%".unicodeScalars.contains($0) }
        return plain && !file.isEmpty ? file : "'" + file.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
