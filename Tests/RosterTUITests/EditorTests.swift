import Testing
import TestSupport
import RosterCore
@testable import RosterTUI

/// Records the saves an editor asks for and answers them as told.
@MainActor
final class HeldSaves: EditorInteractorInput {
    var saves: [(changes: [FieldChange], base: Person)] = []
    var deliveries: [@MainActor @Sendable (EditFailure?) -> Void] = []

    func save(_ changes: [FieldChange], base: Person, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        saves.append((changes, base))
        deliveries.append(deliver)
    }

    let saveProgress: SaveProgress? = SaveProgress()

    var adds: [(changes: [FieldChange], recordID: String)] = []
    func add(_ changes: [FieldChange], recordID: String, then deliver: @escaping @MainActor @Sendable (EditFailure?) -> Void) {
        adds.append((changes, recordID))
        deliveries.append(deliver)
    }

    /// Work asked to run later, run when the test says (`runLater`).
    var later: [(delay: Duration, work: @MainActor @Sendable () -> Void)] = []
    func later(_ delay: Duration, _ work: @escaping @MainActor @Sendable () -> Void) {
        later.append((delay, work))
    }

    func runLater() {
        let due = later
        later = []
        for item in due { item.work() }
    }
}

@MainActor
final class EditorRoutes: EditorWireframe {
    var routes: [EditorRoute] = []
    func navigate(to route: EditorRoute) { routes.append(route) }
}

/// The person editor: typed as a form, checked as it is typed, nothing
/// saved before Enter, and nothing thrown away without asking.
@MainActor
@Suite("Person editor")
struct EditorTests {
    let interactor = HeldSaves()
    let routes = EditorRoutes()
    let presenter: EditorPresenter
    let view: EditorView

    nonisolated static var ada: Person {
        var person = Person(index: 0, isActive: true, balanceCents: 100_000, age: 36, presentTextFields: 0x0FFF) { field in
            switch field {
            case .id: return "a1"
            case .firstName: return "Ada"
            case .lastName: return "Lovelace"
            case .company: return "ACME"
            case .email: return "ada@acme.test"
            case .balance: return "$1,000.00"
            default: return ""
            }
        }
        person.id = "a1"
        return person
    }

    init() {
        presenter = EditorPresenter(person: Self.ada, interactor: interactor, wireframe: routes)
        view = EditorView(presenter: presenter)
        presenter.attach(view: view)
    }

    func type(_ keys: [Key], rows: Int = 24, columns: Int = 80) -> MemoryScreen {
        for key in keys { view.handle(key, screenSize: ScreenSize(rows: rows, columns: columns)) }
        return ViewSnapshotTests.draw(view, rows: rows, columns: columns)
    }

    @Test("the form shows today's values, the first field being typed in, with the cursor at its end")
    func opens() {
        let screen = type([])
        #expect(screen.line(0).hasPrefix(" Roster — Edit Ada Lovelace"))
        #expect(screen.line(2) == "  First name      Ada" + String(repeating: " ", count: 59))
        #expect(screen.line(5).hasPrefix("  Email           ada@acme.test"))
        #expect(screen.line(8).hasPrefix("  Age             36"))
        #expect(screen.line(9).hasPrefix("  Balance         $1,000.00"))
        #expect(screen.line(10).hasPrefix("  Active          yes"))
        #expect(screen.cursor == CellPosition(row: 2, column: 21))
        #expect(screen.line(23).hasPrefix(" nothing changed") && screen.line(23).hasSuffix("⏎ save  Tab/↑↓ field  F1 help  Esc cancel "))
    }

