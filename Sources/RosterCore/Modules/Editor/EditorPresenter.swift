/// The person editor: a form of the person's fields (those the source's records can hold), each a line
/// editor prefilled with today's value and checked as it is typed (`FieldCheck`, the same checks
/// `roster update` makes), the reason shown under a field that does not read. Nothing is written until
/// Enter; Esc with changes asks first. A save refused because someone changed the same fields meanwhile
/// opens the conflict screen (`PersonMerge`): was, yours and theirs side by side; each field changed on
/// both sides waits for a choice, then the save is made again against their version. Where the source
/// keeps managers, a last field, Manager, holds the reference to whom the person reports; it is saved
/// first, on its own, through the check every manager change passes (`ManagerEditing`), its refusal
/// the form's message.
@MainActor
public final class EditorPresenter: EditorModuleInterface {
    /// The fields the form shows, in order: the name, company and contacts,
    /// the figures, then every other text field a person types (not the
    /// ids, the picture's URL, nor the balance's text: Balance is its own).
    public static let every: [EditableField] = {
        let others = TextField.allCases.filter { !TextField.leading.contains($0) && ![.id, .guid, .balance, .picture].contains($0) }
        return TextField.leading.map(EditableField.text) + [.age, .balance, .active] + others.map(EditableField.text)
    }()

    /// The fields this form shows: `every` one the source's records can hold.
    public let fields: [EditableField]
    private weak var view: EditorViewInterface?
    private weak var wireframe: EditorWireframe?
    private let interactor: EditorInteractorInput
    /// The person the save is based on: as when editing began, or as someone else left them (a conflict settled).
    public private(set) var base: Person
    private var editors: [LineEditor]
    private var originals: [String]
    /// What each field held when the form opened (or was merged).
    private var startingTexts: [String]
    /// The conflict screen, while it is up, and its row being chosen for.
    private var merge: PersonMerge?
    private var mergeFocus = 0
    public private(set) var focused = 0
    private var status: String?
    private var question: String?
    private var isSaving = false
    /// Why the save waits (someone else holds the data locked) while tried again on its own; nil: it does not.
    private var waitingFor: String?
    /// Whether a save refused by a lock is tried again on its own, until Esc says stop (⏎ waits again).
    private var waitsForLocks = true
    /// A save in flight or waiting for a lock: the form takes no edits.
    private var isBusy: Bool { isSaving || waitingFor != nil }
    /// A save was refused because the person changed or went meanwhile.
    private var isStale = false
    /// Where the changes on the conflict screen were made ("your edit made offline").
    private var conflictNote: String?
    /// Whose the changes on the conflict screen's other side are, as the source says.
    private var theirsNote: String?

    /// Whether the form makes a new person (`a`) rather than changing one.
    public let isAdding: Bool
    /// How messages name the source saved to: a refusal names it last, after its reason.
    private let sourceName: String
    /// The Manager field, last, where the source keeps managers (nil: not
    /// offered), and the reference it opened with (or last saved).
    private var managerEditor: LineEditor?
    private var managerOriginal = ""
    /// The manager change saved (the reference before and after), for `U`.
    private var managerSaved: (before: String, after: String)?
    static let managerLabel = "Manager"
    /// Every field the form shows: the person's, then the manager's.
    private var fieldCount: Int { editors.count + (managerEditor == nil ? 0 : 1) }
    private var isManagerChanged: Bool { managerEditor.map { $0.text != managerOriginal } ?? false }

    /// Edits `person`; with `adding`, makes a new person starting from
    /// `person`'s values (a company), every value given counted as new.
    /// `manager`: their manager as the source keeps it (`.notKept`: no
    /// Manager field; a new person has none until they are saved).
    public init(person: Person, adding: Bool = false, interactor: EditorInteractorInput, wireframe: EditorWireframe, sourceName: String = "",
                manager: ManagerField = .notKept, fieldsKept: [EditableField]? = nil) {
        fields = fieldsKept.map { kept in Self.every.filter(kept.contains) } ?? Self.every
        base = person
        isAdding = adding
        self.sourceName = sourceName
        originals = fields.map { adding ? "" : person.value(of: $0) }
        editors = fields.map { LineEditor(person.value(of: $0)) }
        startingTexts = editors.map(\.text)
        self.interactor = interactor
        self.wireframe = wireframe
        if case .reference(let reference) = manager, !adding { offerManager(reference) }
    }

