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

/// Builds the list module and takes it where its presenter asks.
@MainActor
public final class ListScreenWireframe: ListWireframe, ColumnChooserOutput {
    private unowned let root: RootWireframe
    private let makeSearcher: () -> ListSearchScheduling
    /// The main list is the root screen; a company's list (from the
    /// overview) is pushed and goes back with Esc.
    private let isMainList: Bool
    /// The prompts' entries, shared by every list of the session.
    private let history: PromptHistory
    /// Marks and columns, shared by every list of the session.
    let session: ListSession
    private var presenter: ListPresenter?
    private var listView: ListView?
    private var columnChooser: ColumnChooserPresenter?
    private var repository: (any PeopleRepository)?
    private var detailWireframe: DetailScreenWireframe?
    private var companiesWireframe: CompaniesScreenWireframe?
    private var frequencyWireframe: FrequencyScreenWireframe?
    private var editorWireframe: EditorScreenWireframe?
    /// How the source is saved to, shared by every list of the session
    /// (a company's list edits as the main list does).
    let editingAccess: SourceEditingAccess
    /// A company's list, on its way back to the overview: the filter it
    /// ended with, for the lists below to take up.
    var onLeave: ((String?) -> Void)?

    /// `makeSearcher` gives each list its own search scheduler, so that one
    /// list's newer search never cancels another's.
    init(root: RootWireframe, makeSearcher: @escaping () -> ListSearchScheduling, history: PromptHistory, session: ListSession,
         editingAccess: SourceEditingAccess = SourceEditingAccess(), isMainList: Bool = true) {
        self.root = root
        self.editingAccess = editingAccess
        self.history = history
        self.session = session
        self.makeSearcher = makeSearcher
        self.isMainList = isMainList
    }

    /// A list of its own pushed over another screen (a company's people
    /// from the overview, a value's from the counts), showing `arranged`
    /// narrowed by `filter`, of `scope`; `onLeave` is told the filter it
    /// ended with.
    static func pushed(_ arranged: ArrangedDirectory, filter: String?, scope: ListScope?, root: RootWireframe,
                       makeSearcher: @escaping () -> ListSearchScheduling, history: PromptHistory, session: ListSession,
                       editingAccess: SourceEditingAccess, onLeave: @escaping (String?) -> Void) -> ListScreenWireframe {
        let list = ListScreenWireframe(root: root, makeSearcher: makeSearcher, history: history, session: session,
                                       editingAccess: editingAccess, isMainList: false)
        list.onLeave = onLeave
        list.presentList(arranged, filter: filter, scope: scope)
        return list
    }

    /// What a landed save says once the source is read again.
    enum SavedNote: Equatable {
        case saved, deleted
        /// Saved from the person's screen, which shows them again.
        case savedFromDetail
        /// Saved from a company's list (over the overview), which shows again.
        case savedFromCompanyList
        /// Nothing saved; read again to show what someone else saved.
        case reread
        case undone(String)
        /// Another program changed the file; read again.
        case changedOnDisk
        /// Refused (someone changed the people meanwhile): read again, saying this.
        case refused(String)
        /// Edits made offline were sent (`OutboxSender.Report.summary`).
        case sent(String)
    }

    /// The source on screen.
    var shownRepository: (any PeopleRepository)? { repository }

    /// The list's presenter, once the directory is on screen (tests look at it).
    var listPresenter: ListPresenter? { presenter }

    /// Shows `arranged` (its order is the list's), narrowed by `filter`;
    /// `scope` says what a list over another screen is of. Whatever was
    /// opened over an earlier list (of another source) is let go.
    func presentList(_ arranged: ArrangedDirectory, filter: String? = nil, scope: ListScope? = nil) {
        repository = arranged.repository
        detailWireframe = nil
        companiesWireframe = nil
        frequencyWireframe = nil
        columnChooser = nil
        let presenter = ListPresenter(interactor: ListInteractor(repository: arranged.repository, scheduler: makeSearcher()),
                                      arrangement: arranged.arrangement, wireframe: self, exportWriter: FileExportWriter(), scope: scope,
                                      history: history, session: session, clipboard: TmuxClipboard(screen: root.screen))
        let view = ListView(presenter: presenter)
        listView = view
        presenter.attach(view: view)
        self.presenter = presenter
        if isMainList { root.setRoot(view) } else { root.push(view) }
        if filter != nil { presenter.applyFilter(filter) }
    }

    /// Goes back to a remembered place, then the command line's order and
    /// filter (an explicit `--sort` wins over the remembered order).
    func start(at place: Result<RememberedPlace?, PlaceStore.ReadProblem>?, sort: SortOrder?, filter: String?) {
        guard let presenter else { return }
        var restoredPerson = false
        switch place {
        case .success(let place?):
            presenter.restore(place, sortOverride: sort)
            restoredPerson = place.selectedPosition != nil || place.selectedID != nil
        case .failure: presenter.stateNotice = "state file unreadable; ignored"
        case .success(nil), nil: break
        }
        // A new order starts at its top, unless a remembered person is to be found again.
        if let sort {
            if case .success(let place?) = place { commandLineSort = (sort, place.sortOrder) } else { commandLineSort = (sort, .byLastName) }
            presenter.applySortOrder(sort, selectingFirst: !restoredPerson)
        }
        if let filter { presenter.applyFilter(filter) }
    }