    @Test("a value that does not read says why under its field; Enter then saves nothing and goes to it")
    func checksAsTyped() {
        var screen = type([.tab, .tab, .tab, .control("u"), .typed("ada.acme"), .down, .down, .down, .control("u"), .typed("old")])
        #expect(screen.line(5).hasPrefix("• Email           ada.acme"))
        #expect(screen.line(6).hasPrefix("                  ↳ expected name@domain, found 'ada.acm"))
        #expect(screen.line(9).hasPrefix("• Age             old"))
        #expect(screen.line(10).hasPrefix("                  ↳ expected a whole number"))
        #expect(screen.line(23).hasPrefix(" 2 fields changed"))
        screen = type([.enter])
        #expect(interactor.saves.isEmpty)
        #expect(presenter.focused == 3)
        #expect(screen.line(23).hasPrefix(" not saved: fix email first"))
    }

    @Test("while a save runs, how far it has got: a bar and a percentage, drawn ten times a second until it lands")
    func saveProgress() throws {
        #expect(!view.isMoving)
        _ = type([.control("u"), .typed("Augusta"), .enter])
        let progress = try #require(interactor.saveProgress)
        #expect(type([]).line(23).hasPrefix(" saving…   "), "nothing said yet: no bar")
        progress.begin(total: 1000)
        progress.advance(to: 420)
        let screen = type([])
        #expect(view.isMoving)
        #expect(screen.line(0).hasSuffix("saving… 42% "))
        #expect(screen.line(23).hasPrefix(" saving… ██████████▉                42%"), "26 cells at 80 columns")
        interactor.deliveries[0](EditFailure(.failed, "people.json: no space left on device"))
        #expect(!view.isMoving)
        #expect(type([]).line(23).hasPrefix(" not saved: people.json: no space left on device"))
    }

