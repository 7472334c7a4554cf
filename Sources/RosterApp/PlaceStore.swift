import Foundation
import RosterCore

/// Remembers, per data file, where the user was: in
/// `$XDG_STATE_HOME/roster/state.json` (default `~/.local/state/roster/`).
///
/// Keyed by the file's resolved path. Written atomically (a temporary file
/// in the same folder, then rename) with mode 0600. A missing file is a
/// first launch; an unreadable, corrupt or oversized one is ignored, never
/// fatal. Only the `maximumPlaces` most recently saved places are kept, so
/// the file stays small and start and exit stay instant.
struct PlaceStore {
    static let maximumPlaces = 200
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

    struct StateFile: Codable {
        var version = 1
        var places: [String: RememberedPlace] = [:]
    }

    func load() -> Result<RememberedPlace?, ReadProblem> {
        guard FileManager.default.fileExists(atPath: stateFile.path) else { return .success(nil) }
        guard let state = readState() else { return .failure(.unreadable) }
        return .success(state.places[dataFile])
    }

    /// The state file's contents, or nil when it is unreadable, corrupt or too large.
    private func readState() -> StateFile? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: stateFile.path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue, size <= Self.maximumFileBytes,
              let data = try? Data(contentsOf: stateFile) else { return nil }
        return Self.decode(data)
    }

    /// Decodes a state file's bytes (nil when they are not one).
    static func decode(_ data: Data) -> StateFile? {
        try? JSONDecoder().decode(StateFile.self, from: data)
    }

    /// `places` with at most `maximumPlaces`, the most recently saved.
    static func bounded(_ places: [String: RememberedPlace]) -> [String: RememberedPlace] {
        guard places.count > maximumPlaces else { return places }
        let newest = places.sorted { ($0.value.savedAt ?? 0, $0.key) > ($1.value.savedAt ?? 0, $1.key) }.prefix(maximumPlaces)
        return Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }

    /// Saves `place` for this data file, keeping other files' most recent
    /// places; false on failure.
    @discardableResult
    func save(_ place: RememberedPlace, now: Double = Date().timeIntervalSince1970) -> Bool {
        var state = readState() ?? StateFile()
        var place = place
        place.savedAt = now
        state.places[dataFile] = place
        state.places = Self.bounded(state.places)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(state) else { return false }
        let directory = stateFile.deletingLastPathComponent()
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])) != nil else { return false }
        return Platform.writeFile(Array(data), to: stateFile.path, replacing: true, newFileMode: 0o600) == nil
    }
}
