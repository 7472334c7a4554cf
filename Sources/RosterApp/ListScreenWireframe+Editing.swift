import RosterCore
import RosterTUI
import RosterStore

/// How the screens save to the source, shared by every list of a session:
/// the source's editing (nil: read-only, and why), what a landed save
/// does, and the last change for `U`.
@MainActor
final class SourceEditingAccess {
    var editing: (any PeopleEditing)?
    var readOnlyReason = "this directory cannot be edited"
    var onSaved: ((_ recordID: String?, _ note: ListScreenWireframe.SavedNote) -> Void)?
    /// The last change saved from a screen, for `U` (one, until the app quits).
    var lastChange: UndoableChange?
}

/// Editing from the list: `E`, `v`, `a`, `D` and `U`, and where each save lands.
extension ListScreenWireframe {
    /// Reads the person whole (off the main actor for a source that may
    /// wait), then opens the editor on them.
    func edit(shown: PeopleArrangement, position: Int, inEditor: Bool = false, in repository: any PeopleRepository,
                      focusing field: String? = nil) {
        guard let editing = editingAccess.editing else { return presenter?.say(editingAccess.readOnlyReason) ?? () }
        repository.reads(through: makeSearcher()).read({ () -> Result<Person, RepositoryError> in
            do throws(RepositoryError) {
                guard let person = try await repository.people(in: shown, positions: position..<(position + 1)).first else {
                    return .failure(.notFound)
                }
                return .success(person)
            } catch {
                return .failure(error)
            }
        }) { [weak self] read in
            guard let self else { return }
            switch read {
            case .failure(let error):
                self.presenter?.say("cannot edit: \(error.reason)")
            case .success(let person) where inEditor:
                self.editInEditor(withManagerOf: person, editing: editing)
            case .success(let person):
                self.openEditor(withManagerOf: person, editing: editing, focusing: field)
            }
        }
    }

    /// The form, and where the source keeps managers, the person's read
    /// (off the main actor: a file is read again) into its Manager field
    /// once it is up: keys typed meanwhile reach the form. One that cannot
    /// be read leaves the field out.
    private func openEditor(withManagerOf person: Person, editing: any PeopleEditing, focusing field: String?) {
        openEditor(person, editing: editing, focusing: field)
        guard let managers = editing.managers, !person.id.isEmpty, let editor = editorWireframe else { return }
        EditorInteractor(editing: editing, reader: makeSearcher()).perform({ _ throws(EditFailure) in
            try managers.manager(of: person.id)
        }) { [weak editor] read in
            if case .success(let manager) = read { editor?.showManager(manager) }
        }
    }

    /// `v`, once the person's manager is read (off the main actor) where
    /// the source keeps managers: the record's text then names it too.
    private func editInEditor(withManagerOf person: Person, editing: any PeopleEditing) {
        guard let managers = editing.managers, !person.id.isEmpty else { return editInEditor(person, editing: editing) }
        EditorInteractor(editing: editing, reader: makeSearcher()).perform({ _ throws(EditFailure) in
            try managers.manager(of: person.id)
        }) { [weak self] read in
            self?.editInEditor(person, editing: editing, manager: (try? read.get()) ?? .notKept)
        }
    }

    /// `v`: the person's record in the user's editor until it reads (each
    /// try that does not reopens it, the reason at the top, the text kept),
    /// then saved off the main actor; a changed `"manager"` first, on its
    /// own, through the manager check (as the form saves it).
    func editInEditor(_ person: Person, editing: any PeopleEditing, manager: ManagerField = .notKept) {
        var text = RecordEditText.text(for: person, manager: manager)
        while true {
            switch ExternalEditor.edit(text, on: root.screen) {
            case .failure(let failure):
                return presenter?.say(failure.message) ?? ()
            case .success(let bytes):
                let (edited, notUTF8) = RecordEditText.decoding(bytes)
                // Quit without saving (even after a try that did not read): nothing.
                if edited == text { return presenter?.say("nothing saved") ?? () }
                if let notUTF8 {
                    text = RecordEditText.text(reopening: edited, for: person, problem: notUTF8)
                    continue
                }
                let newManager = Self.changedManager(in: edited, from: manager).map { (before: Self.reference(in: manager), after: $0) }
                switch RecordEditText.reading(edited, base: person) {
                case .unchanged where newManager == nil:
                    return presenter?.say("nothing changed") ?? ()
                case .unchanged:
                    return saveEdited(person, [], manager: newManager, editing: editing)
                case .problem(let problem):
                    text = RecordEditText.text(reopening: edited, for: person, problem: problem)
                case .changes(let changes):
                    return saveEdited(person, changes, manager: newManager, editing: editing)
                }
            }
        }
    }

