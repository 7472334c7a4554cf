/// Saves an edit through the source's `PeopleEditing`, off the main actor.
@MainActor
public final class EditorInteractor: EditorInteractorInput {
    private let editing: any PeopleEditing
    private let reader: BackgroundReading

    public init(editing: any PeopleEditing, reader: BackgroundReading) {
        self.editing = editing
        self.reader = reader
    }

    public var saveProgress: SaveProgress? { editing.saveProgress }

    public func later(_ delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void) {
        reader.after(delay, work)
    }

    public func save(_ changes: [FieldChange], base: Person, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        perform({ editing throws(EditFailure) in try editing.update(recordID: base.id, changes: changes, base: base) }) { deliver($0.failure) }
    }

    public func setManager(_ reference: String, of recordID: String, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        perform({ editing throws(EditFailure) in
            guard let managers = editing.managers else { throw EditFailure(.readOnly, "this source keeps no managers") }
            try managers.setManager(of: recordID, to: reference)
        }) { deliver($0.failure) }
    }

    public func add(_ changes: [FieldChange], recordID: String, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        perform({ editing throws(EditFailure) in try editing.add(recordID: recordID, changes: changes) }) { deliver($0.failure) }
    }

    /// Runs `work` on the source's editing off the main actor; its value,
    /// or why it failed, goes to `deliver` on the main actor. Every save of
    /// a screen (the form, `v`, `D`, `U`) goes through here.
    public func perform<Value: Sendable>(_ work: @escaping @Sendable (any PeopleEditing) throws(EditFailure) -> Value,
                                         then deliver: @escaping @MainActor @Sendable (Result<Value, EditFailure>) -> Void) {
        let editing = self.editing
        reader.perform({ () -> Result<Value, EditFailure> in
            do throws(EditFailure) {
                return .success(try work(editing))
            } catch {
                return .failure(error)
            }
        }, then: deliver)
    }
}
