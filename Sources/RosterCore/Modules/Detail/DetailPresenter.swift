/// Shows one person at a time; ↑/↓ walk the list's order without leaving.
@MainActor
public final class DetailPresenter: DetailModuleInterface {
    private weak var view: DetailViewInterface?
    private weak var wireframe: DetailWireframe?
    private let interactor: DetailInteractorInput
    /// What the list showed: ↑/↓ walk it.
    private var grouped: PeopleArrangement { interactor.arrangement }
    private let clipboard: Clipboard?
    public private(set) var position: Int
    private var status: String?
    /// The field `y` copies; stays put as ↑/↓ walk people, so the same
    /// field of each can be copied in turn. Starts on the email.
    public private(set) var fieldCursor = DetailPresenter.emailField
    /// People read so far, by display position; nil for one who could not be.
    private var read: [Int: Result<Person, RepositoryError>] = [:]
    /// Positions being read.
    private var reading: Set<Int> = []

    /// Shows the person at display `position` of `interactor`'s arrangement.
    public init(interactor: DetailInteractorInput, position: Int, wireframe: DetailWireframe, clipboard: Clipboard? = nil) {
        self.interactor = interactor
        self.position = position
        self.wireframe = wireframe
        self.clipboard = clipboard
    }

    /// The `_id` of the person shown, if read (nothing is read for it).
    public var shownRecordID: String? { try? known(at: position)?.get().id }

    /// The person at `position` if the interactor has them at once or they were read.
    private func known(at position: Int) -> Result<Person, RepositoryError>? {
        interactor.peopleAtOnce(at: position..<(position + 1))?.first ?? read[position]
    }

    /// The person at `position`: read, being read, or not readable.
    private func person(at position: Int) -> Loadable<Person> {
        if let known = known(at: position) { return Loadable(known) }
        startReading(around: position)
        return read[position].map(Loadable.init) ?? .loading
    }

    /// Reads the person at `position` and those either side (↑ and ↓ find
    /// them read), off the main actor; shows them when they come.
    private func startReading(around position: Int) {
        guard !reading.contains(position) else { return }
        let span = max(0, position - 1)..<min(grouped.count, position + 2)
        reading.formUnion(span)
        interactor.readPeople(at: span) { [weak self] people in
            guard let self else { return }
            self.reading.subtract(span)
            if self.read.count > 64 { self.read = self.read.filter { abs($0.key - self.position) < 16 } }
            for (offset, position) in span.enumerated() { self.read[position] = people[offset] }
            if span.contains(self.position) { self.view?.show(self.makeViewModel()) }
            // One who could not be read for a passing reason (a lock, a
            // lost server) is read again a little later, while on screen.
            if self.read[self.position]?.failure?.healsOnRetry == true { self.retryLater(position: self.position) }
        }
    }

    private func retryLater(position: Int) {
        interactor.retryLater { [weak self] in
            // Read again while the failure stays on screen: no flicker of
            // "Loading…" every few seconds while a lock is held.
            guard let self, self.position == position, self.read[position]?.failure != nil else { return }
            self.startReading(around: position)
        }
    }

    public func attach(view: DetailViewInterface) {
        self.view = view
        view.show(makeViewModel())
    }

    /// Says `text` in the status line (until the next key).
    public func say(_ text: String) {
        status = text
        view?.show(makeViewModel())
    }

    public func showPrevious() {
        guard position > 0 else { return }
        position -= 1
        status = nil
        view?.show(makeViewModel())
    }

    public func showNext() {
        guard position + 1 < grouped.count else { return }
        position += 1
        status = nil
        view?.show(makeViewModel())
    }

    public func moveFieldCursor(by delta: Int) {
        let count = stops().count
        fieldCursor = ((min(fieldCursor, count - 1) + delta) % count + count) % count
        status = nil
        view?.show(makeViewModel())
    }

    /// Copies only printable text, and says so when anything was left out.
    public func copyField() {
        guard case .loaded(let person) = person(at: position) else {
            status = "nothing to copy: this person is not loaded"
            view?.show(makeViewModel())
            return
        }
        let fields = recordFields(of: person) + Self.fields(of: orgPlace(of: person))
        let stop = stops(of: fields)[min(fieldCursor, stops(of: fields).count - 1)]
        let field = fields[stop.field]
        let (text, removed) = DisplayText.printable(stop.person.map { field.people[$0] } ?? field.copyText)
        if text.isEmpty {
            status = "no \(field.label.lowercased()) to copy"
        } else if let delivery = clipboard?.copy(text) {
            status = ClipboardText.deliveredMessage(text, delivery) + ClipboardText.removedNote(removed)
        } else {
            status = "could not copy"
        }
        view?.show(makeViewModel())
    }

