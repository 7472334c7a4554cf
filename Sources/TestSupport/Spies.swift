import RosterCore

/// Records what a presenter shows; tests read `models`.
@MainActor
public final class SpyListView: ListViewInterface {
    public private(set) var models: [ListViewModel] = []
    public init() {}
    public func show(_ model: ListViewModel) { models.append(model) }
    public var last: ListViewModel? { models.last }
}

/// Records the routes a list presenter asks for.
@MainActor
public final class SpyListWireframe: ListWireframe {
    public private(set) var routes: [ListRoute] = []
    public init() {}
    public func navigate(to route: ListRoute) { routes.append(route) }
}

@MainActor
public final class SpyDetailView: DetailViewInterface {
    public private(set) var models: [DetailViewModel] = []
    public init() {}
    public func show(_ model: DetailViewModel) { models.append(model) }
}

@MainActor
public final class SpyDetailWireframe: DetailWireframe {
    public private(set) var routes: [DetailRoute] = []
    public init() {}
    public func navigate(to route: DetailRoute) { routes.append(route) }
}

/// Records the intents a view sends to its list presenter.
@MainActor
public final class SpyListModule: ListModuleInterface {
    public enum Call: Equatable {
        case move(Int), first, last, open, skipped, quit
    }

    public private(set) var calls: [Call] = []
    public init() {}
    public func moveSelection(by delta: Int) { calls.append(.move(delta)) }
    public func selectFirst() { calls.append(.first) }
    public func selectLast() { calls.append(.last) }
    public func openSelected() { calls.append(.open) }
    public func showSkippedRecords() { calls.append(.skipped) }
    public func quit() { calls.append(.quit) }
}

/// An interactor that answers with a fixed result, at once.
public struct StubListInteractor: ListInteractorInput {
    public let result: Result<LoadedDirectory, LoadError>
    public init(_ result: Result<LoadedDirectory, LoadError>) { self.result = result }
    public func loadDirectory(progress: LoadProgress) async -> Result<LoadedDirectory, LoadError> { result }
}
