/// Saves an edit through the source's `PeopleEditing`, off the main actor.
@MainActor
public final class EditorInteractor: EditorInteractorInput {
    private let editing: any PeopleEditing
    private let reader: BackgroundReading

    public init(editing: any PeopleEditing, reader: BackgroundReading) {
        self.editing = editing
        self.reader = reader
    }

    public func save(_ changes: [FieldChange], base: Person, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        let editing = self.editing
        reader.read({ () -> EditFailure? in
            do throws(EditFailure) {
                try editing.update(recordID: base.id, changes: changes, base: base)
                return nil
            } catch {
                return error
            }
        }, then: deliver)
    }

    public func add(_ changes: [FieldChange], recordID: String, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        let editing = self.editing
        reader.read({ () -> EditFailure? in
            do throws(EditFailure) {
                try editing.add(recordID: recordID, changes: changes)
                return nil
            } catch {
                return error
            }
        }, then: deliver)
    }
}