    public func attach(view: EditorViewInterface) {
        self.view = view
        view.show(makeViewModel())
    }

    // MARK: Intents

    public func edit(_ edit: LineEdit) {
        guard !isBusy, question == nil else { return }
        switch edit {
        case .previousEntry: return moveField(by: -1)
        case .nextEntry, .complete: return moveField(by: 1)
        default:
            if focused < editors.count { editors[focused].apply(edit) } else { managerEditor?.apply(edit) }
        }
        status = nil
        refresh()
    }

    /// Starts at the field the person's screen calls `label` (its cursor
    /// was there), if the form has one.
    public func focus(label: String) {
        guard let index = fields.firstIndex(where: { $0.label == label })
                ?? (label == Self.managerLabel && managerEditor != nil ? editors.count : nil) else { return }
        focused = index
        refresh()
    }

    public func moveField(by delta: Int) {
        guard !isBusy, question == nil else { return }
        if let merge {
            let shown = merge.shown
            let at = shown.firstIndex(of: mergeFocus) ?? 0
            mergeFocus = shown[(at + delta + shown.count) % shown.count]
            return refresh()
        }
        focused = (focused + delta + fieldCount) % fieldCount
        refresh()
    }

    public func save() {
        guard !isBusy, question == nil else { return }
        waitsForLocks = true
        attemptSave()
    }

    /// Saves what the form holds (once every field reads), or settles the conflict screen.
    private func attemptSave() {
        if merge != nil { return settle() }
        let checked = checkedChanges()
        if let bad = checked.firstIndex(where: { $0.problem != nil }) {
            focused = bad
            status = "not saved: fix \(fields[bad].name) first"
            return refresh()
        }
        let changes = checked.compactMap(\.change)
        // Nobody is saved without a name: the loader would skip them, and they would vanish from the list.
        if isAdding || !changes.isEmpty, let problem = FieldCheck.nameProblem(of: base.applying(changes)) {
            focused = fields.firstIndex(of: .text(.firstName)) ?? 0
            status = "not saved: \(problem.message)"
            return refresh()
        }
        if isManagerChanged { return saveManager(then: changes) }
        guard !changes.isEmpty else { return wireframe?.navigate(to: .cancelled(stale: isStale)) ?? () }
        isSaving = true
        status = waitingFor.map(Self.waiting) ?? "saving…"
        refresh()
        let recordID = isAdding ? FieldCheck.newRecordID() : base.id
        let done: @MainActor @Sendable (EditFailure?) -> Void = { [weak self] failure in
            guard let self else { return }
            self.isSaving = false
            if failure?.kind == .busy, self.waitsForLocks, let reason = failure?.message { return self.waitForLock(reason) }
            self.waitingFor = nil
            guard let failure else {
                var added = self.base.applying(changes)
                added.id = recordID
                let undo = self.isAdding ? UndoableChange.added(added) : UndoableChange.update(changes, of: self.base)
                return self.wireframe?.navigate(to: .saved(recordID: recordID, undo: .with(manager: self.managerSaved, of: self.base, fields: undo))) ?? ()
            }
            self.isStale = self.isStale || failure.kind == .conflict || failure.kind == .notFound
            if failure.kind == .conflict, let theirs = failure.theirs, !self.isAdding {
                self.theirsNote = failure.theirsNote
                return self.showConflict(with: theirs)
            }
            self.status = "not saved: " + MessageText.reasonFirst(failure.message, target: self.sourceName)
                + (failure.kind == .busy ? " (⏎ tries again)" : "")
            self.refresh()
        }
        if isAdding {
            interactor.add(changes, recordID: recordID, then: done)
        } else {
            interactor.save(changes, base: base, then: done)
        }
    }

    public func cancel() {
        if let reason = waitingFor { return stopWaiting(reason) }
        guard !isSaving else { return }
        guard question == nil else { return answer(false) }
        if merge != nil {
            merge = nil
            status = "not saved: changed meanwhile (⏎ tries again)"
            return refresh()
        }
        // What the user typed since the form opened (a new person's prefilled company is not theirs).
        let changed = zip(editors, startingTexts).filter { $0.text != $1 }.count + (isManagerChanged ? 1 : 0)
        guard changed > 0 else { return wireframe?.navigate(to: .cancelled(stale: isStale)) ?? () }
        question = "Throw away \(NumberText.count(changed, "change", "changes"))? (y/n)"
        refresh()
    }

