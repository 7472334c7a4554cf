/// Shows one person at a time; ↑/↓ walk the list's order without leaving.
@MainActor
public final class DetailPresenter: DetailModuleInterface {
    private weak var view: DetailViewInterface?
    private weak var wireframe: DetailWireframe?
    private let repository: any PeopleRepository
    /// What the list showed: ↑/↓ walk it.
    private let grouped: PeopleArrangement
    private let clipboard: Clipboard?
    public private(set) var position: Int
    private var status: String?

    public init(repository: any PeopleRepository, arrangement: PeopleArrangement, position: Int, wireframe: DetailWireframe,
                clipboard: Clipboard? = nil) {
        self.repository = repository
        grouped = arrangement
        self.position = position
        self.wireframe = wireframe
        self.clipboard = clipboard
    }

    public func attach(view: DetailViewInterface) {
        self.view = view
        view.show(makeViewModel())
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

    /// Copies only printable text, and says so when anything was left out.
    public func copyEmail() {
        let stored = repository.rows(in: grouped, positions: position..<(position + 1)).first?.email ?? ""
        let (email, removed) = DisplayText.printable(stored)
        if email.isEmpty {
            status = "no email to copy"
        } else if clipboard?.copy(email) == true {
            status = "copied \(email)" + (removed == 0 ? "" : " (\(removed) control character\(removed == 1 ? "" : "s") left out)")
        } else {
            status = "could not copy"
        }
        view?.show(makeViewModel())
    }

    public func goBack() {
        wireframe?.navigate(to: .back(position: position))
    }

    public func quit() {
        wireframe?.navigate(to: .quit)
    }

    public func makeViewModel() -> DetailViewModel {
        let person = repository.people(in: grouped, positions: position..<(position + 1)).first ?? Person(firstName: "", lastName: "")
        let section = grouped.sections[grouped.sectionIndex(containing: position)]
        return DetailViewModel(
            title: person.fullName,
            company: section.title,
            position: "\(NumberText.grouped(position + 1))/\(NumberText.grouped(grouped.count))",
            fields: Self.fields(of: person),
            status: status)
    }

    /// Every field of the seed's records, in a reading order.
    static func fields(of person: Person) -> [DetailViewModel.Field] {
        func text(_ value: String) -> String { value.isEmpty ? "—" : value }
        func number(_ value: Int?) -> String { value.map(String.init) ?? "—" }
        let active = person.isActive.map { $0 ? "yes" : "no" } ?? "—"
        return [
            .init(label: "First name", value: text(person.firstName)),
            .init(label: "Last name", value: text(person.lastName)),
            .init(label: "Company", value: text(person.company)),
            .init(label: "Email", value: text(person.email)),
            .init(label: "Phone", value: text(person.phone)),
            .init(label: "Address", value: text(person.address)),
            .init(label: "Balance", value: text(person.balance.text)),
            .init(label: "Active", value: active),
            .init(label: "Age", value: number(person.age)),
            .init(label: "Eye color", value: text(person.eyeColor)),
            .init(label: "Favorite fruit", value: text(person.favoriteFruit)),
            .init(label: "Picture", value: text(person.picture)),
            .init(label: "Index", value: number(person.index)),
            .init(label: "GUID", value: text(person.guid)),
            .init(label: "ID", value: text(person.id)),
        ]
    }
}
