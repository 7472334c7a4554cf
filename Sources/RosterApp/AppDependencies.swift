import RosterCore
import RosterTUI

/// How the list first shows, from the command line (`--filter`, `--sort`).
struct StartingView: Equatable {
    var filter: String?
    var sort: SortOrder?
}

/// Builds the object graph once: root wireframe, module wireframes, the
/// interactor, and the loading that starts it all.
@MainActor
public final class AppDependencies {
    public let root: RootWireframe
    public let listWireframe: ListScreenWireframe
    let interactor: ListInteractorInput
    let sourceName: String
    let progress = LoadProgress()

    /// Where the place is remembered; nil for stdin or with --no-state.
    let placeStore: PlaceStore?
    /// `--filter` and `--sort`: how the list first shows.
    let startingView: StartingView
    /// Why the directory could not be shown, if it could not: printed again
    /// on standard error once the terminal is restored, so it stays in the
    /// scrollback after the alternate screen is gone.
    private(set) var loadFailure: LoadError?

    public convenience init(screen: Screen, interactor: ListInteractorInput, sourceName: String, searcher: ListSearchScheduling) {
        self.init(screen: screen, interactor: interactor, sourceName: sourceName, searcher: searcher, placeStore: nil)
    }

    init(screen: Screen, interactor: ListInteractorInput, sourceName: String, searcher: ListSearchScheduling,
         placeStore: PlaceStore?, startingView: StartingView = StartingView()) {
        self.placeStore = placeStore
        self.startingView = startingView
        root = RootWireframe(screen: screen)
        listWireframe = ListScreenWireframe(root: root, detailWireframe: DetailScreenWireframe(root: root), searcher: searcher,
                                            history: PromptHistory())
        self.interactor = interactor
        self.sourceName = sourceName
    }

    /// Shows the loading screen and loads (and groups) off the main actor;
    /// `deliver` is called from the background with the outcome.
    func startLoading(deliver: @escaping @Sendable (Result<ArrangedDirectory, LoadError>) -> Void) {
        root.setRoot(LoadingView(sourceName: sourceName, progress: progress) { [weak root] in
            root?.finish(status: 0)
        })
        let interactor = self.interactor
        let progress = self.progress
        Task.detached {
            deliver(await Self.loadAndArrange(interactor: interactor, progress: progress))
        }
    }

    /// Loads the directory and groups it, the two steps before a first frame.
    nonisolated static func loadAndArrange(interactor: ListInteractorInput, progress: LoadProgress) async -> Result<ArrangedDirectory, LoadError> {
        await interactor.loadDirectory(progress: progress).map { directory in
            ArrangedDirectory(directory: directory, grouped: GroupedPeople(store: directory.store))
        }
    }

    /// The remembered place, then the command line's order and filter
    /// (an explicit `--sort` wins over the remembered order).
    private func restorePlace() {
        guard let presenter = listWireframe.listPresenter else { return }
        var restoredPerson = false
        switch placeStore?.load() {
        case .success(let place?):
            presenter.restore(place, sortOverride: startingView.sort)
            restoredPerson = place.selectedPosition != nil || place.selectedID != nil
        case .failure: presenter.stateNotice = "state file unreadable; ignored"
        case .success(nil), nil: break
        }
        // A new order starts at its top, unless a remembered person is to be found again.
        if let sort = startingView.sort { presenter.applySortOrder(sort, selectingFirst: !restoredPerson) }
        if let filter = startingView.filter { presenter.applyFilter(filter) }
    }

    /// Remembers where the user is, for the next launch of the same file.
    func savePlace() {
        guard let placeStore, let presenter = listWireframe.listPresenter else { return }
        placeStore.save(presenter.place)
    }

    /// Shows an already loaded and grouped directory (benchmarks, tests).
    public func presentLoaded(_ directory: LoadedDirectory, grouped: GroupedPeople) {
        directoryLoaded(.success(ArrangedDirectory(directory: directory, grouped: grouped)))
    }

    /// The load finished: the list, or the error screen.
    func directoryLoaded(_ result: Result<ArrangedDirectory, LoadError>) {
        switch result {
        case .success(let arranged):
            listWireframe.presentList(arranged)
            restorePlace()
        case .failure(let error):
            loadFailure = error
            root.setRoot(ErrorView(error: error) { [weak root] in root?.finish(status: 1) })
        }
    }
}
