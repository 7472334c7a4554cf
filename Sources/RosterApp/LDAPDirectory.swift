import Dispatch
import RosterCore
import RosterLDAP
import RosterStore

/// A directory server's people, read into memory and kept as the server
/// has them: everyone read page by page in the background (the first page
/// on screen first), then each change another client makes applied as the
/// change feed tells it (`LDAPDirectoryWatch`).
///
/// The screens see it through an in-memory repository made from what is
/// held now (`repository()`), made again after each change: grouping,
/// sorting, searching and the person's screen work as for a file. (The
/// server's own windows and filters, VLV and searches sent to it, are for
/// later.) It is the source's connection too: the title says when it is
/// lost, and `reconnect` binds again and reads what the outage hid.
final class LDAPDirectory: Reconnecting, Sendable {
    /// Names the directory in titles and messages: the URL without secrets.
    let name: String
    let connection: LDAPConnection
    /// How the change feed binds: as the screen's connection did.
    let credentials: LDAPCredentials
    let search: LDAPSearch
    private let pageSize: Int
    let state = Locked(State())
    /// What the app asked to be told of a change (the watch's `changed`).
    private let onChange = Locked<(@Sendable () -> Void)?>(nil)

    /// The people held, in the order first read, and how the reading goes.
    struct State {
        var order: [String] = []
        /// The keys in `order` (a person deleted keeps their place there).
        var ordered: Set<String> = []
        var people: [String: Person] = [:]
        /// Keys by DN, for a deletion the feed names by DN only.
        var keyByDN: [String: String] = [:]
        /// Where each entry is and its version as read, by key: what an edit writes to.
        var places: [String: EntryPlace] = [:]
        /// Keys by the record id people are found by (`LDAPPersonMapping.recordID`).
        var keyByRecordID: [String: String] = [:]
        var isLost = false
        var problem: String?
        /// What the next re-read says on the status line.
        var note: String?
        /// The entries (by key) a save of this Roster is writing now: the
        /// feed may tell of it before the save's answer comes, and that is
        /// no change by someone else.
        var writing: Set<String> = []
        var firstPageRead = false
        /// Whether the people changed since `repository()` last made them a repository.
        var changedSinceShown = false
        var isComplete = false
        var waitingForFirstPage: [CheckedContinuation<Result<Void, LDAPError>, Never>] = []
        var reading: Task<Void, Never>?
        /// The feed's changes since a reading of everyone that replaces
        /// what is held began (nil when none is under way).
        var madeWhileReading: [LDAPChange]?
    }

    init(name: String, connection: LDAPConnection, credentials: LDAPCredentials, search: LDAPSearch, pageSize: Int = 1000) {
        self.name = name
        self.connection = connection
        self.credentials = credentials
        self.search = search
        self.pageSize = pageSize
    }

    /// `changed` runs (on a thread of the directory's) after each change to
    /// the people held: a page read, another client's change.
    func whenChanged(_ changed: @escaping @Sendable () -> Void) {
        onChange.withLock { $0 = changed }
        // Pages read before anyone listened (the screen's first repository was made before the watch started).
        if state.withLock({ $0.changedSinceShown }) { changed() }
    }