    /// Where the user is now (the offline copy's live list goes on from it).
    var place: RememberedPlace? { presenter?.place }

    /// `--sort`, and the order remembered before it: an option is for its
    /// run only, so while the list keeps it, the next launch gets the
    /// order from before (an order chosen with `s`/`S` is remembered).
    private var commandLineSort: (given: SortOrder, before: SortOrder)?

    /// Where the user is now, to remember for the next launch.
    var placeToRemember: RememberedPlace? {
        guard var place = presenter?.place else { return nil }
        if let commandLineSort, presenter?.sortOrder == commandLineSort.given { place.sortOrder = commandLineSort.before }
        return place
    }

    /// The search the list is narrowed by, or is being narrowed by (its
    /// answer not in yet: a list just shown again, going live, applying
    /// it): what a list shown in its place takes up.
    var filter: String? { presenter?.filter ?? presenter?.pendingFilter }

    /// `r` from a screen over the list: the list reconnects (and says how it went).
    func reconnect() {
        presenter?.reconnect()
    }

    /// The connection was tried again on its own: the list says how it went.
    func reconnectedOnItsOwn(_ attempt: ReconnectAttempt) {
        presenter?.reconnectedOnItsOwn(attempt)
    }

    /// The list shows the live directory in place of its offline copy.
    func wentLive(marksNotFound: Int) {
        presenter?.wentLive(marksNotFound: marksNotFound)
    }

    public func navigate(to route: ListRoute) {
        guard let repository else { return }
        switch route {
        case .detail(let shown, let position):
            let detail = DetailScreenWireframe(root: root, onClose: { [weak self] lastShown in self?.detailDidClose(at: lastShown) },
                                               onEdit: { [weak self] position, inEditor, field in
                                                   self?.edit(shown: shown, position: position, inEditor: inEditor, in: repository,
                                                              focusing: field)
                                               })
            detailWireframe = detail
            detail.present(repository: repository, shown: shown, position: position, reader: makeSearcher())
        case .edit(let shown, let position, let inEditor):
            edit(shown: shown, position: position, inEditor: inEditor, in: repository)
        case .delete(let people):
            delete(people)
        case .undo:
            undo()
        case .add(let shown, let position):
            add(shown: shown, position: position, in: repository)
        case .skippedRecords:
            root.push(SkippedRecordsView(
                sourceName: repository.sourceName, records: repository.skippedRecords,
                total: repository.skippedRecords.count + repository.personCount,
                onBack: { [weak root] in root?.pop() },
                onQuit: { [weak root] in root?.finish(status: .success) }))
        case .companies(let shown, let filter, let selectedCompany) where isMainList:
            let companies = CompaniesScreenWireframe(
                root: root, makeSearcher: makeSearcher, history: history, session: session, editingAccess: editingAccess, sort: shown.sort,
                onFilterChosen: { [weak self] filter in self?.takeFilter(filter) },
                onClose: { [weak self] in self?.companiesWireframe = nil })
            companiesWireframe = companies
            companies.present(ArrangedDirectory(repository: repository, arrangement: shown), filter: filter,
                              selectedCompany: selectedCompany)
        case .counts(let shown, let filter, let field):
            let counts = FrequencyScreenWireframe(
                root: root, makeSearcher: makeSearcher, history: history, session: session, editingAccess: editingAccess, shown: shown,
                onFilterChosen: { [weak self] filter in self?.takeFilter(filter) },
                onClose: { [weak self] in self?.frequencyWireframe = nil })
            frequencyWireframe = counts
            counts.present(ArrangedDirectory(repository: repository, arrangement: shown), filter: filter, field: field)
        case .companies, .back:
            guard !isMainList else { return }
            root.pop()
            if case .back(let filter) = route { onLeave?(filter) } else { onLeave?(presenter?.filter) }
        case .columns(let choice, let sorted):
            guard let listView else { return }
            let chooser = ColumnChooserPresenter(choice: choice, sorted: sorted, output: self)
            let view = ColumnChooserView(presenter: chooser, background: listView) { [weak listView] in listView?.placedColumns }
            chooser.attach(view: view)
            columnChooser = chooser
            root.push(view)
        case .quit:
            root.finish(status: .success)
        }
    }

    public func columnsChanged(_ choice: ColumnChoice) {
        presenter?.setColumns(choice)
    }

    public func sortChosen(_ column: ListColumn) {
        presenter?.sort(by: column)
    }

    public func columnChooserClosed() {
        columnChooser = nil
        root.pop()
    }

    /// The overview over this list counts what the list now shows.
    public func filterDidChange(shown: PeopleArrangement, filter: String?) {
        companiesWireframe?.update(shown: shown, filter: filter)
        frequencyWireframe?.update(shown: shown, filter: filter)
    }

