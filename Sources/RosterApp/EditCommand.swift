import Foundation
import RosterCore
import RosterStore
import RosterSQL
#if canImport(Glibc)
import Glibc
#endif

/// `roster update|add|delete TARGET …`: one edit for scripts, with the
/// checks every edit passes and the save that never loses anyone's change
/// (`FileSave`).
enum EditCommand {
    /// How long an edit from the command line waits on another program's
    /// write to an SQLite file (the screens wait 5 s: a key waits there;
    /// a script's edit waits its turn: 51 at once on a busy machine take more).
    static let sqlitePatience: Duration = .seconds(30)

    enum Verb: String, CaseIterable {
        case update, add, delete
    }

    struct Arguments: Equatable {
        var verb: Verb
        var target: String
        var ids: [String] = []
        var changes: [FieldChange] = []
        /// `manager=…` (update, in a database): the new manager's reference,
        /// empty for none; saved on its own, checked first (`ManagerChange`).
        var manager: String?
        var ifVersion: Int64?
        var backup = false
        /// No line saying what changed (`-q`).
        var quiet = false
        var format: InputFormat?
        var table = "people"
    }

    static let usage = """
    Usage: roster update TARGET ID field=value…
           roster add TARGET field=value…
           roster delete TARGET ID…

    Edits a directory file (JSON, JSON Lines, CSV, vCard or LDIF) in place,
    or a table 'roster import' filled (TARGET as for browsing, --table
    NAME). ID is a record's _id (a card's UID, an LDIF entry's dn); fields are named as in searches, name= setting first and
    last (its last word the last name):
      name, \(EditableField.list).
    A value is checked as the person's editor checks it (an email has one @,
    age is a whole number, balance an amount such as $1,200.00, active yes
    or no); field= with nothing after it clears the field. update's
    manager= (on its own) sets whom the person reports to, by _id, email,
    DN or full name (a file's manager key or column, a card's RELATED;
    TYPE=manager, an LDIF manager:); one nobody is, a name two people have, the
    person themselves or someone under them is refused, nothing saved. Each edit says
    on standard error what it changed (roster: people.json: Ada Lovelace:
    phone +1 555 0100 → +1 555 0199); an update that changes nothing says
    so and writes nothing (a row keeps its version). add prints the new
    person's _id on standard output. Records nobody edited keep their
    exact bytes.

    In a database each edit is one transaction, the company summary and
    search kept exact. A file is replaced atomically (a lock beside it,
    FILE.lock; a temporary file, flushed, renamed over it), keeping its
    permissions. A second Roster saving the same file waits for the first
    (5 s at most).
    --backup      keep the file as it was in FILE~ first
    -q, --quiet   say nothing on success (add still prints the _id)
    --format json|jsonl|csv|vcf|ldif
                  how to read TARGET (default: by extension, else by content)
    --if-version N
                  for a database row: refuse if it is no longer at version N
                  (update prints the row's new version)
    --table NAME  the database's table (default people)

    Exit status: 0 saved; 1 nothing saved (no such ID, the file is
    unreadable or locked); 2 a mistake on the command line (a bad value,
    an unknown field), nothing saved.
    """

    static func parse(_ verb: Verb, _ arguments: [String]) throws(Options.UsageError) -> Arguments {
        var words: [String] = []
        var parsed = Arguments(verb: verb, target: "")
        var reader = ArgumentWords(arguments)
        while let argument = reader.next() {
            if argument == "-q" {
                parsed.quiet = true
                continue
            }
            // Only a double dash starts an option: `balance=-5` is a value.
            guard argument.hasPrefix("--") else {
                words.append(argument)
                continue
            }
            switch ArgumentWords.name(of: argument) {
            case "--backup": parsed.backup = true
            case "--quiet": parsed.quiet = true
            case "--table": parsed.table = try reader.value(of: "--table", argument)
            case "--format": parsed.format = try reader.format(argument)
            case "--if-version":
                let text = try reader.value(of: "--if-version", argument)
                guard let version = Int64(text), version >= 0 else { throw Options.UsageError(message: "--if-version takes a version number, not '\(text)'") }
                parsed.ifVersion = version
            default: throw Options.UsageError(message: "\(verb.rawValue): unknown option '\(argument)'")
            }
        }
        guard let target = words.first else { throw Options.UsageError(message: "\(verb.rawValue) needs a TARGET") }
        parsed.target = target
        var rest = words.dropFirst()
        switch verb {
        case .update:
            guard let id = rest.popFirst(), !FieldCheck.namesField(id) else { throw Options.UsageError(message: "update needs an ID before the fields") }
            parsed.ids = [id]
            guard !rest.isEmpty else { throw Options.UsageError(message: "update needs at least one field=value") }
        case .add:
            guard !rest.isEmpty else { throw Options.UsageError(message: "add needs at least one field=value") }
        case .delete:
            guard !rest.isEmpty else { throw Options.UsageError(message: "delete needs at least one ID") }
            parsed.ids = Array(rest)
            return parsed
        }
        try assign(rest, to: &parsed)
        // A field given twice is a mistake, not "the last wins".
        for (index, change) in parsed.changes.enumerated() where parsed.changes[..<index].contains(where: { $0.field == change.field }) {
            let byName = rest.contains { $0.lowercased().hasPrefix("name=") } ? " (name= sets first and last)" : ""
            throw Options.UsageError(message: "\(change.field.name) is given twice\(byName)")
        }
        // Nobody is left without a name, whatever the record holds: a new
        // person given none, or both halves cleared (the file is checked too).
        let before = verb == .add ? Person(firstName: "", lastName: "") : Person(firstName: "?", lastName: "?")
        if let problem = FieldCheck.nameProblem(of: before.applying(parsed.changes)) {
            throw Options.UsageError(message: problem.message)
        }
        return parsed
    }

