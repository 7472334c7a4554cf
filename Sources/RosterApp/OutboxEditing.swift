import Foundation
import RosterCore
import RosterStore
#if canImport(Glibc)
import Glibc
#endif

/// How the screens save while a database's server cannot be reached:
/// each edit is written to the outbox first (flushed to disk, so that the
/// screen calling it saved is true), then made to the offline copy. The
/// outbox is sent once the server answers (`OutboxSender`).
///
/// Where the copy is what the screen shows (opened offline), every screen
/// shows the edit at once, and the copy refusing it (someone's edit in
/// the copy) refuses the edit. Where the screen shows the live directory
/// whose connection was lost (`OutboxFallbackEditing`), the copy is only
/// brought along where it can be (the last seen values, for the next
/// edit): the server judges the edit against what the screen showed when
/// it is sent, as it judges a save.
struct OutboxEditing: PeopleEditing {
    let outbox: Outbox
    /// The offline copy's file, edited as any JSON Lines file is.
    let copy: FileEditing
    /// Whether the copy is what the screen shows (see above).
    let copyIsShown: Bool

    init(outbox: Outbox, copyPath: String, copyIsShown: Bool = true) {
        self.outbox = outbox
        copy = FileEditing(path: copyPath, format: .jsonLines)
        self.copyIsShown = copyIsShown
    }

    func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure) {
        try update(recordID: recordID, changes: changes, base: base, as: UUID().uuidString)
    }

    /// The update kept under `operationID` (one tried on the server first under that id).
    func update(recordID: String, changes: [FieldChange], base: Person, as operationID: String) throws(EditFailure) {
        // `U` on an edit not sent yet: it leaves the outbox (the server never hears of either).
        if let undone = unsentUpdate(undoneBy: changes, of: recordID, shown: base) {
            return try keep([]) { () throws(EditFailure) in
                try onCopy { () throws(EditFailure) in try copy.update(recordID: recordID, changes: changes, base: base) }
                if let failure = outbox.remove([undone.id]) { throw EditFailure(.failed, "the outbox could not be updated (\(failure))") }
            }
        }
        try keep([OutboxOperation(kind: .update, person: recordID, base: base, changes: changes, id: operationID)]) { () throws(EditFailure) in
            try onCopy { () throws(EditFailure) in try copy.update(recordID: recordID, changes: changes, base: base) }
        }
    }

    /// The person's last edit in the outbox, when `changes` put back exactly
    /// what it changed, on the person it left (nothing else edited since).
    private func unsentUpdate(undoneBy changes: [FieldChange], of recordID: String, shown: Person) -> OutboxOperation? {
        guard let last = outbox.pending().last(where: { $0.person == recordID }), last.kind == .update,
              let before = last.basePerson, let made = last.fieldChanges,
              Set(made.map(\.field.name)) == Set(changes.map(\.field.name)),
              !shown.differs(from: before.applying(made)) else { return nil }
        let back = shown.applying(changes)
        return changes.allSatisfy { back.value(of: $0.field) == before.value(of: $0.field) } ? last : nil
    }

    /// One operation a person: each is sent, and may be refused, alone.
    func delete(_ people: [Person]) throws(EditFailure) {
        try keep(people.map { OutboxOperation(kind: .delete, person: $0.id, base: $0, changes: []) }) { () throws(EditFailure) in
            try onCopy { () throws(EditFailure) in try copy.delete(people) }
        }
    }

    func add(recordID: String, changes: [FieldChange]) throws(EditFailure) {
        try add(recordID: recordID, changes: changes, as: UUID().uuidString)
    }

    /// The add kept under `operationID` (one tried on the server first under that id).
    func add(recordID: String, changes: [FieldChange], as operationID: String) throws(EditFailure) {
        try keep([OutboxOperation(kind: .add, person: recordID, base: nil, changes: changes, id: operationID)]) { () throws(EditFailure) in
            try onCopy { () throws(EditFailure) in try copy.add(recordID: recordID, changes: changes) }
        }
    }

    /// An undone delete. One not sent yet is taken out of the outbox (the
    /// server never hears of it); one sent already is sent back as an add
    /// of every value Roster knows. The copy gets each record's own text
    /// back where it was.
    func restore(_ people: [Person]) throws(EditFailure) {
        let ids = Set(people.map(\.id))
        let unsentDeletes = outbox.pending().filter { $0.kind == .delete && ids.contains($0.person) }
        let cancelled = Set(unsentDeletes.map(\.person))
        let adds = people.filter { !cancelled.contains($0.id) }
            .map { OutboxOperation(kind: .add, person: $0.id, base: nil, changes: $0.allValues) }
        try keep(adds) { () throws(EditFailure) in
            try onCopy { () throws(EditFailure) in try copy.restore(people) }
            if let failure = outbox.remove(Set(unsentDeletes.map(\.id))) {
                throw EditFailure(.failed, "the outbox could not be updated (\(failure))")
            }
        }
    }

    var saveProgress: SaveProgress? { copy.saveProgress }

    /// `operations` kept (on disk) before `made` makes them to the copy;
    /// taken out again when `made` fails (nothing is then saved).
    private func keep(_ operations: [OutboxOperation], then made: () throws(EditFailure) -> Void) throws(EditFailure) {
        guard operations.allSatisfy({ !$0.person.isEmpty }) else {
            throw EditFailure(.readOnly, "this person has no _id, so the server could not be told who they are; nothing saved")
        }
        if let failure = outbox.append(operations) {
            throw EditFailure(.failed, "the edit could not be kept for sending (\(failure)); nothing saved")
        }
        do throws(EditFailure) {
            try made()
        } catch {
            _ = outbox.remove(Set(operations.map(\.id)))
            throw error
        }
    }

    /// `edit` made to the copy: its refusal refuses the edit only where
    /// the copy is what the screen shows. The copy keeps its modification
    /// time: the title's "offline as of" says when the server was last
    /// read, not when the user edited.
    private func onCopy(_ edit: () throws(EditFailure) -> Void) throws(EditFailure) {
        var taken = stat()
        let hadTime = stat(copy.path, &taken) == 0
        do throws(EditFailure) {
            try edit()
        } catch {
            if copyIsShown { throw error }
        }
        if hadTime {
            var times = [taken.st_atim, taken.st_mtim]
            _ = utimensat(AT_FDCWD, copy.path, &times, 0)
        }
    }
}

/// The conflict screen's saves for edits made offline: saved to the
/// server as any screen's save is, and then crossed off the outbox.
struct SettlingEditing: PeopleEditing {
    let live: any PeopleEditing
    let outbox: Outbox
    /// The outbox operations the edit on screen stands for.
    let operations: Set<String>

    func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure) {
        try live.update(recordID: recordID, changes: changes, base: base)
        _ = outbox.remove(operations)
    }

    func delete(_ people: [Person]) throws(EditFailure) { try live.delete(people) }

    func add(recordID: String, changes: [FieldChange]) throws(EditFailure) { try live.add(recordID: recordID, changes: changes) }
}