    public func goBack() {
        wireframe?.navigate(to: .back(position: position))
    }

    /// `E` or `v`: the form opens at the field the cursor is on.
    public func edit(inEditor: Bool) {
        var field: String?
        if case .loaded(let person) = person(at: position) {
            let fields = recordFields(of: person)
            // On a manager or a report (the chart's, not the record's), the form opens at its start.
            field = fields.indices.contains(fieldCursor) ? fields[fieldCursor].label : nil
        }
        wireframe?.navigate(to: .edit(position: position, inEditor: inEditor, field: field))
    }

    public func quit() {
        wireframe?.navigate(to: .quit)
    }

    /// `T`: the org chart at the person shown (at its top before they are read).
    public func showOrgChart() {
        guard case .loaded(let person) = person(at: position) else { return }
        wireframe?.navigate(to: .orgChart(recordID: person.id))
    }

    public func makeViewModel() -> DetailViewModel {
        let section = grouped.sections[grouped.sectionIndex(containing: position)]
        let place = "\(NumberText.grouped(position + 1))/\(NumberText.grouped(grouped.count))"
        let person: Person
        switch self.person(at: position) {
        case .loaded(let read):
            person = read
        case .loading:
            return DetailViewModel(title: "loading…", company: section.title, position: place, fields: [], status: status,
                                   state: .loading, problemDetail: interactor.problemDetail)
        case .failed(let error):
            // Never a blank person, whose every field would read "—" (none).
            return DetailViewModel(title: "not loaded", company: section.title, position: place, fields: [], status: status,
                                   state: .failed(Self.notLoaded(because: error)),
                                   problemDetail: interactor.problemDetail)
        }
        // The flat list's one section is everyone's: the person's own company says more.
        let company = section.companyID == nil ? ListStatusText.company(named: person.company) : section.title
        let fields = recordFields(of: person) + Self.fields(of: orgPlace(of: person))
        let allStops = stops(of: fields)
        let stop = allStops[min(fieldCursor, allStops.count - 1)]
        // Read while the connection is lost, the person is as last seen: said unless something else is.
        return DetailViewModel(title: person.fullName, company: company, position: place, fields: fields,
                               status: status ?? (interactor.isConnectionLost ? Self.asLastSeen : nil), selectedField: stop.field,
                               selectedPerson: stop.person, problemDetail: interactor.problemDetail)
    }

    /// Where `person` stands in the org chart; nil before it is read (the
    /// screen is shown again once it is) or for a source without one.
    private func orgPlace(of person: Person) -> OrgPlace? {
        interactor.orgPlace(ofRecord: person.id) { [weak self] in
            guard let self else { return }
            self.view?.show(self.makeViewModel())
        }
    }

    /// A place Tab stops on: a field, or one of the people a field names.
    struct Stop: Equatable {
        var field: Int
        var person: Int?
    }

    /// Every stop of Tab among `fields`, in reading order: each field of
    /// the record, then each manager of the chain and each report.
    func stops(of fields: [DetailViewModel.Field]) -> [Stop] {
        let recordFields = recordFieldCount
        return (0..<recordFields).map { Stop(field: $0) } + fields.indices.dropFirst(recordFields).flatMap { field in
            fields[field].people.indices.map { Stop(field: field, person: $0) }
        }
    }

    /// The stops of the person shown (the record's fields alone before they are read).
    private func stops() -> [Stop] {
        guard case .loaded(let person) = person(at: position) else { return stops(of: []) }
        return stops(of: recordFields(of: person) + Self.fields(of: orgPlace(of: person)))
    }

    /// Enter: the screen of the manager or report under the cursor.
    public func openSelected() {
        guard case .loaded(let person) = person(at: position), let place = orgPlace(of: person) else { return }
        let allStops = stops(of: recordFields(of: person) + Self.fields(of: place))
        let recordFields = recordFieldCount
        let index = min(fieldCursor, allStops.count - 1)
        guard index >= recordFields else {
            let named = place.chain.count + place.directReports.count
            status = named == 0 ? nil : "Tab to a manager or a report; Enter opens them"
            return view?.show(makeViewModel()) ?? ()
        }
        // The chart's stops follow the record's in the order the people are named: the chain, then the reports.
        wireframe?.navigate(to: .person((place.chain + place.directReports)[index - recordFields].person))
    }

    /// What the status line says of a person shown while the connection is lost.
    static let asLastSeen = "connection lost: as last seen; r reconnects"