    /// The manager `v`'s saved text names, when it is not the one the
    /// source kept (nil: unchanged, or the source keeps none).
    private static func changedManager(in edited: String, from manager: ManagerField) -> String? {
        guard case .reference(let kept) = manager else { return nil }
        let named = RecordEditText.manager(in: edited)
        return ManagerChange.kept(named) == kept.flatMap(ManagerChange.kept) ? nil : named
    }

    /// The reference a source keeps ("": none, or none kept).
    private static func reference(in manager: ManagerField) -> String {
        if case .reference(let kept) = manager { kept ?? "" } else { "" }
    }

    /// Saves what `v` changed: the manager first (refused: nothing else
    /// is saved, and the list says why), then the fields; `U` takes both back.
    private func saveEdited(_ person: Person, _ changes: [FieldChange], manager: (before: String, after: String)?,
                            managerSaved: (before: String, after: String)? = nil, editing: any PeopleEditing) {
        presenter?.say("saving…")
        let interactor = EditorInteractor(editing: editing, reader: makeSearcher())
        if let manager {
            return interactor.setManager(manager.after, of: person.id) { [weak self] failure in
                guard let self else { return }
                if let failure { return self.presenter?.say("not saved: \(failure.message)") ?? () }
                guard changes.isEmpty else { return self.saveEdited(person, changes, manager: nil, managerSaved: manager, editing: editing) }
                self.editingAccess.lastChange = .with(manager: manager, of: person, fields: nil)
                self.editingAccess.onSaved?(person.id, self.savedNote)
            }
        }
        interactor.save(changes, base: person) { [weak self] failure in
            guard let self else { return }
            if let failure, failure.kind == .conflict, let theirs = failure.theirs {
                // Someone changed the same fields: choose on the conflict screen.
                return self.openEditor(person, editing: editing, conflict: (changes, theirs), theirsNote: failure.theirsNote)
            }
            if let failure { return self.presenter?.say("not saved: \(failure.message)") ?? () }
            self.editingAccess.lastChange = .with(manager: managerSaved, of: person, fields: UndoableChange.update(changes, of: person))
            self.editingAccess.onSaved?(person.id, self.savedNote)
        }
    }

    /// A form for a new person, in the company of the person at
    /// `position` (read off the main actor for a source that may wait).
    func add(shown: PeopleArrangement, position: Int?, in repository: any PeopleRepository) {
        guard let editing = editingAccess.editing else { return presenter?.say(editingAccess.readOnlyReason) ?? () }
        repository.reads(through: makeSearcher()).read({ () -> String in
            guard let position else { return "" }
            return ((try? await repository.people(in: shown, positions: position..<(position + 1)))?.first?.company) ?? ""
        }) { [weak self] company in
            guard let self else { return }
            var blank = Person(index: nil, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }
            blank.company = company
            self.openEditor(blank, adding: true, editing: editing)
        }
    }

    /// The person editor (`E`, `a`, or the conflict screen after `v`) over the list.
    func openEditor(_ person: Person, adding: Bool = false, editing: any PeopleEditing,
                    conflict: (changes: [FieldChange], theirs: Person)? = nil, theirsNote: String? = nil, focusing field: String? = nil) {
        let editor = EditorScreenWireframe(root: root) { [weak self] route in self?.editorDidClose(route) }
        editorWireframe = editor
        editor.present(person: person, adding: adding, editing: editing, reader: makeSearcher(), conflict: conflict, theirsNote: theirsNote,
                       focusing: field, sourceName: repository?.sourceName ?? "")
    }

