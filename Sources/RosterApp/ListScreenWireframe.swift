import RosterCore
import RosterTUI

/// Builds the list module and takes it where its presenter asks.
@MainActor
public final class ListScreenWireframe: ListWireframe {
    private unowned let root: RootWireframe
    private let detailWireframe: DetailScreenWireframe
    private let searcher: ListSearchScheduling
    private var presenter: ListPresenter?
    private var arranged: ArrangedDirectory?

    init(root: RootWireframe, detailWireframe: DetailScreenWireframe, searcher: ListSearchScheduling) {
        self.root = root
        self.detailWireframe = detailWireframe
        self.searcher = searcher
    }

    /// The list's presenter, once the directory is on screen.
    public var listPresenter: ListPresenter? { presenter }

    func presentList(_ arranged: ArrangedDirectory) {
        self.arranged = arranged
        let presenter = ListPresenter(directory: arranged.directory, grouped: arranged.grouped, wireframe: self, searcher: searcher)
        let view = ListView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        root.setRoot(view)
    }

    public func navigate(to route: ListRoute) {
        guard let arranged else { return }
        switch route {
        case .detail(let position):
            // The detail walks what the list shows: a search's matches, or everyone.
            let shown = presenter?.displayed ?? arranged.grouped
            detailWireframe.presentDetail(store: arranged.directory.store, grouped: shown, position: position) {
                [weak self] lastShown in self?.detailDidClose(at: lastShown)
            }
        case .skippedRecords:
            let directory = arranged.directory
            root.push(SkippedRecordsView(
                sourceName: directory.sourceName, records: directory.skipped,
                total: directory.skipped.count + directory.store.count,
                onBack: { [weak root] in root?.pop() },
                onQuit: { [weak root] in root?.finish(status: 0) }))
        case .quit:
            root.finish(status: 0)
        }
    }

    private func detailDidClose(at position: Int) {
        root.pop()
        presenter?.select(position: position)
    }
}

/// Builds the detail module on top of the list and returns from it.
@MainActor
public final class DetailScreenWireframe: DetailWireframe {
    private unowned let root: RootWireframe
    private var presenter: DetailPresenter?
    private var onClose: ((Int) -> Void)?

    init(root: RootWireframe) {
        self.root = root
    }

    func presentDetail(store: PeopleStore, grouped: GroupedPeople, position: Int, onClose: @escaping (Int) -> Void) {
        let presenter = DetailPresenter(store: store, grouped: grouped, position: position, wireframe: self,
                                        clipboard: TerminalClipboard(screen: root.screen))
        let view = DetailView(presenter: presenter)
        presenter.attach(view: view)
        self.presenter = presenter
        self.onClose = onClose
        root.push(view)
    }

    public func navigate(to route: DetailRoute) {
        switch route {
        case .back(let position):
            let onClose = self.onClose
            presenter = nil
            self.onClose = nil
            onClose?(position)
        case .quit:
            root.finish(status: 0)
        }
    }
}
