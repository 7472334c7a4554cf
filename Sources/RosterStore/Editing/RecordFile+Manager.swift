#if !ROSTER_FUZZ
import RosterCore
#endif

/// A person's manager set in a people file (`roster update FILE ID
/// manager=…`, the form, `v`): checked first against everyone the file
/// holds as read under the save's lock (`ManagerChange`, as a table's is),
/// then written in the record's own shape — a JSON member `manager`, a CSV
/// cell under the `manager` header, a card's `RELATED;TYPE=manager:` (as
/// given; Apple's related name labelled Manager where the card has one),
/// an LDIF `manager:` (the manager's DN, however named) — where the
/// loader's org chart reads it (`FileManagerReferences`). Every other byte
/// of the file stays.
extension RecordFile {
    /// What a manager change does: the person's name and their reference
    /// before and after (nil: none).
    public struct ManagerSetting: Equatable, Sendable {
        public let name: String
        public let before: String?
        public let after: String?

        public init(name: String, before: String?, after: String?) {
            self.name = name
            self.before = before
            self.after = after
        }

        /// The change leaves the reference as it was: nothing is written.
        public var changesNothing: Bool { before == after }
    }

    /// The record `id` with its manager set to `reference` (empty: none),
    /// as pieces of `bytes` (nil when it is that already), or why not: a
    /// manager nobody is, several people are, the person or someone under
    /// them (`ManagerChange.message`), or a CSV file without a `manager` column.
    public func settingManager(of id: String, to reference: String, in bytes: UnsafeBufferPointer<UInt8>,
                               sourceName: String) throws(EditFailure) -> (ManagerSetting, [FilePiece]?) {
        let record = try only(id, sourceName: sourceName)
        let reader = RecordFieldReader(fileBytes: bytes, format: format, field: FileManagerReferences.fieldName)
        guard reader.canHaveField else {
            throw EditFailure(.failed, "\(sourceName) has no \(FileManagerReferences.fieldName) column; add one to its header "
                              + "to give people managers; nothing written")
        }
        let setting = try checkedSetting(of: id, to: reference, bytes: bytes, sourceName: sourceName)
        guard !setting.changesNothing else { return (setting, nil) }
        let text = try managerRecordText(bytes, record, setting.after, column: reader.column, sourceName: sourceName)
        return (setting, [.original(0..<record.span.lowerBound), .new(text), .original(record.span.upperBound..<byteCount)])
    }

    /// The manager reference the record `id` holds now, as the chart reads it.
    public func manager(of id: String, in bytes: UnsafeBufferPointer<UInt8>, sourceName: String) throws(EditFailure) -> ManagerField {
        let record = try only(id, sourceName: sourceName)
        let reader = RecordFieldReader(fileBytes: bytes, format: format, field: FileManagerReferences.fieldName)
        guard reader.canHaveField else { return .notKept }
        return .reference(reader.value(atRecordStartingAt: record.span.lowerBound).map { String(decoding: $0, as: UTF8.self) })
    }

    /// The change checked against everyone in `bytes` (loaded as the
    /// screens load them, their references read as the chart reads them).
    private func checkedSetting(of id: String, to reference: String, bytes: UnsafeBufferPointer<UInt8>,
                                sourceName: String) throws(EditFailure) -> ManagerSetting {
        let store: PeopleStore
        do throws(LoadError) {
            store = try PeopleLoader(format: format).load(bytes: Array(bytes), sourceName: sourceName).store
        } catch {
            throw EditFailure(.unreadable, "\(error.message); nothing written")
        }
        guard let person = store.position(ofOnly: id),
              let everyone = FileManagerReferences(store: store, fileBytes: bytes, format: format, evenWithoutManagers: true) else {
            throw EditFailure(.notFound, "\(sourceName): no person Roster reads has _id \(DisplayText.sanitized(id)); nothing written")
        }
        let names = StorePeopleNames(store: store)
        switch ManagerChange.check(person, to: reference, among: everyone) {
        case .refused(let problem):
            let message = ManagerChange.message(problem, person: person) { DisplayText.sanitized(names.name(of: $0)) }
            throw EditFailure(.invalid, "\(sourceName): \(message); nothing changed")
        case .accepted(let manager):
            // LDIF's manager is a DN by its schema: the manager's own, however the reference named them.
            let after = format == .ldif ? manager.map { store.text(.id, of: $0) } : ManagerChange.kept(reference)
            return ManagerSetting(name: DisplayText.sanitized(names.name(of: person)), before: everyone.managerReference(of: person),
                                  after: after)
        }
    }

    /// The record's text with its manager reference `after` (nil: none).
    private func managerRecordText(_ bytes: UnsafeBufferPointer<UInt8>, _ record: RecordSpan, _ after: String?, column: Int?,
                                   sourceName: String) throws(EditFailure) -> [UInt8] {
        let name = FileManagerReferences.fieldName
        switch format {
        case .json, .jsonLines:
            // No manager: the member goes (the reader takes a missing one and "" alike; a record keeps no empty leftover).
            return try JSONRecordText.setting(name, to: after.map(JSONRecordText.jsonText), in: bytes, record.span,
                                              oneLine: format == .jsonLines, where: "\(sourceName), line \(record.line)")
        case .csv:
            return try CSVRecordText.setting(column: column ?? 0, to: after ?? "", in: bytes, record.span, sourceName: sourceName)
        case .ldif:
            return try LDIFRecordText.edited(Array(bytes[record.span]), [.set(attribute: name, values: after.map { [$0] } ?? [])])
        case .vCard:
            let card = Array(bytes[record.span])
            // The line the manager was read from, in its own shape (Apple's related name stays one).
            let related = try ContactRecordText.fieldRecords(card, format: .vCard, sourceName: sourceName).first?.relatedField(ofType: name)
            let edit: VCardEdit
            switch (related, after) {
            case (let related?, let after?): edit = .rewrite(name: related.name, line: related.line, components: [[after]])
            case (let related?, nil): edit = .removeLine(name: related.name, line: related.line)
            case (nil, let after?): edit = .add(name: "RELATED", parameters: ["TYPE=\(name)"], components: [[after]])
            case (nil, nil): return card
            }
            return try VCardCardText.edited(card, [edit])
        }
    }
}