    @Test("Enter saves exactly the changed fields, based on the person as opened; saved goes back to the list at them")
    func saves() throws {
        _ = type([.tab, .tab, .control("u"), .typed("Babbage & Co"), .tab, .tab, .tab, .tab, .control("u"), .typed("37"), .enter])
        #expect(interactor.saves.count == 1)
        #expect(interactor.saves.first?.changes == [FieldChange(field: .text(.company), value: .text("Babbage & Co")),
                                                     FieldChange(field: .age, value: .age(37))])
        #expect(interactor.saves.first?.base == Self.ada)
        #expect(type([]).line(23).hasPrefix(" saving…"))
        #expect(type([.character("x"), .enter]).line(5).hasPrefix("  Email           ada@acme.test"), "keys wait while saving")
        #expect(interactor.saves.count == 1)
        let deliver = try #require(interactor.deliveries.first)
        deliver(nil)
        #expect(routes.routes == [.saved(recordID: "a1", undo: .updated(before: [FieldChange(field: .text(.company), value: .text("ACME")),
                                                                             FieldChange(field: .age, value: .age(36))],
                                                                    after: Self.ada.applying(interactor.saves[0].changes)))])
    }

    @Test("a save that fails says why and keeps the form as typed")
    func failedSave() throws {
        _ = type([.tab, .tab, .tab, .control("u"), .typed("ada@new.io"), .enter])
        let deliver = try #require(interactor.deliveries.first)
        deliver(EditFailure(.conflict, "changed meanwhile: email to 'x@y.z'"))
        let screen = type([])
        #expect(screen.line(23).hasPrefix(" not saved: changed meanwhile: email to 'x@y.z'"))
        #expect(screen.line(5).hasPrefix("• Email           ada@new.io"))
        #expect(routes.routes.isEmpty)
        // Leaving now, the list reads the person again: they changed.
        _ = type([.escape, .character("y")])
        #expect(routes.routes == [.cancelled(stale: true)])
    }

    @Test("a save refused by a lock waits, saying why, and is tried again every second with no key, until it lands")
    func waitsForALock() throws {
        _ = type([.tab, .tab, .tab, .control("u"), .typed("ada@new.io"), .enter])
        interactor.deliveries[0](EditFailure(.busy, "another program is writing to people.db"))
        var screen = type([])
        #expect(screen.line(23).hasPrefix(" waiting: another program is writing to people.db (Esc stops waiting)"))
        #expect(interactor.later.map(\.delay) == [.seconds(1)])
        screen = type([.character("x"), .enter])
        #expect(screen.line(5).hasPrefix("• Email           ada@new.io"), "keys wait while it waits")
        #expect(interactor.saves.count == 1)
        interactor.runLater()
        try #require(interactor.saves.count == 2, "tried again on its own")
        #expect(interactor.saves[1].changes == interactor.saves[0].changes)
        #expect(type([]).line(23).hasPrefix(" waiting: another program is writing to people.db"), "still saying why while it tries")
        interactor.deliveries[1](EditFailure(.busy, "another program is writing to people.db"))
        interactor.runLater()
        try #require(interactor.deliveries.count == 3)
        interactor.deliveries[2](nil)
        #expect(routes.routes.count == 1, "saved once the lock is gone")
        #expect(interactor.saves.count == 3)
    }

    @Test("Esc stops waiting for a lock: not tried again, said so; ⏎ waits again; a try on its way when Esc came may still save")
    func escStopsWaitingForALock() throws {
        _ = type([.tab, .tab, .tab, .control("u"), .typed("ada@new.io"), .enter])
        interactor.deliveries[0](EditFailure(.busy, "table people is locked, or the server busy"))
        var screen = type([.escape])
        #expect(screen.line(23).hasPrefix(" not saved: table people is locked, or the server busy (⏎ tries again)"))
        interactor.runLater()
        #expect(interactor.saves.count == 1, "not tried again")
        #expect(routes.routes.isEmpty, "the form stays, as typed")
        _ = type([.enter])
        try #require(interactor.saves.count == 2)
        interactor.deliveries[1](EditFailure(.busy, "table people is locked, or the server busy"))
        interactor.runLater()
        try #require(interactor.saves.count == 3, "waits again after ⏎")
        screen = type([.escape])
        #expect(screen.line(23).hasPrefix(" stops waiting after this try…"))
        interactor.deliveries[2](EditFailure(.busy, "table people is locked, or the server busy"))
        #expect(type([]).line(23).hasPrefix(" not saved: table people is locked, or the server busy (⏎ tries again)"))
        #expect(interactor.later.isEmpty)
        _ = type([.enter])
        try #require(interactor.deliveries.count == 4)
        interactor.deliveries[3](nil)
        #expect(routes.routes.count == 1)
    }

    @Test("both names cleared (or left as spaces, zero-width marks): not saved, said as every editor says it, at the first name; one kept saves")
    func namelessRefused() throws {
        var screen = type([.control("u"), .tab, .control("u"), .enter])
        #expect(screen.line(23).hasPrefix(" not saved: a first or last name is needed"), "\(screen.line(23))")
        #expect(interactor.saves.isEmpty)
        #expect(presenter.focused == 0, "at the first name")
        screen = type([.typed(" \u{200B}"), .enter])
        #expect(screen.line(23).hasPrefix(" not saved: a first or last name is needed"))
        #expect(interactor.saves.isEmpty)
        _ = type([.control("u"), .typed("Augusta"), .enter])
        #expect(interactor.saves.first?.changes == [FieldChange(field: .text(.firstName), value: .text("Augusta")),
                                                     FieldChange(field: .text(.lastName), value: .text(""))])
    }

    @Test("Esc with changes asks; n keeps typing, y throws them away; Esc or Enter with none goes back at once")
    func cancelling() {
        var screen = type([.character("!"), .escape])
        #expect(screen.line(23).hasPrefix(" Throw away 1 change? (y/n)"))
        screen = type([.character("n")])
        #expect(screen.line(2).hasPrefix("• First name      Ada!"))
        #expect(routes.routes.isEmpty)
        _ = type([.escape, .character("y")])
        #expect(routes.routes == [.cancelled(stale: false)])
        let untouched = EditorPresenter(person: Self.ada, interactor: interactor, wireframe: routes)
        untouched.cancel()
        untouched.save()
        #expect(routes.routes == [.cancelled(stale: false), .cancelled(stale: false), .cancelled(stale: false)])
        #expect(interactor.saves.isEmpty)
    }

    @Test("pasted control characters never reach the field; at 40x10 the form scrolls to the field typed in")
    func hostileAndSmall() {
        _ = type([.paste("x\u{1B}[2J\u{07}y")])
        #expect(presenter.makeViewModel().fields[0].text == "Adax[2Jy")
        let screen = type([.backTab, .backTab], rows: 10, columns: 40)
        #expect(screen.line(0).hasPrefix(" Roster — Edit Ada Lovelace"))
        #expect(screen.line(8).hasPrefix("  Eye color"))
        #expect(screen.line(9).hasPrefix(" 1 field changed"))
        #expect(screen.line(9).contains("⏎ save"), "the way to finish stays on a narrow bar: \(screen.line(9))")
        #expect(screen.cursor?.row == 8)
    }
}