    /// Each `field=value` of `assignments` checked, into `parsed`'s changes
    /// (`manager=`, an update's alone, into its manager).
    private static func assign(_ assignments: ArraySlice<String>, to parsed: inout Arguments) throws(Options.UsageError) {
        do throws(EditProblem) {
            for assignment in assignments {
                if let manager = managerValue(assignment) {
                    guard parsed.verb == .update, parsed.manager == nil else { throw EditProblem(managerMisuse(parsed.verb)) }
                    parsed.manager = manager
                    continue
                }
                parsed.changes += try FieldCheck.changes(from: assignment)
            }
        } catch {
            throw Options.UsageError(message: error.message)
        }
        if parsed.manager != nil, !parsed.changes.isEmpty { throw Options.UsageError(message: managerMisuse(parsed.verb)) }
    }

    /// The value of `manager=VALUE` (the name in any case), nil for another field.
    static func managerValue(_ assignment: String) -> String? {
        guard let equals = assignment.firstIndex(of: "="),
              assignment[..<equals].lowercased().filter({ $0 != "_" && $0 != "-" }) == PeopleTable.managerColumnName else { return nil }
        return String(assignment[assignment.index(after: equals)...])
    }

    private static func managerMisuse(_ verb: Verb) -> String {
        verb == .update ? "manager= is saved on its own: give the other fields in another update"
            : "manager= is set by roster update, once the person is there"
    }

    /// When the file was given after an ID or a field (`roster update ID
    /// FILE …`): the first word names no file, and is no database, while a
    /// later one is a file. What was meant, in words; nil otherwise.
    static func swappedTarget(_ verb: Verb, _ arguments: [String], isFile: (String) -> Bool) -> String? {
        var words: [String] = []
        var reader = ArgumentWords(arguments)
        while let argument = reader.next() {
            if ["--table", "--format", "--if-version"].contains(argument) { _ = reader.next() }
            if !argument.hasPrefix("--"), argument != "-q" { words.append(argument) }
        }
        guard let first = words.first, first != "-", !isFile(first),
              let file = words.dropFirst().first(where: { $0 != "-" && isFile($0) }) else { return nil }
        // A word that names a database (postgres://…, host=…, x.db) is its TARGET, unless it reads as a field (first=Ada).
        let looksLikeField = first.split(separator: "=", maxSplits: 1).first.map { EditableField(name: String($0)) != nil || $0 == "name" } ?? false
        if RosterCommand.databaseTarget(named: first) != nil, !looksLikeField { return nil }
        let others = words.filter { $0 != file }
        let rest = others.prefix(2).map(DisplayText.sanitized).joined(separator: " ") + (others.count > 2 ? " …" : "")
        return "'\(DisplayText.sanitized(first))' is not a file; did you mean roster \(verb.rawValue) \(DisplayText.sanitized(file)) \(rest)?"
    }

    /// Runs the edit; returns the exit status.
    static func run(_ verb: Verb, _ arguments: [String]) async -> ExitStatus {
        if ArgumentWords.answeredHelp(arguments, usage: usage) { return .success }
        if let swapped = swappedTarget(verb, arguments, isFile: Platform.isRegularFile) {
            Platform.writeError("roster: \(swapped) (try 'roster \(verb.rawValue) --help')")
            return .usage
        }
        let parsed: Arguments
        do {
            parsed = try parse(verb, arguments)
        } catch {
            Platform.writeError("roster: \(error.message) (try 'roster \(verb.rawValue) --help')")
            return .usage
        }
        if parsed.target == "-" {
            Platform.writeError("roster: standard input cannot be edited; name the file")
            return .usage
        }
        let target = RosterCommand.databaseTarget(named: parsed.target)
        if let target, let malformation = DatabaseSource.malformation(of: target) {
            Platform.writeError("roster: \(malformation) (try 'roster \(verb.rawValue) --help')")
            return .usage
        }
        if target == nil, parsed.ifVersion != nil {
            Platform.writeError("roster: --if-version is for a database's rows; a file's records carry no version (try 'roster \(verb.rawValue) --help')")
            return .usage
        }
        let operation: RecordOperation
        let newID = FieldCheck.newRecordID()
        switch verb {
        case .update: operation = .update(id: parsed.ids[0], changes: parsed.changes)
        case .add: operation = .add(id: newID, changes: parsed.changes)
        case .delete: operation = .delete(ids: parsed.ids)
        }
        if let manager = parsed.manager {
            guard let target else { return ManagerEditCommand.save(manager, of: parsed.ids[0], toFile: parsed.target, arguments: parsed) }
            return ManagerEditCommand.save(manager, of: parsed.ids[0], to: target, arguments: parsed)
        }
        if let target { return save(operation, to: target, arguments: parsed, newID: newID) }
        let known = await knownRecord(of: operation, path: parsed.target, format: parsed.format, backup: parsed.backup)
        var before: [Person] = []
        switch FileSave.save(operation, to: parsed.target, format: parsed.format, backup: parsed.backup, known: known,
                             found: { before = $0 }) {
        case .saved:
            if verb == .add { Platform.writeOutput(newID + "\n") }
            if !parsed.quiet, let line = EditReport.line(for: operation, in: parsed.target, before: before) { Platform.writeError("roster: " + line) }
            return .success
        case .refused(let message), .conflict(let message, _):
            Platform.writeError("roster: \(message)")
            return .failure
        }
    }

