import Testing
import TestSupport
import RosterCore
@testable import RosterTUI

/// Records the manager saves a form asks for, beside its other saves.
@MainActor
final class HeldManagerSaves: EditorInteractorInput {
    let others = HeldSaves()
    var managerSaves: [(reference: String, recordID: String)] = []
    var managerDeliveries: [@MainActor @Sendable (EditFailure?) -> Void] = []

    func save(_ changes: [FieldChange], base: Person, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        others.save(changes, base: base, then: deliver)
    }

    func add(_ changes: [FieldChange], recordID: String, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        others.add(changes, recordID: recordID, then: deliver)
    }

    func later(_ delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void) { others.later(delay, work) }

    func setManager(_ reference: String, of recordID: String, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        managerSaves.append((reference, recordID))
        managerDeliveries.append(deliver)
    }
}

/// The form's Manager field: offered where the source keeps managers,
/// prefilled, saved first through the manager check, its refusal said.
@MainActor
@Suite("Person editor: manager")
struct EditorManagerTests {
    let interactor = HeldManagerSaves()
    let routes = EditorRoutes()

    func form(_ manager: ManagerField, adding: Bool = false) -> (EditorPresenter, EditorView) {
        let presenter = EditorPresenter(person: EditorTests.ada, adding: adding, interactor: interactor, wireframe: routes,
                                        sourceName: "org.json", manager: manager)
        let view = EditorView(presenter: presenter)
        presenter.attach(view: view)
        return (presenter, view)
    }

    func type(_ keys: [Key], into view: EditorView) -> MemoryScreen {
        for key in keys { view.handle(key, screenSize: ScreenSize(rows: 24, columns: 80)) }
        return ViewSnapshotTests.draw(view, rows: 24, columns: 80)
    }

    @Test("the manager as the source keeps it is the last field; none where the source keeps none, and none for a new person")
    func offered() {
        let (presenter, _) = form(.reference("grace@x.org"))
        let last = presenter.makeViewModel().fields.last
        #expect(last?.label == "Manager" && last?.text == "grace@x.org" && last?.isChanged == false)
        #expect(form(.reference(nil)).0.makeViewModel().fields.last?.text == "")
        #expect(!form(.notKept).0.makeViewModel().fields.contains { $0.label == "Manager" })
        #expect(!form(.reference("g"), adding: true).0.makeViewModel().fields.contains { $0.label == "Manager" })
    }

    @Test("read once the form is up, the manager appears as the last field; a new person's form never shows one")
    func readLater() {
        let (presenter, view) = form(.notKept)
        _ = type([.tab], into: view)
        presenter.showManager(.reference("grace@x.org"))
        #expect(presenter.makeViewModel().fields.last?.text == "grace@x.org" && presenter.focused == 1)
        let (adding, _) = form(.notKept, adding: true)
        adding.showManager(.reference("grace@x.org"))
        #expect(!adding.makeViewModel().fields.contains { $0.label == "Manager" })
    }

    @Test("a new manager is saved first, alone; then the other fields; then the form closes, saved")
    func savedFirst() throws {
        let (presenter, view) = form(.reference("grace@x.org"))
        let screen = type([.up, .control("u"), .typed("alan@x.org"), .tab, .control("u"), .typed("Augusta"), .enter], into: view)
        #expect(screen.line(23).hasPrefix(" saving…"))
        #expect(interactor.managerSaves.map(\.reference) == ["alan@x.org"] && interactor.managerSaves.map(\.recordID) == ["a1"])
        #expect(interactor.others.saves.isEmpty)
        interactor.managerDeliveries[0](nil)
        #expect(interactor.others.saves.map(\.changes) == [[FieldChange(field: .text(.firstName), value: .text("Augusta"))]])
        interactor.others.deliveries[0](nil)
        #expect(routes.routes.count == 1)
        // U takes both back: the fields' update and the manager.
        guard case .saved(_, .managerChanged(let person, let before, let after, .updated(let fields, _)?)?)? = routes.routes.first else {
            Issue.record("no manager change to undo: \(routes.routes)")
            return
        }
        #expect(person.id == "a1" && before == "grace@x.org" && after == "alan@x.org")
        #expect(fields.map(\.field) == [.text(.firstName)])
        _ = presenter
    }

    @Test("refused (a loop, nobody): the reason first, at the Manager field; nothing else saved; the form stays")
    func refused() throws {
        let (presenter, view) = form(.reference(nil))
        _ = type([.up, .typed("alan@x.org"), .tab, .control("u"), .typed("Augusta"), .enter], into: view)
        interactor.managerDeliveries[0](EditFailure(.failed, "org.json: Ada Lovelace cannot report to Alan Turing: "
                                                    + "Alan Turing reports to Ada Lovelace; nothing changed"))
        let screen = type([], into: view)
        #expect(screen.line(23).hasPrefix(" not saved: Ada Lovelace cannot report to Alan Turing: Alan Turing reports to"))
        #expect(presenter.focused == presenter.makeViewModel().fields.count - 1)
        #expect(interactor.others.saves.isEmpty && routes.routes.isEmpty)
    }

    @Test("only the manager changed: saved alone, and Esc before asks about one change")
    func aloneAndCounted() {
        let (_, view) = form(.reference("g"))
        #expect(type([.up, .typed("x"), .escape], into: view).line(23).hasPrefix(" Throw away 1 change? (y/n)"))
        _ = type([.character("n"), .enter], into: view)
        #expect(interactor.managerSaves.map(\.reference) == ["gx"])
        interactor.managerDeliveries[0](nil)
        #expect(interactor.others.saves.isEmpty && routes.routes.count == 1)
        guard case .saved(_, let undo?)? = routes.routes.first else {
            Issue.record("nothing to undo: \(routes.routes)")
            return
        }
        #expect(undo.done == "Ada Lovelace's manager put back")
        if case .managerChanged(_, "g", "gx", nil) = undo {} else { Issue.record("\(undo)") }
    }

    @Test("a source that keeps fewer fields (a vCard) gets a form of those alone, in the form's order, the manager after them")
    func fieldsKept() {
        let presenter = EditorPresenter(person: EditorTests.ada, interactor: interactor, wireframe: routes, sourceName: "ada.vcf",
                                        manager: .reference("g"), fieldsKept: [.text(.email), .text(.firstName), .text(.lastName)])
        #expect(presenter.makeViewModel().fields.map(\.label) == ["First name", "Last name", "Email", "Manager"])
        #expect(presenter.fields == [.text(.firstName), .text(.lastName), .text(.email)])
        let every = EditorPresenter(person: EditorTests.ada, interactor: interactor, wireframe: routes)
        #expect(every.fields == EditorPresenter.every && every.fields.contains(.age))
    }
}
