import Foundation
import RosterCore

/// Remembers, per data file, where the user was: in
/// `$XDG_STATE_HOME/roster/state.json` (default `~/.local/state/roster/`).
///
/// Keyed by the file's resolved path. Written atomically (a temporary file
/// in the same folder, then rename) with mode 0600 in a folder of mode
/// 0700, whatever they were, never through a symbolic link. A missing file is a
/// first launch; an unreadable, corrupt or oversized one is ignored, never
/// fatal. Only the `maximumPlaces` most recently saved places are kept, so
/// the file stays small and start and exit stay instant.
struct PlaceStore {
    static let maximumPlaces = RememberedPlaces.maximumPlaces
    /// Far beyond what `maximumPlaces` places take (about 300 bytes each):
    /// a larger file is not ours to parse at every start.
    static let maximumFileBytes = 1 << 20

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

    func load() -> Result<RememberedPlace?, ReadProblem> {
        guard FileManager.default.fileExists(atPath: stateFile.path) else { return .success(nil) }
        guard let state = readState() else { return .failure(.unreadable) }
        return .success(state.places[dataFile])
    }

    /// The state file's contents, or nil when it is unreadable, corrupt or too large.
    private func readState() -> RememberedPlaces? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: stateFile.path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue, size <= Self.maximumFileBytes,
              let data = try? Data(contentsOf: stateFile) else { return nil }
        return RememberedPlaces.decode(Array(data))
    }

    /// Saves `place` for this data file, keeping other files' most recent
    /// places; false on failure.
    @discardableResult
    func save(_ place: RememberedPlace, now: Double = Date().timeIntervalSince1970) -> Bool {
        var state = readState() ?? RememberedPlaces()
        state.remember(place, for: dataFile, at: now)
        guard let data = state.encoded() else { return false }
        return Platform.writePrivateFile(data, to: stateFile.path) == nil
    }
}
