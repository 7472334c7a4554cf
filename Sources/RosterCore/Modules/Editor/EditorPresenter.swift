/// The person editor: a form of the person's fields, each a line editor
/// prefilled with today's value and checked as it is typed (`FieldCheck`,
/// the same checks `roster update` makes), the reason shown under a field
/// that does not read. Nothing is written until Enter; Esc with changes
/// asks first.
@MainActor
public final class EditorPresenter: EditorModuleInterface {
    /// The fields the form shows, in order.
    public static let fields: [EditableField] = [
        .text(.firstName), .text(.lastName), .text(.company), .text(.email), .text(.phone), .text(.address),
        .age, .balance, .active, .text(.eyeColor), .text(.favoriteFruit),
    ]

    private weak var view: EditorViewInterface?
    private weak var wireframe: EditorWireframe?
    private let interactor: EditorInteractorInput
    /// The person as they were when editing began.
    public let base: Person
    private var editors: [LineEditor]
    private let originals: [String]
    public private(set) var focused = 0
    private var status: String?
    private var question: String?
    private var isSaving = false
    /// A save was refused because the person changed or went meanwhile.
    private var isStale = false

    /// Whether the form makes a new person (`a`) rather than changing one.
    public let isAdding: Bool

    /// Edits `person`; with `adding`, makes a new person starting from
    /// `person`'s values (a company), every value given counted as new.
    public init(person: Person, adding: Bool = false, interactor: EditorInteractorInput, wireframe: EditorWireframe) {
        base = person
        isAdding = adding
        originals = Self.fields.map { adding ? "" : person.value(of: $0) }
        editors = Self.fields.map { LineEditor(person.value(of: $0)) }
        self.interactor = interactor
        self.wireframe = wireframe
    }

    public func attach(view: EditorViewInterface) {
        self.view = view
        view.show(makeViewModel())
    }

    // MARK: Intents

    public func edit(_ edit: LineEdit) {
        guard !isSaving, question == nil else { return }
        switch edit {
        case .previousEntry: return moveField(by: -1)
        case .nextEntry, .complete: return moveField(by: 1)
        default: editors[focused].apply(edit)
        }
        status = nil
        refresh()
    }

    public func moveField(by delta: Int) {
        guard !isSaving, question == nil else { return }
        focused = (focused + delta + editors.count) % editors.count
        refresh()
    }

    public func save() {
        guard !isSaving, question == nil else { return }
        let checked = checkedChanges()
        if let bad = checked.firstIndex(where: { $0.problem != nil }) {
            focused = bad
            status = "not saved: fix \(Self.fields[bad].name) first"
            return refresh()
        }
        let changes = checked.compactMap(\.change)
        if isAdding, !changes.contains(where: { [.text(.firstName), .text(.lastName)].contains($0.field) && $0.value != .text("") }) {
            focused = 0
            status = "not saved: a new person needs a first or last name"
            return refresh()
        }
        guard !changes.isEmpty else { return wireframe?.navigate(to: .cancelled(stale: isStale)) ?? () }
        isSaving = true
        status = "saving…"
        refresh()
        let recordID = isAdding ? FieldCheck.newRecordID() : base.id
        let done: @MainActor @Sendable (EditFailure?) -> Void = { [weak self] failure in
            guard let self else { return }
            self.isSaving = false
            guard let failure else {
                var added = self.base.applying(changes)
                added.id = recordID
                let undo = self.isAdding ? UndoableChange.added(added) : UndoableChange.update(changes, of: self.base)
                return self.wireframe?.navigate(to: .saved(recordID: recordID, undo: undo)) ?? ()
            }
            self.isStale = self.isStale || failure.kind == .conflict || failure.kind == .notFound
            self.status = "not saved: " + failure.message
            self.refresh()
        }
        if isAdding {
            interactor.add(changes, recordID: recordID, then: done)
        } else {
            interactor.save(changes, base: base, then: done)
        }
    }

    public func cancel() {
        guard !isSaving else { return }
        guard question == nil else { return answer(false) }
        let changed = changedCount
        guard changed > 0 else { return wireframe?.navigate(to: .cancelled(stale: isStale)) ?? () }
        question = "Throw away \(NumberText.count(changed, "change", "changes"))? (y/n)"
        refresh()
    }

    public func answer(_ yes: Bool) {
        guard question != nil else { return }
        question = nil
        if yes { return wireframe?.navigate(to: .cancelled(stale: isStale)) ?? () }
        refresh()
    }

    // MARK: State

    private var changedCount: Int { zip(editors, originals).filter { $0.text != $1 }.count }

    /// Each field's change (nil when unchanged) or why it does not read.
    private func checkedChanges() -> [(change: FieldChange?, problem: String?)] {
        zip(Self.fields, zip(editors, originals)).map { field, pair in
            do throws(EditProblem) {
                let change = try FieldCheck.change(field, pair.0.text)
                return (pair.0.text == pair.1 ? nil : change, nil)
            } catch {
                // Today's value is never refused: the file had it.
                let reason = error.message.hasPrefix(field.name + ": ") ? String(error.message.dropFirst(field.name.count + 2)) : error.message
                return pair.0.text == pair.1 ? (nil, nil) : (nil, reason)
            }
        }
    }

    private func refresh() {
        view?.show(makeViewModel())
    }

    public func makeViewModel() -> EditorViewModel {
        let checked = checkedChanges()
        let fields = Self.fields.indices.map { index in
            EditorViewModel.Field(label: Self.label(of: Self.fields[index]), text: editors[index].text, cursor: editors[index].cursor,
                                  problem: checked[index].problem, isChanged: editors[index].text != originals[index])
        }
        let changed = changedCount
        let name = base.fullName.isEmpty ? base.id : base.fullName
        let title = isAdding ? (base.company.isEmpty ? "New person" : "New person in \(base.company)") : "Edit \(name)"
        return EditorViewModel(title: title, fields: fields, focused: focused,
                               status: status ?? (changed == 0 ? "nothing changed" : "\(NumberText.count(changed, "field", "fields")) changed"),
                               question: question, isSaving: isSaving)
    }

    /// The person screen's label for a field.
    static func label(of field: EditableField) -> String {
        switch field {
        case .text(let text): return text.label
        case .age: return "Age"
        case .balance: return "Balance"
        case .active: return "Active"
        }
    }
}