    /// "Not loaded: connection lost, r reconnects." and the keys that help.
    static func notLoaded(because error: RepositoryError) -> String {
        let reason = error.kind == .notFound ? "this person is no longer in the directory" : error.reason
        return "Not loaded: \(reason)." + (reason.contains("r reconnects") ? "" : " r tries again.") + " Esc goes back to the list."
    }

    /// `r`: connects again (a database that went away, off the main actor)
    /// and reads the person again.
    public func retry() {
        guard interactor.canReconnect else {
            read = [:]
            return view?.show(makeViewModel()) ?? ()
        }
        status = "reconnecting…"
        view?.show(makeViewModel())
        interactor.reconnect { [weak self] failure in
            guard let self else { return }
            self.status = failure?.message
            self.read = [:]
            self.view?.show(self.makeViewModel())
        }
    }

    /// Every field of the seed's records, in a reading order.
    /// The record's lines of `person`: those of fields anyone in the source has.
    private func recordFields(of person: Person) -> [DetailViewModel.Field] {
        Self.fields(of: person, in: interactor.fieldsInUse)
    }

    /// How many lines the record's fields take (Tab's stops on them).
    private var recordFieldCount: Int {
        Self.fields(of: Person(firstName: "", lastName: ""), in: interactor.fieldsInUse).count
    }

    /// The record's lines: the name, company and email always (Tab starts
    /// on the email, `emailField`), any other field only when someone in
    /// the source has it (a vCard file has no age, balance or eye colour).
    static func fields(of person: Person, in use: FieldsInUse = .all) -> [DetailViewModel.Field] {
        func text(_ label: String, _ value: String) -> DetailViewModel.Field {
            .init(label: label, value: value.isEmpty ? "—" : value, copyText: value)
        }
        func number(_ label: String, _ value: Int?) -> DetailViewModel.Field {
            .init(label: label, value: value.map(String.init) ?? "—", copyText: value.map(String.init) ?? "")
        }
        func field(_ field: TextField) -> DetailViewModel.Field { text(field.label, person.text(field)) }
        let active = person.isActive.map { $0 ? "yes" : "no" }
        // Who and how to reach them first, the record's bookkeeping last,
        // any other field of the record between.
        let always: [TextField] = [.firstName, .lastName, .company, .email]
        let leading: [TextField] = always + [.phone, .address, .balance]
        let trailing: [TextField] = [.picture, .guid, .id]
        let others = TextField.allCases.filter { !leading.contains($0) && !trailing.contains($0) }
        let inUse = { (field: TextField) in always.contains(field) || use.contains(field) }
        return leading.filter(inUse).map(field)
            + (use.active ? [.init(label: "Active", value: active ?? "—", copyText: active ?? "")] : [])
            + (use.age ? [number("Age", person.age)] : [])
            + others.filter(inUse).map(field)
            + (inUse(.picture) ? [field(.picture)] : []) + (use.index ? [number("Index", person.index)] : [])
            + [.guid, .id].filter(inUse).map(field)
    }

    /// The person's manager, their chain of managers (the direct one first,
    /// up to the top) and their team, after their record's fields, once
    /// the org chart is read (none for a source without one). Tab stops on
    /// each person named (Enter opens them), never on the counts.
    static func fields(of place: OrgPlace?) -> [DetailViewModel.Field] {
        guard let place else { return [] }
        let manager = place.manager ?? "— (\(place.problem ?? "at the top"))"
        let reports = place.reports == 0 ? "none" : NumberText.grouped(place.reports) + Self.organisation(of: place)
        var fields: [DetailViewModel.Field] = [.init(label: "Manager", value: manager, copyText: place.manager ?? "")]
        if !place.chain.isEmpty {
            let names = place.chain.map(\.name)
            let after = place.chainProblem.map { "⚠ \($0)" }
            fields.append(.init(label: "Chain", value: (names + (after.map { [$0] } ?? [])).joined(separator: " › "),
                                people: names, after: after))
        }
        fields.append(.init(label: "Reports", value: reports, copyText: ""))
        fields += place.directReports.map { .init(label: "", value: $0.name, people: [$0.name]) }
        if place.reports > place.directReports.count {
            fields.append(.init(label: "", value: "… and \(NumberText.grouped(place.reports - place.directReports.count)) more (T shows them all)"))
        }
        return fields
    }

    /// After the count of direct reports: everyone under them, once counted.
    private static func organisation(of place: OrgPlace) -> String {
        if let all = place.organisation { return " (\(NumberText.grouped(all)) in all)" }
        return place.isCountingOrganisation ? " (counting everyone under them…)" : ""
    }

    /// Where the field cursor starts: `y` copies the email, as it always did.
    static let emailField = 3
}
