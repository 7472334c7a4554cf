import Foundation
import RosterCore

/// Remembers, per data file, where the user was: in
/// `$XDG_STATE_HOME/roster/state.json` (default `~/.local/state/roster/`).
///
/// Keyed by the file's resolved path. Written atomically (a temporary file
/// in the same folder, then rename) with mode 0600. A missing file is a
/// first launch; an unreadable or corrupt one is ignored, never fatal.
struct PlaceStore {
    /// Why reading failed, for one line in the app; nil when all was well.
    enum ReadProblem: Error, Equatable {
        case unreadable
    }

    let stateFile: URL
    let dataFile: String

    init(stateFile: URL, dataFile: String) {
        self.stateFile = stateFile
        self.dataFile = dataFile
    }

    /// The state file the environment points at.
    static func defaultStateFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("roster/state.json")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/roster/state.json")
    }

    /// The resolved path of `path`, the key places are kept under.
    static func resolvedPath(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    private struct StateFile: Codable {
        var version = 1
        var places: [String: RememberedPlace] = [:]
    }

    func load() -> Result<RememberedPlace?, ReadProblem> {
        guard FileManager.default.fileExists(atPath: stateFile.path) else { return .success(nil) }
        guard let data = try? Data(contentsOf: stateFile),
              let state = try? JSONDecoder().decode(StateFile.self, from: data) else { return .failure(.unreadable) }
        return .success(state.places[dataFile])
    }

    /// Saves `place` for this data file, keeping other files' places; false on failure.
    @discardableResult
    func save(_ place: RememberedPlace) -> Bool {
        var state = StateFile()
        if let data = try? Data(contentsOf: stateFile), let existing = try? JSONDecoder().decode(StateFile.self, from: data) {
            state = existing
        }
        state.places[dataFile] = place
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(state) else { return false }
        let directory = stateFile.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let temporary = directory.appendingPathComponent(".state-\(getpid()).json.tmp")
            guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                return false
            }
            guard rename(temporary.path, stateFile.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                return false
            }
            return true
        } catch {
            return false
        }
    }
}