    /// Where the record an update changes starts, found by the loader the
    /// screens use (both cores, and no more memory than browsing the file),
    /// so that the save rewrites that record alone and copies every other
    /// byte in the kernel, as a save from the person's form does: about a
    /// load and a copy of the file, where reading and checking every record
    /// took three times as long and half as much memory again. Nil, and the
    /// save reads the whole file as any other does, for anything but an
    /// update of a JSON or JSON Lines file without a backup, or when the
    /// load skipped a record or found the `_id` other than once. The save
    /// still checks that the file is the one read and the record is there.
    private static func knownRecord(of operation: RecordOperation, path: String, format: InputFormat?,
                                    backup: Bool) async -> KnownRecord? {
        guard case .update(let id, _) = operation, !backup,
              let named = format ?? InputFormat(extensionOf: path), named == .json || named == .jsonLines,
              let reading = await FileReading.settled(path: path), reading.vouchesForContent,
              let loaded = try? await Self.locating(named).load(path: path, sourceName: path),
              loaded.skipped.isEmpty, let offset = loaded.store.fileOffset(ofOnly: id) else { return nil }
        return KnownRecord(reading: reading, offset: offset)
    }

    private static func locating(_ format: InputFormat) -> PeopleLoader {
        var loader = PeopleLoader(format: format)
        loader.locatesOnly = true
        return loader
    }

    /// The edit in a database: one transaction, checked against the row's
    /// version. `update` prints the row's new version (for the next
    /// `--if-version`), `add` the new `_id`.
    private static func save(_ operation: RecordOperation, to target: DatabaseTarget, arguments: Arguments, newID: String) -> ExitStatus {
        let name = target.displayName
        do throws(DatabaseError) {
            let receipt: PeopleEditor.Receipt
            switch target {
            case .postgres(let conninfo):
                let connection = try PasswordPrompt.connect(conninfo, prompt: PasswordPrompt.forThisTerminal())
                let table = try PeopleTable(name: arguments.table, dialect: .postgres)
                try table.verify(connection, target: name)
                receipt = try editing(PeopleEditor(table: table).apply(operation, ifVersion: arguments.ifVersion, on: connection), target: name)
            case .sqlite(let path):
                guard Platform.fileExists(path) else { throw DatabaseError(.failed, "\(name): no such file") }
                let connection = try SQLiteConnection(path: path, access: .readWrite, busyTimeout: Self.sqlitePatience)
                let table = try PeopleTable(name: arguments.table, dialect: .sqlite)
                try table.verify(connection, target: name)
                receipt = try editing(PeopleEditor(table: table).apply(operation, ifVersion: arguments.ifVersion, on: connection), target: name)
            }
            if receipt.addedVersions {
                Platform.writeError("roster: \(name): table \(arguments.table) had no version column; added one (every person at version 0)")
            }
            switch arguments.verb {
            case .add: Platform.writeOutput(newID + "\n")
            case .update: Platform.writeOutput("\(receipt.version ?? 0)\n")
            case .delete: break
            }
            if !arguments.quiet, let line = EditReport.line(for: operation, in: name, before: receipt.before) {
                Platform.writeError("roster: " + line + (receipt.version.map { " (version \($0))" } ?? ""))
            }
            return .success
        } catch {
            let message = error.message.hasPrefix(name) ? error.message : "\(name): \(error.message)"
            Platform.writeError("roster: \(message)")
            return .failure
        }
    }

    /// An edit's refusal as a database error whose message is whole.
    static func editing<Receipt>(_ edit: @autoclosure () throws(EditFailure) -> Receipt,
                                 target: String) throws(DatabaseError) -> Receipt {
        do {
            return try edit()
        } catch {
            throw DatabaseError(.failed, "\(target): \(error.message)" + (error.kind == .busy ? "; nothing changed, try again" : ""))
        }
    }
}
