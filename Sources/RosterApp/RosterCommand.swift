import Foundation
import RosterCore
import RosterTUI
#if canImport(Glibc)
import Glibc
#endif

/// The `roster` command: parses options and runs the list, help, or the app.
public enum RosterCommand {
    public static let version = "roster 0.1.0"

    /// Runs with `arguments` (without the program name); returns the exit status.
    @MainActor
    public static func run(_ arguments: [String]) async -> Int32 {
        if arguments.first == "import" { return await ImportCommand.run(Array(arguments.dropFirst())) }
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            Platform.writeError("roster: \(error.message) (try 'roster --help')")
            return 2
        }
        // Reading keys typed at the terminal as data would just wait forever.
        if options.file == "-", Platform.isTerminal(STDIN_FILENO), options.mode != .help, options.mode != .version {
            Platform.writeError("roster: standard input is the terminal; pipe a file in (cat people.json | roster -)")
            return 2
        }
        switch options.mode {
        case .help:
            Platform.writeOutput(Options.usage + "\n")
            return 0
        case .version:
            Platform.writeOutput(version + "\n")
            return 0
        case .list, .export:
            guard let source = source(for: options.file) else { return 1 }
            return await list(source: source, options: options)
        case .browse:
            guard Platform.isTerminal(STDOUT_FILENO) else {
                Platform.writeError("roster: standard output is not a terminal; use 'roster --list' to print the directory")
                return 2
            }
            guard let source = source(for: options.file) else { return 1 }
            let theme = Theme.choose(environment: ProcessInfo.processInfo.environment, noColorOption: options.noColor)
            return browse(source: source, options: options, theme: theme)
        }
    }

    /// The directory to read: a file, standard input, or the bundled one.
    static func source(for file: String?) -> DirectorySource? {
        switch file {
        case "-":
            return .standardInput
        case let path?:
            return .file(path: path, name: path)
        case nil:
            guard let bundled = Platform.bundledDirectoryPath() else {
                Platform.writeError("roster: the bundled directory (people.json) is missing next to the binary; pass a FILE")
                return nil
            }
            return .file(path: bundled, name: "people.json")
        }
    }

    /// `--list` and `--export`: load, sort, filter, write; messages on stderr.
    static func list(source: DirectorySource, options: Options) async -> Int32 {
        let strict = options.strict
        let result = await DirectoryInteractor(source: source, loader: PeopleLoader(format: options.format)).loadDirectory(progress: LoadProgress()).map { directory in
            let everyone = GroupedPeople(store: directory.store, sort: options.sort ?? .byLastName)
            let shown = options.filter.flatMap {
                PeopleSearch.filter(everyone, store: directory.store, query: SearchQuery($0))?.grouped
            } ?? everyone
            return ArrangedDirectory(directory: directory, grouped: shown)
        }
        switch result {
        case .failure(let error):
            Platform.writeError("roster: \(error.message)")
            return 1
        case .success(let arranged):
            let directory = arranged.directory
            reportSkipped(directory)
            let written: Bool
            if case .export(let format) = options.mode {
                let exportOptions = ExportOptions(neutralisesFormulas: !options.csvVerbatim,
                                                  showsControlCharacters: Platform.isTerminal(STDOUT_FILENO))
                let exporter = DirectoryExporter(format: format, options: exportOptions)
                written = exporter.write(arranged.grouped, store: directory.store, to: STDOUT_FILENO)
            } else {
                written = PlainListWriter(isTerminal: Platform.isTerminal(STDOUT_FILENO)).write(directory, grouped: arranged.grouped, to: STDOUT_FILENO)
            }
            guard written else {
                Platform.writeError("roster: writing the list failed (\(String(cString: strerror(errno))))")
                return 1
            }
            if strict, !directory.skipped.isEmpty { return 1 }
            if directory.store.count == 0, !directory.skipped.isEmpty { return 1 }
            return 0
        }
    }

    /// The skipped records on stderr: how many, then the first twenty.
    static func reportSkipped(_ directory: LoadedDirectory) {
        guard let notice = ListPresenter.skippedNotice(skipped: directory.skipped.count, loaded: directory.store.count) else { return }
        Platform.writeError("roster: \(directory.sourceName): \(notice)")
        for record in directory.skipped.prefix(20) {
            Platform.writeError("roster: \(directory.sourceName): \(DisplayText.sanitized(record.description))")
        }
        if directory.skipped.count > 20 { Platform.writeError("roster: … and \(directory.skipped.count - 20) more") }
    }

    @MainActor
    static func browse(source: DirectorySource, options: Options, theme: Theme) -> Int32 {
        let wakePipe = WakePipe()
        _ = SignalPipe.install(wakePipe: wakePipe)
        let screen: CursesScreen
        do {
            TerminalRescue.install(terminalDescriptor: STDIN_FILENO)
            screen = try CursesScreen.start(mouse: options.mouse, theme: theme)
        } catch {
            Platform.writeError("roster: \(error.message)")
            return 1
        }
        let mailbox = Mailbox(wakePipe: wakePipe)
        var placeStore: PlaceStore?
        if !options.noState, case .file(let path, _) = source {
            placeStore = PlaceStore(stateFile: PlaceStore.defaultStateFile(), dataFile: PlaceStore.resolvedPath(path))
        }
        let interactor = DirectoryInteractor(source: source, loader: PeopleLoader(format: options.format))
        let dependencies = AppDependencies(screen: screen, interactor: interactor, sourceName: source.name,
                                           searcher: BackgroundSearchScheduler(mailbox: mailbox), placeStore: placeStore,
                                           startingView: StartingView(filter: options.filter, sort: options.sort))
        let loop = EventLoop(screen: screen, dependencies: dependencies, wakePipe: wakePipe, mailbox: mailbox)
        let status = loop.run()
        screen.end()
        if let failure = dependencies.loadFailure { Platform.writeError("roster: \(failure.message)") }
        dependencies.savePlace()
        return status
    }
}
