import Foundation
import RosterCore
import RosterStore
import RosterSQL
#if canImport(Glibc)
import Glibc
#endif

/// `roster import FILE --into TARGET [--table NAME]`: loads a directory
/// file into PostgreSQL or SQLite, making the table, its indexes and the
/// company summary the browser needs.
enum ImportCommand {
    struct Arguments: Equatable {
        var file: String
        var target: DatabaseTarget
        var table = "people"
        /// As the main command's `--format`; nil: by extension, else by content.
        var format: InputFormat?
        /// Any skipped record stops the import, as `--strict` does for `--list`.
        var strict = false
    }

    static let usage = """
    Usage: roster import FILE --into TARGET [--table NAME] [--format F]

    Loads FILE (JSON, JSON Lines, CSV, vCard or LDIF; - for standard input) into a
    database table, creating the table, its browse and search indexes and
    its company summary if missing. Importing the same file again replaces
    each person by _id, and says how many were new, updated and unchanged.
    One import into a database runs at a time: a second one waits. Ctrl-C
    imports nothing (the database stays as it was).

    TARGET is postgres://user@host/db (any libpq connection string: host=…
    dbname=…, with PGHOST, PGDATABASE, ~/.pgpass as psql takes them), or
    sqlite:PATH, or a path ending in .db, .sqlite or .sqlite3. If the
    server wants a password none of those gave, and stdin and stdout are a
    terminal, it is asked for on the terminal, echo off (Ctrl-C: status 130).
    --table NAME  the table to fill (default people; NAME_companies holds
                  the summary)
    --format json|jsonl|csv|vcf|ldif
                  how to read FILE (default: by extension, else by content)
    --strict      import nothing (status 1) if any record had to be skipped
    """

    static func parse(_ arguments: [String]) throws(Options.UsageError) -> Arguments {
        var files: [String] = []
        var into: String?
        var table = "people"
        var format: InputFormat?
        var strict = false
        var words = ArgumentWords(arguments)
        while let argument = words.next() {
            if argument == "-" || !argument.hasPrefix("-") {
                files.append(argument)
                continue
            }
            switch ArgumentWords.name(of: argument) {
            case "--into": into = try words.value(of: "--into", argument)
            case "--table": table = try words.value(of: "--table", argument)
            case "--format": format = try words.format(argument)
            case "--strict": strict = true
            default: throw Options.UsageError(message: "import: unknown option '\(argument)'")
            }
        }
        guard files.count == 1, let file = files.first else {
            throw Options.UsageError(message: "import takes one FILE, got \(files.count)")
        }
        guard let into else { throw Options.UsageError(message: "import needs --into TARGET") }
        guard let target = DatabaseTarget(into) else {
            throw Options.UsageError(message: "--into takes postgres://…, a connection string (host=… dbname=…), sqlite:PATH or a .db/.sqlite file")
        }
        if let malformation = DatabaseSource.malformation(of: target) { throw Options.UsageError(message: "--into: " + malformation) }
        return Arguments(file: file, target: target, table: table, format: format, strict: strict)
    }

    /// Runs the import; returns the exit status (success, failure, or usage).
    static func run(_ arguments: [String]) async -> ExitStatus {
        if ArgumentWords.answeredHelp(arguments, usage: usage) { return .success }
        let parsed: Arguments
        do {
            parsed = try parse(arguments)
        } catch {
            Platform.writeError("roster: \(error.message) (try 'roster import --help')")
            return .usage
        }
        let name = parsed.file == "-" ? "stdin" : parsed.file
        let directory: LoadedDirectory
        do {
            directory = try await parsed.file == "-"
                ? PeopleLoader(format: parsed.format).stream(descriptor: STDIN_FILENO, sourceName: name)
                : PeopleLoader(format: parsed.format).load(path: parsed.file, sourceName: name)
        } catch {
            Platform.writeError("roster: \(error.message)")
            return .failure
        }
        RosterCommand.reportSkipped(directory)
        if parsed.strict, !directory.skipped.isEmpty {
            Platform.writeError("roster: \(name): with --strict nothing was imported")
            return .failure
        }
        if case .sqlite(let path) = parsed.target, FileManager.default.isDirectory(path) {
            Platform.writeError("roster: \(path): is a directory, not an SQLite database file")
            return .failure
        }
        let terminal = Platform.isTerminal(STDERR_FILENO)
        let bar = ImportProgressBar(isTerminal: terminal)
        let prompt = PasswordPrompt.forThisTerminal()
        let interruption = ImportInterruption.install(target: parsed.target.displayName, clearsLine: terminal)
        defer { interruption.uninstall() }
        do {
            let report = try importDirectory(directory, arguments: parsed, prompt: prompt) { phase in
                if phase == .committing { ImportInterruption.committing() }
                bar.show(phase)
            }
            interruption.uninstall()
            bar.finish()
            reportChangedRecords(report, from: name)
            if report.addedVersions {
                Platform.writeError("roster: \(parsed.target.displayName): table \(parsed.table) had no version column (an older import made it); "
                                    + "added one, every person at version 0")
            }
            Platform.writeError(summary(of: report, from: name, arguments: parsed))
            return .success
        } catch {
            interruption.uninstall()
            bar.finish()
            Platform.writeError("roster: " + failureMessage(error, arguments: parsed))
            return prompt?.wasInterrupted == true ? .interrupted : .failure
        }
    }