extension EditorTests {
    @Test("a then Esc with nothing typed leaves at once: the prefilled company is not a change of the user's; n keeps the count in the status")
    func addingCancelled() {
        var blank = Person(index: nil, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }
        blank.company = "ACME"
        let presenter = EditorPresenter(person: blank, adding: true, interactor: interactor, wireframe: routes)
        presenter.cancel()
        #expect(routes.routes == [.cancelled(stale: false)])
        _ = type([.tab, .tab, .tab, .typed("x")])
        #expect(type([.escape]).line(23).hasPrefix(" Throw away 1 change? (y/n)"))
        #expect(type([.character("n")]).line(23).hasPrefix(" 1 field changed"), "the question's answer brings back the count, not an old message")
    }

    @Test("a fresh new person's form says nothing changed (its company is where it starts); the bar names F1 help")
    func freshAddForm() {
        var blank = Person(index: nil, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }
        blank.company = "ACME"
        let presenter = EditorPresenter(person: blank, adding: true, interactor: interactor, wireframe: routes)
        let form = EditorView(presenter: presenter)
        presenter.attach(view: form)
        let fresh = ViewSnapshotTests.draw(form).line(23)
        #expect(fresh.hasPrefix(" nothing changed"), "\(fresh)")
        #expect(fresh.contains("F1 help"))
        form.handle(.typed("Ann"), screenSize: ScreenSize(rows: 24, columns: 80))
        #expect(ViewSnapshotTests.draw(form).line(23).hasPrefix(" 1 field changed"))
    }

    @Test("a: a new person's form starts in the company given; it needs a name; every value typed is added under a new _id")
    func adding() throws {
        var blank = Person(index: nil, isActive: nil, balanceCents: nil, age: nil, presentTextFields: 0) { _ in "" }
        blank.company = "ACME"
        let presenter = EditorPresenter(person: blank, adding: true, interactor: interactor, wireframe: routes)
        let view = EditorView(presenter: presenter)
        presenter.attach(view: view)
        var screen = ViewSnapshotTests.draw(view, rows: 24, columns: 80)
        #expect(screen.line(0).hasPrefix(" Roster — New person in ACME"))
        #expect(screen.line(4).hasPrefix("• Company         ACME"))
        presenter.save()
        screen = ViewSnapshotTests.draw(view, rows: 24, columns: 80)
        #expect(screen.line(23).hasPrefix(" not saved: a first or last name is needed"))
        #expect(interactor.adds.isEmpty)
        presenter.edit(.insert("Grace"))
        presenter.moveField(by: 6)
        presenter.edit(.insert("85"))
        presenter.save()
        let added = try #require(interactor.adds.first)
        #expect(added.changes == [FieldChange(field: .text(.firstName), value: .text("Grace")),
                                  FieldChange(field: .text(.company), value: .text("ACME")), FieldChange(field: .age, value: .age(85))])
        #expect(added.recordID.count == 24 && added.recordID.allSatisfy(\.isHexDigit))
        let deliver = try #require(interactor.deliveries.first)
        deliver(nil)
        var person = blank.applying(added.changes)
        person.id = added.recordID
        #expect(routes.routes == [.saved(recordID: added.recordID, undo: .added(person))])
    }
}

