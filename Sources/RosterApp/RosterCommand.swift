import Foundation
import RosterCore
import RosterStore
import RosterSQL
import RosterTUI
#if canImport(Glibc)
import Glibc
#endif

/// The `roster` command: parses options and runs the list, help, or the app.
public enum RosterCommand {
    public static let version = "roster 0.1.0"

    /// Runs with the process's own arguments, their passwords first taken
    /// out of what `ps` shows (`ProcessArguments`); the exit status.
    @MainActor
    public static func runFromCommandLine() async -> ExitStatus {
        let arguments = Array(CommandLine.arguments.dropFirst())
        ProcessArguments.hidePasswords()
        return await run(arguments)
    }

    /// Runs with `arguments` (without the program name); returns the exit status.
    @MainActor
    public static func run(_ arguments: [String]) async -> ExitStatus {
        if arguments.first == "import" { return await ImportCommand.run(Array(arguments.dropFirst())) }
        if arguments.first == "query" { return await QueryCommand.run(Array(arguments.dropFirst())) }
        if let verb = arguments.first.flatMap(EditCommand.Verb.init(rawValue:)) { return await EditCommand.run(verb, Array(arguments.dropFirst())) }
        if arguments.first == "init" { return await InitCommand.run(Array(arguments.dropFirst())) }
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            Platform.writeError("roster: \(error.message) (try 'roster --help')")
            return .usage
        }
        // Reading keys typed at the terminal as data would just wait forever.
        if options.file == "-", Platform.isTerminal(STDIN_FILENO), options.mode != .help, options.mode != .version {
            Platform.writeError("roster: standard input is the terminal; pipe a file in (cat people.json | roster -)")
            return .usage
        }
        if let refusal = directoryUsageError(options) {
            Platform.writeError("roster: \(refusal) (try 'roster --help')")
            return .usage
        }
        if options.mode != .help, options.mode != .version, let target = databaseTarget(options),
           let malformation = DatabaseSource.malformation(of: target) {
            Platform.writeError("roster: \(malformation) (try 'roster --help')")
            return .usage
        }
        switch options.mode {
        case .help:
            Platform.writeOutput(Options.usage + "\n")
            return .success
        case .version:
            Platform.writeOutput(version + "\n")
            return .success
        case .list, .export:
            if let file = options.file, DirectoryTarget.names(file) { return await listDirectory(file, options: options) }
            if let target = databaseTarget(options) {
                switch DatabaseSource.open(target, table: options.table) {
                case .success(let repository) where options.tree:
                    return await TreeList.write(repository, of: nil, options: options)
                case .success(let repository): return await write(repository, options: options)
                case .failure(let failure):
                    Platform.writeError("roster: \(failure.message)")
                    return .failure
                }
            }
            guard let source = source(for: options.file) else { return .failure }
            return await list(source: source, options: options)
        case .browse:
            if let file = options.file, DirectoryTarget.names(file) {
                guard Platform.isTerminal(STDOUT_FILENO) else {
                    Platform.writeError("roster: standard output is not a terminal; use 'roster --list' to print the directory")
                    return .usage
                }
                let theme = Theme.choose(environment: ProcessInfo.processInfo.environment, noColorOption: options.noColor)
                return await browseDirectory(file, options: options, theme: theme)
            }
            return browse(options)
        }
    }

    /// The screen, on a file or a database.
    @MainActor
    private static func browse(_ options: Options) -> ExitStatus {
        // A missing file is the problem whatever the output is: said
        // first, as the screen would say it.
        if let missing = missingFile(options) {
            Platform.writeError("roster: \(missing)")
            return .failure
        }
        guard Platform.isTerminal(STDOUT_FILENO) else {
            Platform.writeError("roster: standard output is not a terminal; use 'roster --list' to print the directory")
            return .usage
        }
        let theme = Theme.choose(environment: ProcessInfo.processInfo.environment, noColorOption: options.noColor)
        if let target = databaseTarget(options) {
            return browseDatabase(target, options: options, theme: theme)
        }
        guard let source = source(for: options.file) else { return .failure }
        // What a save killed before its rename left beside the file goes (its writer is gone).
        if options.file != nil, case .file(let path, _) = source { LeftoverFiles.remove(beside: path) }
        var placeStore: PlaceStore?
        if !options.noState, case .file(let path, _) = source {
            placeStore = PlaceStore(stateFile: PlaceStore.defaultStateFile(), dataFile: PlaceStore.resolvedPath(path))
        }
        let interactor = DirectoryInteractor.withManagers(source, format: options.format)
        var chartFile: String?
        if case .file(let path, _) = source { chartFile = path }
        return browse(interactor: interactor, sourceName: source.name, placeStore: placeStore, options: options, theme: theme,
                      editing: editing(of: source, given: options.file, format: options.format), orgChartFile: chartFile)
    }

    /// How the screens save to `source`, or why they cannot.
    static func editing(of source: DirectorySource, given file: String?, format: InputFormat?) -> Result<any PeopleEditing, EditFailure> {
        switch source {
        case .standardInput:
            return .failure(EditFailure(.readOnly, "standard input cannot be edited; open the file itself to edit"))
        case .file(let path, _):
            guard file != nil else { return .failure(EditFailure(.readOnly, DirectorySource.sampleReadOnlyReason(program: ProgramName.current()))) }
            if FileManager.default.isDirectory(path) {
                return .failure(EditFailure(.readOnly, "a folder of vCards is read-only in Roster for now"))
            }
            let editing = FileEditing(path: path, format: format)
            if let refusal = editing.readOnlyReason { return .failure(refusal) }
            return .success(editing)
        }
    }


    /// Browses a database, connected to before the screen starts (a failure
    /// is one plain line), asking for a password on the terminal if needed;
    /// its table is read behind the loading screen. Afterwards its offline
    /// copy is refreshed; when the server cannot be reached, the last copy
    /// is browsed instead, under an "offline" title.
    @MainActor
    static func browseDatabase(_ target: DatabaseTarget, options: Options, theme: Theme) -> ExitStatus {
        let prompt = PasswordPrompt.forThisTerminal()
        let isServer = if case .postgres = target { true } else { false }
        let snapshot = OfflineSnapshot(folder: OfflineSnapshot.defaultFolder(), targetName: target.displayName,
                                       table: options.table ?? DatabaseSource.defaultTable)
        let placeStore = options.noState ? nil : PlaceStore(stateFile: PlaceStore.defaultStateFile(),
                                                            dataFile: DatabaseSource.placeKey(target, table: options.table))
        // Edits made while the server cannot be reached wait here (a server's only: an SQLite file is always at hand).
        let outbox = isServer ? Outbox(folder: Outbox.defaultFolder(), targetName: target.displayName,
                                       table: options.table ?? DatabaseSource.defaultTable) : nil
        defer { if let outbox { sayUnsent(outbox, target: target.displayName) } }
        switch DatabaseSource.connect(target, table: options.table, prompt: prompt) {
        case .success(let connected):
            // Only a server's directory, read whole, is worth keeping (an
            // SQLite file is its own copy), written while the user browses;
            // failures are quiet: it is a cache.
            let keeper = isServer ? OfflineCopyKeeper(snapshot: snapshot) : nil
            let interactor = DatabaseOpeningInteractor(connected: connected, target: target, table: options.table) { keeper?.keep($0) }
            let status = browse(interactor: interactor, sourceName: connected.name, placeStore: placeStore, options: options, theme: theme,
                                editing: nil, outbox: outbox, offlineCopy: keeper)
            // Not after a signal: whoever sent it wants Roster gone now (a
            // copy being written in the background is left unfinished, and
            // the old one stays: it is written by rename).
            if status.code < 128, let repository = interactor.opened { keeper?.finish(repository) }
            // Whatever a statement is still doing (a window the user asked for
            // over a locked table), Roster does not wait for it: it is cancelled.
            interactor.opened?.stopStatements(closing: true)
            return status
        case .failure(let failure):
            if prompt?.wasInterrupted == true {
                Platform.writeError("roster: \(failure.message)")
                return .interrupted
            }
            guard isServer else {
                Platform.writeError("roster: \(failure.message)")
                return .failure
            }
            return browseOfflineCopy(after: failure, of: target, options: options, theme: theme,
                                     keeping: OfflineKeeping(snapshot: snapshot, outbox: outbox, placeStore: placeStore))
        }
    }

    /// Where a server's session keeps what outlives it: its offline copy,
    /// the edits made offline, the place.
    struct OfflineKeeping {
        let snapshot: OfflineSnapshot
        let outbox: Outbox?
        let placeStore: PlaceStore?
    }

    /// The server could not be reached: its last offline copy is browsed
    /// instead (edits go to the outbox), until the server answers and the
    /// live directory takes its place; or, with no copy, one line says why.
    @MainActor
    static func browseOfflineCopy(after failure: DatabaseSource.OpenFailure, of target: DatabaseTarget, options: Options, theme: Theme,
                                  keeping: OfflineKeeping) -> ExitStatus {
        let (snapshot, outbox) = (keeping.snapshot, keeping.outbox)
        switch OfflineFallback.source(after: failure.error, snapshot: snapshot) {
        case .success(let offline):
            Platform.writeError("roster: \(failure.message); showing the offline copy")
            // `r`, or the app on its own, tries the server again; once it
            // answers, the live directory replaces the copy on screen.
            let table = options.table
            let link = LiveDirectoryLink(target: target.displayName) { DatabaseSource.open(target, table: table) }
            // Edits made meanwhile go to the outbox (and the copy), and to the server once it answers.
            let interactor = OfflineCopyInteractor(copy: DirectoryInteractor(source: offline, loader: PeopleLoader(format: .jsonLines)),
                                                   link: link, editing: outbox.map { OutboxEditing(outbox: $0, copyPath: snapshot.path) })
            // Taken again from the server's table once it is on screen (and at the exit).
            let keeper = OfflineCopyKeeper(snapshot: snapshot)
            let status = browse(interactor: interactor, sourceName: offline.name, placeStore: keeping.placeStore, options: options, theme: theme,
                                editing: nil, outbox: outbox, offlineCopy: keeper)
            keeper.finish(link.live)
            link.live?.stopStatements(closing: true)
            return status
        case .failure:
            let kept = [.cannotConnect, .connectionLost].contains(failure.error.kind) ? " (no offline copy was kept)" : ""
            Platform.writeError("roster: \(failure.message)\(kept)")
            return .failure
        }
    }

    /// At the end of a session over a server: the edits made offline that
    /// it has not got yet, counted, and that they are kept.
    static func sayUnsent(_ outbox: Outbox, target: String) {
        let unsent: Int
        switch outbox.read() {
        case .success(let operations): unsent = operations.count
        case .failure(let refusal): return Platform.writeError("roster: the outbox \(outbox.path) \(refusal.reason); not read")
        }
        guard unsent > 0 else { return }
        Platform.writeError("roster: \(NumberText.count(unsent, "edit", "edits")) made offline not sent yet; kept, and sent when roster next reaches \(target)")
    }

    /// Why FILE cannot be browsed when it names a file (or an SQLite
    /// database) that does not exist; nil otherwise.
    static func missingFile(_ options: Options) -> String? {
        guard let file = options.file, file != "-", !Platform.fileExists(file) else { return nil }
        switch databaseTarget(options) {
        case .sqlite(let path)?: return SQLPeopleRepository.missingFile(path)?.message
        case .postgres?: return nil
        case nil: return LoadError.notFound(file: file).message
        }
    }

    /// The database FILE names (postgres://…, host=…, sqlite:…, PATH.db), if it names one.
    static func databaseTarget(_ options: Options) -> DatabaseTarget? {
        databaseTarget(named: options.file)
    }

    /// The database `argument` names, or nil for a file (or nothing).
    static func databaseTarget(named argument: String?) -> DatabaseTarget? {
        // An LDAP URL's base holds '=' too: it is a directory server, not a connection string.
        guard let argument, !DirectoryTarget.names(argument), let target = DatabaseTarget(argument) else { return nil }
        // A file whose name holds '=' is a file, not a libpq connection string.
        if case .postgres = target, !argument.contains("://"), Platform.fileExists(argument) { return nil }
        return target
    }

    /// The directory to read: a file, standard input, or the sample.
    static func source(for file: String?) -> DirectorySource? {
        switch file {
        case "-":
            return .standardInput
        case let path?:
            return .file(path: path, name: path)
        case nil:
            guard let sample = Platform.bundledDirectoryPath() else {
                Platform.writeError("roster: the sample directory (people.json) is missing next to the binary; pass a FILE")
                return nil
            }
            return .sample(path: sample)
        }
    }

    /// `--list` and `--export`: load, sort, filter, write to `output`
    /// (standard output); messages on stderr. The same interactor and
    /// repository as the app, a window at a time.
    static func list(source: DirectorySource, options: Options, output: Int32 = STDOUT_FILENO) async -> ExitStatus {
        let repository: any PeopleRepository
        switch await DirectoryInteractor.withManagers(source, format: options.format).loadDirectory(progress: LoadProgress()) {
        case .failure(let error):
            Platform.writeError("roster: \(error.message)")
            return .failure
        case .success(let loaded):
            repository = loaded
        }
        if options.tree { return await TreeList.write(repository, of: source, options: options, output: output) }
        return await write(repository, options: options, output: output)
    }

    /// Sorts, filters and writes `repository`'s people to `output`, a window at a time.
    static func write(_ repository: any PeopleRepository, options: Options, output: Int32 = STDOUT_FILENO) async -> ExitStatus {
        let everyone = repository.arrange(sort: options.sort ?? .byLastName, byCompany: true, company: nil)
        var shown = everyone
        if let filter = options.filter {
            do {
                shown = try await repository.search(SearchQuery(filter), in: everyone, within: nil)
            } catch {
                // Never everyone instead: a filter that could not run is an
                // error, said in the source's words (the screen's would offer r).
                Platform.writeError("roster: \(repository.sourceName): --filter could not be run: \(DisplayText.sanitized(error.detail ?? error.reason))")
                return .failure
            }
        }
        let skipped = repository.skippedRecords
        reportSkipped(skipped, loaded: repository.personCount, sourceName: repository.sourceName)
        let written: Bool
        var managersLost = false
        if case .export(let format) = options.mode {
            let exportOptions = ExportOptions(neutralisesFormulas: !options.csvVerbatim,
                                              showsControlCharacters: Platform.isTerminal(output))
            let exporter = DirectoryExporter(format: format, options: exportOptions)
            let (managers, unread) = ExportManagers.lookup(for: repository)
            written = await exporter.write(shown, of: repository, managers: managers, to: output)
            // Everyone written, but not whole: said, and the exit status says so.
            if let unread { Platform.writeError("roster: \(unread); the export has no managers") }
            managersLost = unread != nil
        } else {
            written = await PlainListWriter(isTerminal: Platform.isTerminal(output)).write(shown, of: repository, to: output)
        }
        guard written else {
            Platform.writeError("roster: writing the list failed (\(String(cString: strerror(errno))))")
            return .failure
        }
        if let failure = repository.readFailure {
            // The source failed part way: what was written is not the list.
            Platform.writeError("roster: \(repository.sourceName): the list is incomplete (\(failure))")
            return .failure
        }
        if options.strict, !skipped.isEmpty { return .failure }
        if repository.personCount == 0, !skipped.isEmpty { return .failure }
        if repository.personCount == 0, repository.connection == nil {  // a file, not a database's empty table
            // An empty file never loads: this one held something, but no one.
            Platform.writeError("roster: \(repository.sourceName): no people were read from it, though it is not empty")
            if options.strict { return .failure }
        }
        return managersLost ? .failure : .success
    }

    /// The skipped records on stderr: how many, then the first twenty.
    static func reportSkipped(_ directory: LoadedDirectory) {
        reportSkipped(directory.skipped, loaded: directory.store.count, sourceName: directory.sourceName)
    }

    /// "3 of 200 records skipped" and the first twenty reasons, on stderr.
    static func reportSkipped(_ skipped: [SkippedRecord], loaded: Int, sourceName: String) {
        guard let notice = NumberText.skippedNotice(skipped: skipped.count, loaded: loaded) else { return }
        Platform.writeError("roster: \(sourceName): \(notice)")
        for record in skipped.prefix(20) {
            Platform.writeError("roster: \(sourceName): \(DisplayText.sanitized(record.description))")
        }
        if skipped.count > 20 { Platform.writeError("roster: … and \(skipped.count - 20) more") }
    }

    @MainActor
    static func browse(interactor: any DirectoryLoading, sourceName: String, placeStore: PlaceStore?, options: Options,
                       theme: Theme, editing: Result<any PeopleEditing, EditFailure>?, outbox: Outbox? = nil,
                       offlineCopy: OfflineCopyKeeper? = nil, orgChartFile: String? = nil,
                       sourceChanges: SourceChanges? = nil) -> ExitStatus {
        let wakePipe = WakePipe()
        _ = SignalPipe.install(wakePipe: wakePipe)
        let screen: CursesScreen
        do {
            TerminalRescue.install(terminalDescriptor: Platform.isTerminal(STDIN_FILENO) ? STDIN_FILENO : open("/dev/tty", O_RDWR | O_CLOEXEC))
            screen = try CursesScreen.start(mouse: options.mouse, theme: theme)
        } catch {
            Platform.writeError("roster: \(error.message)")
            return .failure
        }
        let mailbox = Mailbox(wakePipe: wakePipe)
        let dependencies = AppDependencies(screen: screen, interactor: interactor, sourceName: sourceName,
                                           makeSearcher: { BackgroundSearchScheduler(mailbox: mailbox) }, placeStore: placeStore,
                                           startingView: StartingView(filter: options.filter, sort: options.sort), editing: editing,
                                           outbox: outbox, offlineCopy: offlineCopy, sourceChanges: sourceChanges)
        if let orgChartFile {
            dependencies.readOrgChart(fromFile: orgChartFile, format: options.format)
        } else {
            dependencies.readOrgChartOfDatabase()
        }
        let loop = EventLoop(terminal: screen, dependencies: dependencies, wakePipe: wakePipe, mailbox: mailbox)
        MainThreadReads.forbid()
        defer { MainThreadReads.allow() }
        let status = loop.run()
        dependencies.stopWatching()
        screen.end()
        if status == .success { FileSave.finishSaves { Platform.writeError($0) } }
        for path in Platform.removeUnfinishedWrites() {
            Platform.writeError("roster: the write to \(DisplayText.sanitized(path)) was stopped unfinished; nothing was written to it")
        }
        if status != .success { FileLock.abandonHeld() }
        if let failure = dependencies.loadFailure { Platform.writeError("roster: \(failure.message)") }
        dependencies.savePlace()
        return status
    }
}
