#if !ROSTER_FUZZ
import RosterCore
#endif

/// A sink that makes people of vCards and LDIF entries: each record's
/// fields read into a person's (`PersonFieldRoles` says which is which),
/// committed to a segment as the JSON and CSV parsers commit theirs.
///
/// A record the reader could not read, or one with no name, is a
/// `SkippedRecord` with its line (and, in a folder, its file's name), as
/// JSON's and CSV's are. A record that is about something other than a
/// person (a `KIND:org` card, an LDIF `organizationalUnit`) is passed over
/// quietly: it is good data, just no one to list. A line inside a kept
/// record that is no field loses nothing a person has, and is not counted.
struct PersonFieldSink: FieldRecordSink {
    let format: InputFormat
    let segment = PeopleSegmentBuilder()
    private(set) var skipped: [SkippedRecord] = []
    /// Records seen, people, skipped and passed over alike.
    private(set) var recordCount = 0
    private var record = RecordScratch()
    private var values = PersonFieldValues()
    /// The folder's file being read (its name only), or nil for one file.
    private var fileName: String?
    private var recordLine = 1
    private var recordOffset = 0
    private var inRecord = false
    private let progress: LoadProgress?
    private var unreportedPeople = 0

    init(format: InputFormat, progress: LoadProgress? = nil) {
        self.format = format
        self.progress = progress
    }

    mutating func beginFile(path: String) {
        fileName = path.split(separator: "/").last.map(String.init) ?? path
    }

    mutating func beginRecord(fileOffset: Int, line: Int) {
        recordCount += 1
        recordLine = line
        recordOffset = fileOffset
        inRecord = true
        values.reset()
    }

    mutating func field(_ field: SourceField) {
        guard inRecord, let role = PersonFieldRoles.role(of: field.name, in: format) else { return }
        if case .external = field.kind { return }
        values.take(field, as: role)
    }

    mutating func endRecord(_ end: RecordEnd) {
        guard inRecord else { return }
        inRecord = false
        guard end.kind == .individual else { return }
        record.reset()
        values.apply(to: &record)
        guard record.hasUsableName else {
            skip(reason: PersonFieldRoles.noNameReason(format), line: recordLine)
            return
        }
        record.commit(to: segment, fileOffset: recordOffset)
        unreportedPeople += 1
        if unreportedPeople == 1024 { reportProgress() }
    }

    mutating func skipRecord(reason: String, line: Int) {
        recordCount += 1
        skip(reason: reason, line: line)
    }

    private mutating func skip(reason: String, line: Int) {
        let named = fileName.map { "\($0): \(reason)" } ?? reason
        skipped.append(SkippedRecord(number: recordCount, line: line, reason: named))
    }

    /// People made since the last report, added to the load's progress.
    mutating func reportProgress() {
        progress?.peopleLoaded.add(unreportedPeople, ordering: .relaxed)
        unreportedPeople = 0
    }

    /// The people made and the records skipped, frozen (call once, at the end).
    mutating func finished(line: Int) -> ParsedPart {
        reportProgress()
        return ParsedPart(segment: segment.freeze(), skipped: skipped, elementCount: recordCount, line: line, reachedBoundary: false)
    }
}