    public func answer(_ yes: Bool) {
        guard question != nil else { return }
        question = nil
        if yes { return wireframe?.navigate(to: .cancelled(stale: isStale)) ?? () }
        status = nil
        refresh()
    }

    public func choose(_ choice: PersonMerge.Choice) {
        guard !isBusy, question == nil, merge != nil else { return }
        merge?.choose(choice, at: mergeFocus)
        status = nil
        // On to the next field still waiting, if any.
        if let merge, let next = merge.shown.first(where: { merge.rows[$0].choice == nil }) { mergeFocus = next }
        refresh()
    }

    /// The person's manager as the source keeps it, read once the form is
    /// up (a file is read again): the Manager field appears, last, unless
    /// the source keeps none there or the form makes a new person.
    public func showManager(_ manager: ManagerField) {
        guard case .reference(let reference) = manager, !isAdding, managerEditor == nil else { return }
        offerManager(reference)
        refresh()
    }

    private func offerManager(_ reference: String?) {
        managerOriginal = reference ?? ""
        managerEditor = LineEditor(managerOriginal)
    }

    /// The manager saved first, on its own: refused (nobody, several
    /// people, the person, someone under them), the form says why, at the
    /// field, and nothing else is saved; saved, the other `changes` follow.
    private func saveManager(then changes: [FieldChange]) {
        guard let reference = managerEditor?.text else { return }
        isSaving = true
        status = "saving…"
        refresh()
        interactor.setManager(reference, of: base.id) { [weak self] failure in
            guard let self else { return }
            self.isSaving = false
            if let failure {
                self.focused = self.editors.count
                self.status = "not saved: " + MessageText.reasonFirst(failure.message, target: self.sourceName)
                return self.refresh()
            }
            self.managerSaved = (self.managerOriginal, reference)
            self.managerOriginal = reference
            guard changes.isEmpty else { return self.attemptSave() }
            self.wireframe?.navigate(to: .saved(recordID: self.base.id, undo: .with(manager: self.managerSaved, of: self.base, fields: nil)))
        }
    }

    // MARK: Waiting for a lock

    /// "waiting: another program is writing to people.db (Esc stops waiting)".
    private static func waiting(for reason: String) -> String {
        "waiting: \(reason) (Esc stops waiting)"
    }

    /// The save was refused because someone else holds the data locked
    /// (another program's transaction, a table locked by another session):
    /// it is tried again every second, the form saying why it waits, until
    /// it lands, fails otherwise, or Esc stops it. A lock released saves
    /// with no key pressed.
    private func waitForLock(_ reason: String) {
        waitingFor = reason
        status = Self.waiting(for: reason)
        refresh()
        interactor.later(Self.lockRetryPause) { [weak self] in
            guard let self, self.waitingFor != nil, !self.isSaving else { return }
            self.attemptSave()
        }
    }

    /// How long a save refused by a lock waits before it is tried again
    /// (each try itself waits on the lock: SQLite 5 s, PostgreSQL 10 s).
    static let lockRetryPause: Duration = .seconds(1)

    /// Esc while a save waits for a lock: it is not tried again; a try on
    /// its way may still land (then the form closes, saved, as it says).
    private func stopWaiting(_ reason: String) {
        waitingFor = nil
        waitsForLocks = false
        status = isSaving ? "stops waiting after this try…" : "not saved: \(reason) (⏎ tries again)"
        refresh()
    }

    // MARK: Conflict

    /// Opens on the conflict screen: `changes`, made outside the form (in
    /// `v`, or offline), were refused because someone left the person as
    /// `theirs`; `note` says where they were made, after the title;
    /// `theirsNote` whose `theirs` is, as far as the source knows.
    public func showConflict(_ changes: [FieldChange], with theirs: Person, note: String? = nil, theirsNote: String? = nil) {
        conflictNote = note
        self.theirsNote = theirsNote
        let mine = base.applying(changes)
        editors = fields.map { LineEditor(mine.value(of: $0)) }
        isStale = true
        showConflict(with: theirs)
    }

