import Foundation
import RosterCore
import RosterStore

/// How the screens save to a directory file: `FileSave`, the same save
/// `roster update` makes, with the person as first shown as the base.
struct FileEditing: PeopleEditing {
    let path: String
    let format: InputFormat?
    /// Where a person's record is in the file as the screens last read it
    /// (nil: not known; the save reads the whole file).
    var knownRecord: @Sendable (String) -> KnownRecord? = { _ in nil }
    /// How far a save has got: a large file takes a moment to copy.
    let saveProgress: SaveProgress? = SaveProgress()
    /// The records deletes took out, so that an undo puts them back as they were.
    private let removedRecords = Locked<[RemovedRecord]>([])
    /// The record the last update rewrote in place, until the re-read after it takes it.
    private let lastRewrite = Locked<RecordRewrite?>(nil)

    init(path: String, format: InputFormat?) {
        self.path = path
        self.format = format
        (fieldsKept, readOnlyReason) = Self.inspect(path, format: format)
    }

    /// The fields a card or an entry holds, for a vCard or an LDIF file (`ContactRecordText.keptFields`).
    let fieldsKept: [EditableField]?
    /// Why the screens cannot save to the file, said before a form is
    /// filled in vain: a CSV file without an `_id` column (a contact
    /// program's export) has nothing to find people again by. Nil: they can.
    let readOnlyReason: EditFailure?

    /// The file's format as the loader tells it (given, by name, else by
    /// its first bytes, read only then or for a CSV's header), and what it
    /// says of editing. Only a regular file is looked into: a pipe's bytes
    /// are the loader's, and opening one would wait for a writer.
    private static func inspect(_ path: String, format given: InputFormat?) -> (fieldsKept: [EditableField]?, readOnly: EditFailure?) {
        guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular else { return (nil, nil) }
        let named = given ?? InputFormat(extensionOf: path)
        var start: [UInt8] = []
        if named == nil || named == .csv, let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            start = (try? handle.read(upToCount: 1 << 16)).map { [UInt8]($0) } ?? []
        }
        switch named ?? start.withUnsafeBufferPointer({ InputFormat(sniffing: $0) }) {
        case .vCard, .ldif:
            return (ContactRecordText.keptFields.map(EditableField.text), nil)
        case .csv where start.withUnsafeBufferPointer({ RecordFile.csvHeaderNamesID($0) }) == false:
            let name = DisplayText.sanitized((path as NSString).lastPathComponent)
            return (nil, EditFailure(.readOnly, "read-only: \(name) has no _id column to find people again"))
        default:
            return (nil, nil)
        }
    }

    func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure) {
        guard !recordID.isEmpty else {
            throw EditFailure(.readOnly, "this person has no _id in the file, so Roster cannot find them again to save")
        }
        lastRewrite.withLock { $0 = nil }
        try outcome(FileSave.save(.update(id: recordID, changes: changes), to: path, format: format, backup: false, base: base,
                                       known: knownRecord(recordID), progress: saveProgress,
                                       rewritten: { [lastRewrite] rewrite in lastRewrite.withLock { $0 = rewrite } }))
    }

    /// The record the last update rewrote in place, if it was: the re-read
    /// after the save reads that record alone (`RecordRewrite.reread`).
    func takeRewrite() -> RecordRewrite? {
        lastRewrite.withLock { taken in
            defer { taken = nil }
            return taken
        }
    }

    func delete(_ people: [Person]) throws(EditFailure) {
        lastRewrite.withLock { $0 = nil }
        guard people.allSatisfy({ !$0.id.isEmpty }) else {
            throw EditFailure(.readOnly, "someone marked has no _id in the file, so Roster cannot find them again; nothing deleted")
        }
        try outcome(FileSave.save(.delete(ids: people.map(\.id)), to: path, format: format, backup: false, deleting: people,
                                       progress: saveProgress, removed: { [removedRecords] taken in removedRecords.withLock { $0 = taken } }))
    }

    /// Each as the delete found them, where they were: their records' own
    /// text (fields Roster does not know included), after the record each
    /// followed, in one save. One not taken out by the last delete here is
    /// added with the values Roster knows.
    func restore(_ people: [Person]) throws(EditFailure) {
        lastRewrite.withLock { $0 = nil }
        let ids = Set(people.map(\.id))
        let records = removedRecords.withLock { $0.filter { ids.contains($0.id) } }
        if !records.isEmpty {
            try outcome(FileSave.save(.restore(records), to: path, format: format, backup: false, progress: saveProgress))
        }
        for person in people where !records.contains(where: { $0.id == person.id }) {
            try add(recordID: person.id, changes: person.allValues)
        }
    }

    func add(recordID: String, changes: [FieldChange]) throws(EditFailure) {
        lastRewrite.withLock { $0 = nil }
        try outcome(FileSave.save(.add(id: recordID, changes: changes), to: path, format: format, backup: false, progress: saveProgress))
    }

    /// These saves, told where the records of `repository` are in the
    /// file as `reading` found it: a save of one person's change to a file
    /// still as it was then writes that record alone, without reading the rest.
    func knowing(_ repository: any PeopleRepository, read reading: FileReading?) -> FileEditing {
        guard let reading, let read = repository as? InMemoryPeopleRepository else { return self }
        var editing = self
        editing.knownRecord = { recordID in
            read.fileOffset(recordID: recordID).map { KnownRecord(reading: reading, offset: $0, directory: read) }
        }
        return editing
    }

    func outcome(_ saving: FileSave.Outcome) throws(EditFailure) {
        switch saving {
        case .saved: return
        case .conflict(let message, let theirs): throw EditFailure(.conflict, message, theirs: theirs, theirsNote: Self.lastSaved(path))
        case .refused(let message): throw EditFailure(.failed, message)
        }
    }

    /// Whose the file's version is, as far as it says: a file records
    /// only when it was last written, not by whom.
    static func lastSaved(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let written = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec))
        let name = DisplayText.sanitized((path as NSString).lastPathComponent)
        return "\(name), saved \(clock(written)) by another program or Roster"
    }

    /// "14:02:31", with the day before it when it is not today's.
    static func clock(_ time: Date, now: Date = Date()) -> String {
        let calendar = Calendar(identifier: .gregorian)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time)
        let day = calendar.isDate(time, inSameDayAs: now) ? "" : String(format: "%04d-%02d-%02d ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        return day + String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}