    /// Records the import kept in another form than they came: repeated
    /// ids, and NUL characters PostgreSQL cannot store.
    private static func reportChangedRecords(_ report: ImportReport, from name: String) {
        if report.duplicates > 0 {
            Platform.writeError("roster: \(name): \(NumberText.count(report.duplicates, "record repeats", "records repeat")) "
                                + "the _id of a later record; the later one was kept")
        }
        if report.nulReplaced > 0 {
            let who = report.nulExamples.map(DisplayText.sanitized).joined(separator: ", ") + (report.nulReplaced > report.nulExamples.count ? ", …" : "")
            Platform.writeError("roster: \(name): \(NumberText.count(report.nulReplaced, "person has", "people have")) a NUL character "
                                + "(U+0000) in their text, which PostgreSQL cannot store; each became U+FFFD (�): \(who)")
        }
    }

    /// "roster: imported 3 people from f.json into t.db: 1 new, 1 updated,
    /// 1 unchanged (table people: 9 people · 2 companies · 1 with no
    /// company)", the table's figures as the list's title says them.
    static func summary(of report: ImportReport, from name: String, arguments: Arguments) -> String {
        let changes = report.changes
        return "roster: imported \(NumberText.count(report.written, "person", "people")) from \(name) into "
            + "\(arguments.target.displayName): \(NumberText.grouped(changes.added)) new, \(NumberText.grouped(changes.updated)) updated, "
            + "\(NumberText.grouped(changes.unchanged)) unchanged (table \(arguments.table): "
            + NumberText.directoryFigures(people: report.tablePeople, companies: report.companies, withoutCompany: report.peopleWithoutCompany) + ")"
    }

    /// One line for a failed import: the target named once, and a table of
    /// another shape said in words rather than as the database's complaint.
    static func failureMessage(_ error: DatabaseError, arguments: Arguments) -> String {
        let target = arguments.target.displayName
        if error.code == "42703" || error.message.contains("no such column") {
            return "\(target): table \(arguments.table) exists but is not a Roster people table (\(error.message)); "
                + "choose another --table, or drop it"
        }
        return error.message.hasPrefix(target + ":") ? error.message : "\(target): \(error.message)"
    }

    private static func importDirectory(_ directory: LoadedDirectory, arguments: Arguments, prompt: PasswordPrompt?,
                                        progress: @escaping (ImportPhase) -> Void) throws(DatabaseError) -> ImportReport {
        // The store keeps no manager field: read from the file again (standard input was read once, and has none kept).
        let managers = arguments.file == "-" ? nil
            : FileOrgChartReading.managerReferences(path: arguments.file, format: arguments.format, store: directory.store)
        switch arguments.target {
        case .postgres(let conninfo):
            let importer = try PeopleImporter(table: PeopleTable(name: arguments.table, dialect: .postgres), progress: progress)
            return try importer.importPeople(directory.store, managers: managers, into: PasswordPrompt.connect(conninfo, prompt: prompt))
        case .sqlite(let path):
            let importer = try PeopleImporter(table: PeopleTable(name: arguments.table, dialect: .sqlite), progress: progress)
            // Another import's write lock is waited for (BEGIN IMMEDIATE), as PostgreSQL's advisory lock is.
            return try importer.importPeople(directory.store, managers: managers, into: SQLiteConnection(path: path, access: .readWrite, busyTimeout: .seconds(3600)))
        }
    }
}

extension FileManager {
    /// Whether `path` names a directory (following links).
    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