    /// Someone changed fields this edit changes too: the conflict screen,
    /// at the first field waiting for a choice.
    private func showConflict(with theirs: Person) {
        // Each value as saving spells it ("1200" is "$1,200.00"), so that
        // both sides setting the same value is no conflict.
        let mine = fields.indices.map { index in
            guard editors[index].text != originals[index], let change = try? FieldCheck.change(fields[index], editors[index].text) else {
                return originals[index]
            }
            return base.applying([change]).value(of: fields[index])
        }
        let merge = PersonMerge(fields: fields, base: base, mine: mine, theirs: theirs)
        guard !merge.shown.isEmpty else { return showConflictSettled(merge) }
        self.merge = merge
        mergeFocus = merge.shown.first { merge.rows[$0].choice == nil } ?? merge.shown[0]
        status = nil
        refresh()
    }

    /// ⏎ on the conflict screen: once every field is chosen, the form is
    /// based on their version with the merged values, and saved again (or
    /// shown, when a field was chosen to edit).
    private func settle() {
        guard let merge else { return }
        guard merge.values != nil else {
            status = "choose for \(NumberText.count(merge.unresolved, "field", "fields")) first"
            return refresh()
        }
        showConflictSettled(merge)
    }

    private func showConflictSettled(_ merge: PersonMerge) {
        guard let values = merge.values else { return }
        self.merge = nil
        base = merge.theirs
        originals = fields.map { merge.theirs.value(of: $0) }
        editors = values.map { LineEditor($0) }
        startingTexts = originals
        if let edited = merge.rows.firstIndex(where: { $0.choice == .edit }) {
            focused = edited
            status = "merged with their changes: edit, then ⏎ saves"
            return refresh()
        }
        attemptSave()
    }

    // MARK: State

    /// Fields typed in: a new person's form counts from what it opened
    /// with (its company), so that a fresh form says nothing changed.
    private var changedCount: Int {
        zip(editors, isAdding ? startingTexts : originals).filter { $0.text != $1 }.count + (isManagerChanged ? 1 : 0)
    }

    /// Each field's change (nil when unchanged) or why it does not read.
    private func checkedChanges() -> [(change: FieldChange?, problem: String?)] {
        zip(fields, zip(editors, originals)).map { field, pair in
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
        let shown = fields.indices.map { index in
            EditorViewModel.Field(label: fields[index].label, text: editors[index].text, cursor: editors[index].cursor,
                                  problem: checked[index].problem, isChanged: editors[index].text != originals[index])
        } + (managerEditor.map { [EditorViewModel.Field(label: Self.managerLabel, text: $0.text, cursor: $0.cursor, problem: nil,
                                                        isChanged: isManagerChanged)] } ?? [])
        let changed = changedCount
        let name = base.fullName.isEmpty ? base.id : base.fullName
        let title = isAdding ? (base.company.isEmpty ? "New person" : "New person in \(base.company)") : "Edit \(name)"
        if let merge {
            let rows = merge.shown.map { index in
                let row = merge.rows[index]
                return EditorViewModel.ConflictRow(label: row.field.label, was: row.base, mine: row.mine, theirs: row.theirs,
                                                   choice: row.choice, isConflict: row.isConflict, isFocused: index == mergeFocus)
            }
            let waiting = merge.unresolved
            var model = EditorViewModel(title: "Changed meanwhile: \(name)" + (conflictNote.map { " — \($0)" } ?? ""), fields: shown, focused: focused,
                                   status: status ?? (waiting > 0 ? "\(NumberText.count(waiting, "field", "fields")) to choose for"
                                       : merge.rows.contains { $0.choice == .edit } ? "every field chosen: ⏎ opens the form to edit"
                                       : "every field chosen: ⏎ saves"),
                                   question: question, isSaving: isSaving, saveProgress: interactor.saveProgress, conflict: rows)
            model.theirsNote = theirsNote
            return model
        }
        return EditorViewModel(title: title, fields: shown, focused: focused,
                               status: status ?? (changed == 0 ? "nothing changed" : "\(NumberText.count(changed, "field", "fields")) changed"),
                               question: question, isSaving: isSaving, saveProgress: interactor.saveProgress)
    }
}
