import RosterCore
import RosterStore

/// How the screens save to a directory file: `FileSave`, the same save
/// `roster update` makes, with the person as first shown as the base.
struct FileEditing: PeopleEditing {
    let path: String
    let format: InputFormat?

    func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure) {
        guard !recordID.isEmpty else {
            throw EditFailure(.readOnly, "this person has no _id in the file, so Roster cannot find them again to save")
        }
        switch FileSave.save(.update(id: recordID, changes: changes), to: path, format: format, backup: false, base: base) {
        case .saved: return
        case .conflict(let message): throw EditFailure(.conflict, message)
        case .refused(let message): throw EditFailure(.failed, message)
        }
    }
}

/// A source the screens cannot write, and why, in one line.
struct ReadOnlySource: PeopleEditing {
    let reason: String

    func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure) {
        throw EditFailure(.readOnly, reason)
    }
}