    /// The overview (or a company's list) chose a filter for this list.
    private func takeFilter(_ filter: String?) {
        guard let presenter else { return }
        // A company's list may have marked people: they show here too.
        guard filter != presenter.filter else { return presenter.marksMayHaveChanged() }
        presenter.applyFilter(filter)
    }

    /// Reads the person whole (off the main actor for a source that may
    /// wait), then opens the editor on them.
    private func edit(shown: PeopleArrangement, position: Int, inEditor: Bool = false, in repository: any PeopleRepository,
                      focusing field: String? = nil) {
        guard let editing = editingAccess.editing else { return presenter?.say(editingAccess.readOnlyReason) ?? () }
        repository.reads(through: makeSearcher()).read({ () -> Result<Person, RepositoryError> in
            do throws(RepositoryError) {
                guard let person = try repository.people(in: shown, positions: position..<(position + 1)).first else { return .failure(.notFound) }
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
                self.editInEditor(person, editing: editing)
            case .success(let person):
                self.openEditor(person, editing: editing, focusing: field)
            }
        }
    }

    /// `v`: the person's record in the user's editor until it reads (each
    /// try that does not reopens it, the reason at the top, the text kept),
    /// then saved off the main actor.
    private func editInEditor(_ person: Person, editing: any PeopleEditing) {
        var text = RecordEditText.text(for: person)
        while true {
            switch ExternalEditor.edit(text, on: root.screen) {
            case .failure(let failure):
                return presenter?.say(failure.message) ?? ()
            case .success(let edited):
                // Quit without saving (even after a try that did not read): nothing.
                if edited == text { return presenter?.say("nothing saved") ?? () }
                switch RecordEditText.reading(edited, base: person) {
                case .unchanged:
                    return presenter?.say("nothing changed") ?? ()
                case .problem(let problem):
                    text = RecordEditText.text(reopening: edited, for: person, problem: problem)
                case .changes(let changes):
                    presenter?.say("saving…")
                    return EditorInteractor(editing: editing, reader: makeSearcher()).save(changes, base: person) { [weak self] failure in
                        guard let self else { return }
                        if let failure, failure.kind == .conflict, let theirs = failure.theirs {
                            // Someone changed the same fields: choose on the conflict screen.
                            return self.openEditor(person, editing: editing, conflict: (changes, theirs))
                        }
                        if let failure { return self.presenter?.say("not saved: \(failure.message)") ?? () }
                        self.editingAccess.lastChange = UndoableChange.update(changes, of: person)
                        self.editingAccess.onSaved?(person.id, self.savedNote)
                    }
                }
            }
        }
    }

    /// A form for a new person, in the company of the person at
    /// `position` (read off the main actor for a source that may wait).
    private func add(shown: PeopleArrangement, position: Int?, in repository: any PeopleRepository) {
        guard let editing = editingAccess.editing else { return presenter?.say(editingAccess.readOnlyReason) ?? () }
        repository.reads(through: makeSearcher()).read({ () -> String in
            guard let position else { return "" }
            return ((try? repository.people(in: shown, positions: position..<(position + 1)))?.first?.company) ?? ""
        }) { [weak self] company in
            guard let self else { return }
            var blank = Person(index: nil, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }
            blank.company = company
            self.openEditor(blank, adding: true, editing: editing)
        }
    }

    /// The person editor (`E`, `a`, or the conflict screen after `v`) over the list.
    private func openEditor(_ person: Person, adding: Bool = false, editing: any PeopleEditing,
                            conflict: (changes: [FieldChange], theirs: Person)? = nil, focusing field: String? = nil) {
        let editor = EditorScreenWireframe(root: root) { [weak self] route in self?.editorDidClose(route) }
        editorWireframe = editor
        editor.present(person: person, adding: adding, editing: editing, reader: makeSearcher(), conflict: conflict, focusing: field)
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
                       conflictNote: "your edit made offline")
    }

    /// `U`: the last change saved from a screen taken back, off the main
    /// actor, as any edit is saved (someone's change since is a conflict).
    private func undo() {
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
    private func delete(_ people: [Person]) {
        guard let editing = editingAccess.editing, let repository else { return presenter?.say(editingAccess.readOnlyReason) ?? () }
        let selected = presenter?.selectedID
        EditorInteractor(editing: editing, reader: makeSearcher()).perform({ editing throws(EditFailure) -> String? in
            try editing.delete(people)
            // The selected person, if they stay, stays selected.
            let kept = selected.flatMap { try? repository.person($0) }.map(\.id)
            return people.contains { $0.id == kept } ? nil : kept
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
                self.editingAccess.onSaved?(kept, .deleted)
            }
        }
    }

    private func editorDidClose(_ route: EditorRoute) {
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
    private var savedNote: SavedNote {
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

    public var editingRefusal: String? { editingAccess.editing == nil ? editingAccess.readOnlyReason : nil }

    /// Says `text` in the list's status line.
    func say(_ text: String) {
        presenter?.say(text)
    }

    private func detailDidClose(at position: Int) {
        detailWireframe = nil
        root.pop()
        presenter?.reveal(position: position)
    }
}