/// The conflict screen.
extension EditorTests {
    /// Ada, as someone else saved her meanwhile: a new email and phone.
    static var adaTheirs: Person {
        var theirs = ada
        theirs.email = "theirs@acme.test"
        theirs.phone = "555"
        return theirs
    }

    /// Changes Ada's email and age, saves, and has the save refused: the conflict screen.
    func conflictScreen() throws -> MemoryScreen {
        _ = type([.tab, .tab, .tab, .control("u"), .typed("mine@acme.test"), .tab, .tab, .tab, .control("u"), .typed("40"), .enter])
        let deliver = try #require(interactor.deliveries.first)
        deliver(EditFailure(.conflict, "changed meanwhile: email to 'theirs@acme.test'", theirs: Self.adaTheirs,
                            theirsNote: "people.json, saved 14:02:31 by another program or Roster"))
        return type([])
    }

    @Test("a conflicting save shows was, yours and theirs side by side; a field changed on one side is merged; Enter waits for a choice")
    func conflictScreenShows() throws {
        let screen = try conflictScreen()
        #expect(screen.line(0).contains("Changed meanwhile: Ada Lovelace"))
        #expect(screen.line(2).hasPrefix("  Field         Was"))
        #expect(screen.line(2).contains("Yours") && screen.line(2).contains("Theirs"))
        #expect(screen.line(3).hasPrefix("›?Email         ada@acme.test"))
        #expect(screen.line(3).contains("mine@acme.test") && screen.line(3).contains("theirs@acme.test"))
        #expect(screen.line(4).hasPrefix("  Phone         —"), "only they changed it: merged, not asked")
        #expect(screen.line(5).hasPrefix("  Age           36"))
        #expect(screen.line(23).hasPrefix(" 1 field to choose for"))
        #expect(screen.line(23).contains("m yours") && screen.line(23).contains("t theirs"))
        #expect(screen.text.contains("Theirs: people.json, saved 14:02:31 by another program or Roster"), "whose theirs is")
        #expect(screen.text.contains("m keeps yours, t takes theirs"), "the legend in words")
        let waiting = type([.enter])
        #expect(waiting.line(23).hasPrefix(" choose for 1 field first"))
        #expect(interactor.saves.count == 1, "nothing saved while a field waits")
    }

    @Test("the conflict screen at 80x24 and at 40x10, scrolled to the field being chosen for")
    func conflictScreenSnapshots() throws {
        #expect(snapshotMismatch(try conflictScreen().text, named: "editor-conflict-80x24") == nil)
        let small = type([.down, .down], rows: 10, columns: 40)
        #expect(snapshotMismatch(small.text, named: "editor-conflict-40x10") == nil)
    }