    /// Waits until the first page is read (starting the reading of everyone
    /// if it has not started), or says why it could not be.
    func firstPage() async -> Result<Void, LDAPError> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard !state.firstPageRead else { return true }
                state.waitingForFirstPage.append(continuation)
                return false
            }
            if ready { return continuation.resume(returning: .success(())) }
            startReading(replacing: false)
        }
    }

    /// Reads everyone, and waits for it (`--list`, `--export`).
    func everyone() async -> Result<Void, LDAPError> {
        do throws(LDAPError) {
            let entries = try await connection.readAll(search, pageSize: pageSize)
            state.withLock { state in entries.forEach { Self.put($0, in: &state) } }
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Stops reading and closes the connection (the app is ending).
    func close() {
        state.withLock { $0.reading?.cancel() }
        connection.close()
    }

    /// Reads everyone, page after page; each page is held (and said) as it
    /// comes. `replacing`: what is held stays until the read is whole, then
    /// gives way to it (the feed could not say what changed).
    func startReading(replacing: Bool) {
        state.withLock { state in
            guard state.reading == nil else { return }
            if replacing { state.madeWhileReading = [] }
            state.reading = Task.detached { [self] in await readEveryone(replacing: replacing) }
        }
    }

    private func readEveryone(replacing: Bool) async {
        let fresh = Locked(State())
        let result: Result<Void, LDAPError>
        do throws(LDAPError) {
            _ = try await connection.readAll(search, pageSize: pageSize) { [self] page in
                if replacing {
                    fresh.withLock { held in page.forEach { Self.put($0, in: &held) } }
                } else {
                    pageRead(page)
                }
            }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        let waiting = state.withLock { state in
            state.reading = nil
            switch result {
            case .success:
                if replacing { Self.replace(&state, by: fresh.withLock { $0 }) }
                state.isComplete = true
                state.firstPageRead = true
                state.note = "read everyone in the directory: \(NumberText.count(state.people.count, "person", "people"))"
            case .failure(let error) where error.kind != .cancelled && state.firstPageRead:
                state.isLost = true
                state.problem = error.message
            case .failure: break
            }
            state.madeWhileReading = nil
            defer { state.waitingForFirstPage = [] }
            return state.waitingForFirstPage
        }
        waiting.forEach { $0.resume(returning: result) }
        if case .success = result { notify() }
    }

    /// What is held gives way to a whole reading of everyone, with the
    /// changes the feed told meanwhile made on it again.
    static func replace(_ state: inout State, by read: State) {
        var read = read
        for change in state.madeWhileReading ?? [] { _ = Self.take(change, in: &read) }
        (state.order, state.ordered, state.people, state.keyByDN) = (read.order, read.ordered, read.people, read.keyByDN)
        (state.places, state.keyByRecordID) = (read.places, read.keyByRecordID)
        state.changedSinceShown = true
    }

    /// A page of the first reading: held, the first one handed to whoever
    /// waits for it, the later ones said.
    private func pageRead(_ page: [LDAPEntry]) {
        let waiting = state.withLock { state in
            page.forEach { Self.put($0, in: &state) }
            state.note = "reading the directory: \(NumberText.count(state.people.count, "person", "people")) so far…"
            guard !state.firstPageRead else { return [CheckedContinuation<Result<Void, LDAPError>, Never>]() }
            state.firstPageRead = true
            defer { state.waitingForFirstPage = [] }
            return state.waitingForFirstPage
        }
        if waiting.isEmpty { notify() }
        waiting.forEach { $0.resume(returning: .success(())) }
    }

    func notify() {
        onChange.withLock { $0 }?()
    }

    /// The key an entry is held by: its `entryUUID`, else its DN.
    static func key(of entry: LDAPEntry) -> String {
        LDAPEntryUUID(of: entry)?.description ?? entry.dn
    }

    private static func put(_ entry: LDAPEntry, in state: inout State) {
        put(entry, key: key(of: entry), in: &state)
    }

    static func put(_ entry: LDAPEntry, key: String, in state: inout State) {
        if state.ordered.insert(key).inserted { state.order.append(key) }
        let person = LDAPPersonMapping.person(entry)
        state.people[key] = person
        state.places[key] = EntryPlace(dn: entry.dn, version: LDAPVersion(of: entry))
        state.keyByRecordID[person.id] = key
        state.changedSinceShown = true
        state.keyByDN[entry.dn] = key
    }

    // MARK: What the screens read

    /// The people held now, as a repository the screens read.
    func repository() -> any PeopleRepository {
        let people = state.withLock { state in
            state.changedSinceShown = false
            return state.order.compactMap { state.people[$0] }
        }
        let exporter = DirectoryExporter(format: .json)
        var bytes: [UInt8] = []
        for person in people { bytes += Array(exporter.jsonLine(person).utf8) }
        let store: PeopleStore
        do throws(LoadError) {
            store = people.isEmpty ? PeopleStore(segments: []) : try PeopleLoader(format: .jsonLines).load(bytes: bytes, sourceName: name).store
        } catch {
            store = PeopleStore(segments: [])
        }
        return LDAPDirectoryRepository(base: InMemoryPeopleRepository(store: store, sourceName: name), directory: self)
    }

    /// What the status line says once the people are shown again (nil: the
    /// change was said already), taken once.
    func takeNote() -> String? {
        state.withLock { state in
            defer { state.note = nil }
            return state.note
        }
    }
}