    /// The conflict screen for edits made offline that the server refused
    /// because someone changed the same fields meanwhile: was, yours and
    /// theirs, as after any save refused so. `onClose` is told once the
    /// user has settled it: saved (theirs, yours or a mix), or thrown away.
    func resolve(_ held: OutboxSender.HeldEdit, editing: any PeopleEditing, onClose: @escaping () -> Void) {
        let editor = EditorScreenWireframe(root: root) { [weak self] route in
            self?.editorDidClose(route)
            onClose()
        }
        editorWireframe = editor
        editor.present(person: held.base, editing: editing, reader: makeSearcher(), conflict: (held.changes, held.theirs),
                       conflictNote: "your edit made offline", theirsNote: "the server's, as it answered when the edit was sent",
                       sourceName: repository?.sourceName ?? "")
    }

    /// `U`: the last change saved from a screen taken back, off the main
    /// actor, as any edit is saved (someone's change since is a conflict).
    func undo() {
        guard let editing = editingAccess.editing, let change = editingAccess.lastChange else {
            return presenter?.say(editingAccess.editing == nil ? editingAccess.readOnlyReason : "nothing to undo") ?? ()
        }
        presenter?.say("undoing…")
        EditorInteractor(editing: editing, reader: makeSearcher()).perform({ editing throws(EditFailure) in
            try change.undo(through: editing)
        }) { [weak self] outcome in
            guard let self else { return }
            if let failure = outcome.failure { return self.presenter?.say("not undone: \(failure.message)") ?? () }
            self.editingAccess.lastChange = nil
            self.editingAccess.onSaved?(change.selectedAfterUndo, .undone(change.done))
        }
    }

    /// Deletes `people` off the main actor; the list is read again after.
    func delete(_ people: [Person]) {
        guard let editing = editingAccess.editing else { return presenter?.say(editingAccess.readOnlyReason) ?? () }
        // The selected person (by `_id`, as the list's row has it), if they stay, stays selected.
        let selected = place?.selectedID
        EditorInteractor(editing: editing, reader: makeSearcher()).perform({ editing throws(EditFailure) -> String? in
            try editing.delete(people)
            return people.contains { $0.id == selected } ? nil : selected
        }) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .failure(let failure) where failure.kind == .conflict || failure.kind == .notFound:
                // They changed (or went) meanwhile: shown as they are now.
                self.editingAccess.onSaved?(self.place?.selectedID, .refused("nothing deleted: \(failure.message)"))
            case .failure(let failure): self.presenter?.say("nothing deleted: \(failure.message)")
            case .success(let kept):
                self.session.unmarkAll()
                self.editingAccess.lastChange = .deleted(people)
                // From a company's list, that list shows again once the source is read.
                self.editingAccess.onSaved?(kept, self.isMainList ? .deleted : .deletedFromCompanyList)
            }
        }
    }

    func editorDidClose(_ route: EditorRoute) {
        editorWireframe = nil
        switch route {
        case .saved(let recordID, let undo):
            editingAccess.lastChange = undo
            editingAccess.onSaved?(recordID, savedNote)
        case .cancelled(let stale):
            // The person changed underneath: shown as they are now.
            if stale, let place = presenter?.place {
                editingAccess.onSaved?(place.selectedID, .reread)
            } else if detailWireframe == nil {
                // (Over the person's screen, that screen shows again: the list says nothing.)
                presenter?.say("nothing saved")
            }
        }
    }

    /// How a save from this list (or the person's screen over it) lands.
    var savedNote: SavedNote {
        isMainList ? (detailWireframe == nil ? .saved : .savedFromDetail) : .savedFromCompanyList
    }

    /// After a save from a company's list, the source read again: the
    /// overview and that company's list open again over this list, at the
    /// person saved.
    func reopenCompanyList(selecting recordID: String, saying note: String) {
        guard isMainList, let presenter, let companyID = presenter.selectedCompanyID else { return }
        presenter.showCompanies()
        companiesWireframe?.openPeople(of: companyID, selecting: recordID, saying: note)
    }

    /// After a delete from a company's list, the source read again: the
    /// overview and that company's list open again over this list, at the
    /// person `recordID` (one not deleted stays selected), else at `row`.
    func reopenCompanyList(_ companyID: Int, selecting recordID: String?, at row: Int, saying note: String) {
        guard isMainList, let presenter else { return }
        navigate(to: .companies(shown: presenter.displayed, filter: presenter.filter, selectedCompany: companyID))
        if let recordID {
            companiesWireframe?.openPeople(of: companyID, selecting: recordID, saying: note)
        } else {
            companiesWireframe?.openPeople(of: companyID, at: row, saying: note)
        }
    }
}