    @Test("at 40 columns a field's reason wraps under it, whole: what was found is never cut")
    func reasonWraps() {
        let screen = type([.tab, .tab, .tab, .control("u"), .typed("ada.acme.test")], rows: 24, columns: 40)
        let reason = (6...8).map { screen.line($0).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(reason.contains("↳ expected name@domain"))
        #expect(reason.contains("'ada.acme.test'"), "\(reason)")
    }

    @Test("a value longer than its field scrolls to the cursor with … on the side that is cut, as the prompts do")
    func longValue() {
        let long = "1234 Harbor Lane, Apartment 5, Springfield, Nowhere 99999"
        let end = type([.tab, .tab, .tab, .tab, .tab, .typed(long)], rows: 24, columns: 40).line(7)
        #expect(end.hasPrefix("• Address    …"), "\(end)")
        #expect(end.trimmingCharacters(in: .whitespaces).hasSuffix("Nowhere 99999"))
        let start = type([.home], rows: 24, columns: 40).line(7)
        #expect(start.hasPrefix("• Address    1234 Harbor"))
        #expect(start.trimmingCharacters(in: .whitespaces).hasSuffix("…"))
    }

    @Test("F1 shows the form's keys (? is typed into the field); on the conflict screen ? shows its keys; any key closes them")
    func help() throws {
        let formHelp = type([.function(1)])
        #expect(formHelp.text.contains("Person editor keys"))
        #expect(formHelp.text.contains("next field"))
        #expect(type([.character("x")]).line(2).hasPrefix("  First name      Ada "), "the key closed the help, typing nothing")
        #expect(type([.character("?")]).line(2).hasPrefix("• First name      Ada?"))
        _ = type([.control("u"), .typed("Ada")])

        let conflictHelp = try conflictScreen().text.contains("Conflict screen keys") ? "" : type([.character("?")]).text
        #expect(conflictHelp.contains("Conflict screen keys"))
        #expect(conflictHelp.contains("take theirs for this field"))
    }

    @Test("m keeps yours: saved again against their version, their phone kept, your age and email sent")
    func conflictTakesMine() throws {
        _ = try conflictScreen()
        #expect(type([.enter]).line(23).hasPrefix(" choose for 1 field first"))
        #expect(type([.character("m")]).line(23).hasPrefix(" every field chosen: ⏎ saves"))
        _ = type([.enter])
        #expect(interactor.saves.count == 2)
        #expect(interactor.saves[1].base == Self.adaTheirs)
        #expect(interactor.saves[1].changes == [try FieldCheck.change(from: "email=mine@acme.test"), try FieldCheck.change(from: "age=40")])
    }

    @Test("t takes theirs: only your other change is sent; e edits in the form based on theirs; Esc goes back to the form unsaved")
    func conflictTakesTheirsOrEdits() throws {
        _ = try conflictScreen()
        _ = type([.character("t"), .enter])
        #expect(interactor.saves.count == 2)
        #expect(interactor.saves[1].changes == [try FieldCheck.change(from: "age=40")])
        #expect(interactor.saves[1].base == Self.adaTheirs)

        let other = EditorTests()
        _ = try other.conflictScreen()
        let chosen = other.type([.character("e")]).line(23)
        #expect(chosen.hasPrefix(" every field chosen: ⏎ opens the form to edit"))
        #expect(chosen.contains("⏎ form") && !chosen.contains("⏎ save"), "the hints say what ⏎ does: \(chosen)")
        let form = other.type([.enter])
        #expect(form.line(5).hasPrefix("• Email           mine@acme.test"), "the form, at the field to edit")
        #expect(form.line(6).hasPrefix("  Phone           555"), "their phone, now the base")
        #expect(form.line(23).hasPrefix(" merged with their changes: edit, then ⏎ saves"))
        #expect(other.interactor.saves.count == 1)

        let third = EditorTests()
        _ = try third.conflictScreen()
        let back = third.type([.escape])
        #expect(back.line(23).hasPrefix(" not saved: changed meanwhile (⏎ tries again)"))
        #expect(back.line(6).hasPrefix("  Phone            "), "the form as it was")
        #expect(third.interactor.saves.count == 1)
    }
}

@Suite("Someone else's change, against the person as first shown")
struct ConflictTests {
    @Test("a field changed meanwhile, and by this edit to another value, is a conflict; other fields merge")
    func conflicts() throws {
        let base = EditorTests.ada
        var theirs = base
        theirs.email = "theirs@x.io"
        theirs.phone = "123"
        let mine = [try FieldCheck.change(from: "email=mine@x.io"), try FieldCheck.change(from: "age=40")]
        #expect(theirs.conflicts(with: mine, base: base) == [.text(.email)])
        #expect(theirs.conflicts(with: [try FieldCheck.change(from: "email=theirs@x.io")], base: base).isEmpty, "the same value is no conflict")
        #expect(theirs.conflicts(with: [try FieldCheck.change(from: "phone=")], base: base) == [.text(.phone)])
        #expect(base.conflicts(with: mine, base: base).isEmpty)
    }
}
