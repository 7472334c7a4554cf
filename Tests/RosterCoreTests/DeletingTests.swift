import Testing
import TestSupport
@testable import RosterCore
@testable import RosterStore

/// `D` in the list: the marked people, else the selected one, read whole;
/// a question that names them; only a yes goes on to delete.
@MainActor
@Suite("List presenter: deleting")
struct DeletingTests {
    let view = SpyListView()
    let wireframe = SpyListWireframe()
    let presenter: ListPresenter

    init() throws {
        let directory = try Fixtures.directory(json: Fixtures.seedJSON)
        presenter = ListPresenter(interactor: ListInteractor(repository: directory.repository, scheduler: ImmediateSearchScheduler()),
                                  arrangement: directory.everyone, wireframe: wireframe, exportWriter: InMemoryExportWriter(),
                                  session: ListSession())
        presenter.attach(view: view)
    }

    @Test("D names the selected person; n deletes nobody and says so")
    func askAndRefuse() {
        presenter.deleteMarkedOrSelected()
        #expect(view.last?.question == "Delete Bertha Irwin? (y/n)")
        presenter.confirmOverwrite(false)
        #expect(view.last?.question == nil)
        #expect(view.last?.message == "nobody deleted")
        #expect(wireframe.routes.isEmpty)
    }

    @Test("over a source that cannot be edited, D says why at once and asks nothing")
    func readOnly() {
        wireframe.editingRefusal = "standard input cannot be edited"
        presenter.deleteMarkedOrSelected()
        #expect(view.last?.question == nil)
        #expect(view.last?.message == "standard input cannot be edited")
        #expect(wireframe.routes.isEmpty)
    }

    @Test("on a folded company's heading D, E and v act on no one they cannot see, and say so")
    func foldedHeading() throws {
        presenter.toggleSection()
        presenter.deleteMarkedOrSelected()
        #expect(view.last?.question == nil)
        let said = try #require(view.last?.message)
        #expect(said.hasSuffix(" is folded: Space opens it to choose someone"))
        presenter.editSelected()
        presenter.editInEditor()
        #expect(wireframe.routes.isEmpty)
    }

    @Test("with people marked, D counts them and y hands exactly them on")
    func marked() {
        presenter.toggleMark()
        presenter.toggleMark()
        presenter.deleteMarkedOrSelected()
        #expect(view.last?.question == "Delete 2 people: Bertha Irwin and Cohen James? (y/n)")
        presenter.confirmOverwrite(true)
        guard case .delete(let people)? = wireframe.routes.last else {
            Issue.record("no delete route: \(wireframe.routes)")
            return
        }
        #expect(people.map(\.fullName) == ["Bertha Irwin", "Cohen James"])
        #expect(view.last?.message == "deleting 2 people…")
    }
}
