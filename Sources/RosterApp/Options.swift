import RosterCore

/// What the command line asked for.
public struct Options: Equatable, Sendable {
    public enum Mode: Equatable, Sendable {
        case browse
        case list
        case export(ExportFormat)
        case help
        case version
    }

    public var mode: Mode = .browse
    /// A path, "-" for standard input, or nil for the bundled directory.
    public var file: String?
    /// Any skipped record is an error (status 1).
    public var strict = false
    /// Neither read nor write the remembered place.
    public var noState = false
    /// Wheel scrolls, click selects, double click opens.
    public var mouse = false
    /// No colours (as NO_COLOR does).
    public var noColor = false
    /// CSV text cells written exactly, even those a spreadsheet would run.
    public var csvVerbatim = false
    /// `--list --tree`: the org chart as indented text.
    public var tree = false
    /// `--filter TEXT` and `--sort FIELD[:desc]`: the people shown and their
    /// order, in the app as in --list and --export. A sort given here wins
    /// over the remembered one; nil when not given.
    public var filter: String?
    public var sort: SortOrder?
    /// `--format`: how to read the input; nil: by extension, else by content.
    public var format: InputFormat?
    /// `--table NAME`: the table to browse when FILE is a database.
    public var table: String?
    /// `--password-file FILE`: the password to bind to a directory server with.
    public var passwordFile: String?

    public init(mode: Mode = .browse, file: String? = nil, strict: Bool = false, noState: Bool = false, mouse: Bool = false) {
        self.mode = mode
        self.file = file
        self.strict = strict
        self.noState = noState
        self.mouse = mouse
    }

    /// A usage error: one line, and the hint to `--help`.
    public struct UsageError: Error, Equatable, Sendable {
        public var message: String
    }

    public static let usage = """
    Usage: roster [options] [FILE | - | DATABASE | DIRECTORY]
           roster import FILE --into DATABASE [--table NAME]
           roster update FILE|DATABASE ID field=value… [--if-version N] [--backup]
           roster add FILE|DATABASE field=value…
           roster delete FILE|DATABASE ID… [--if-version N]
           roster query FILE|DATABASE WORDS… [--format mutt|aerc] [--no-cache]
           roster init FILE

    Browse a directory of people (JSON, JSON Lines or CSV, Google, Outlook
    and LinkedIn exports among them; vCard, a folder of .vcf files, LDIF),
    grouped by company. With no FILE, opens the sample directory, read-only ('roster
    init FILE' writes a copy to edit); with -, reads standard input (keys
    then come from the terminal).

    DATABASE is a table 'roster import' filled, browsed where it is:
    postgres://user@host/db, postgresql://…, any libpq connection string
    (host=… dbname=…; PGHOST, PGDATABASE, PGPASSWORD, ~/.pgpass honoured as
    psql honours them), or an SQLite file: sqlite:PATH, or PATH.db,
    PATH.sqlite, PATH.sqlite3.

    DIRECTORY is a company directory server (OpenLDAP, Active Directory):
    ldap://host[:port]/BASE, ldaps://…, or
    ldapi://%2Fpath%2Fto%2Fsocket/BASE; an RFC 4516 filter narrows who is
    a person (ldap://host/BASE??sub?(ou=Sales)). Binds anonymously, or as
    the URL's ?bindname=DN (or ldaprc's BINDDN), the password asked on the
    terminal, echo off, or read from --password-file FILE (mode 0600).

    Options:
      --format json|jsonl|csv|vcf|ldif
                    how to read FILE; by default its extension says (.json,
                    .jsonl or .ndjson, .csv, .vcf, .ldif), else its start:
                    [ JSON, { JSON Lines, BEGIN:VCARD vCard, dn: LDIF, a
                    letter or quote CSV (header row); a folder: its .vcf files
      --list        print the grouped, sorted list as text and exit
      --tree        with --list: the org chart as text, each person under
                    their manager (a "manager" field: _id, email or name),
                    two spaces a level; with --filter, the matches inside
                    their chains of managers
      --export FORMAT
                    write the directory to standard output as csv, json
                    (the input's own shape) or vcard, in list order, each
                    person with their manager where the source has them
      --csv-verbatim
                    write CSV text exactly, even cells a spreadsheet would
                    run as formulas (=, +, -, @ first); by default those get
                    a leading '
      --filter QUERY
                    show only people matching QUERY, as / does (the app
                    opens filtered; --list and --export print only them)
      --sort FIELD[:desc]
                    order by any column, as s does: last, first, email,
                    phone, age, active, company, city, state, zip, address,
                    eye-color, fruit, id or balance (wins over the
                    remembered order, for this run only)
      --table NAME  the database table to browse (default people)
      --password-file FILE
                    the password to bind to a directory server with (the
                    file's only line; mode 0600, as ldapsearch -y)
      --strict      treat any skipped (malformed) record as an error, and a
                    file that is not empty but gave no one
      --no-state    do not restore or remember the place (selection, order)
      --mouse       wheel scrolls, click selects, double click opens (off by
                    default: capturing the mouse stops you selecting text)
      --no-color    no colours (also when NO_COLOR is set)
      -h, --help    show this help and exit
      --version     show the version and exit

    import loads FILE into PostgreSQL (TARGET postgres://… or any libpq
    connection string) or SQLite (sqlite:PATH, or PATH.db); see
    'roster import --help'. When PostgreSQL wants a password that
    ~/.pgpass, PGPASSWORD and the connection string did not give, roster
    asks on the terminal, echo off (never in a message, title or file);
    off a terminal it stops with libpq's reason. A table that is missing,
    or not one roster import made, is one line naming it, status 1.

    query prints the people matching WORDS (as --filter) for a mail
    client's address completion, one email<TAB>name<TAB>company line
    each; see 'roster query --help'.

    update, add and delete edit people by _id, fields named as in searches
    (email=, age=, balance=$1,200.00, active=no, company=, first=…), each
    value checked; see 'roster update --help'. A file is rewritten
    atomically under FILE.lock, other records' bytes kept; a database row
    carries a version, and --if-version N refuses one no longer at N.

    Keys: ↑↓/jk move, PgUp/PgDn page, ^U/^D half page, g/G first/last,
    ⏎ open, Esc back, / search, s/S sort, c flat list, [ ] companies,
    Space collapse/expand, Tab company overview, F counts by field (f/F
    there change it), T org chart, C choose columns, m mark (M all shown, u none),
    then e exports the marked (else all shown), y / Y copy the marked
    (else the selected) as addresses / vCards, ! skipped records, r
    reconnect (after "connection lost"), ? help, q quit; in a person's screen, Tab picks a field and y copies it. See
    'man roster' for the full table.

    Queries (for / and --filter): terms separated by spaces, all of which
    must match; case and accents are ignored.
    \(QueryGrammar.examples.map { "  " + $0.example.padding(toLength: 22, withPad: " ", startingAt: 0) + $0.meaning }.joined(separator: "\n"))
    Field names ignore case (aliases: firstname, lastname, eyecolor,
    favoritefruit, isactive); an unknown field or a bad number is an error.

    Files: $XDG_STATE_HOME/roster/state.json (default ~/.local/state/roster/)
    remembers, per data file (or database, named without its password), the
    selected person, the order and grouping.
    $XDG_CACHE_HOME/roster/ (default ~/.cache/roster/) keeps the last copy
    of each database directory browsed (JSON Lines, up to 200,000 people or
    64 MiB, named by a digest of the target without its password), shown
    "offline as of 14:02, r reconnects — TARGET" when the server is unreachable,
    and roster query's index of each file it reads (see roster query --help).
    Roster writes only those files, the files you export to with e, and
    the file update, add and delete edit.

    Exit status: 0 success, 1 data or I/O error, 2 usage error, 128+N when
    ended by signal N (130 SIGINT, 143 SIGTERM...), the terminal restored.
    """

    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var files: [String] = []
        var onlyFiles = false
        var index = 0
        /// The value of `--name VALUE` or `--name=VALUE`.
        func value(of option: String, _ argument: String) throws(UsageError) -> String {
            if let equals = argument.firstIndex(of: "=") { return String(argument[argument.index(after: equals)...]) }
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            defer { index += 1 }
            if onlyFiles || argument == "-" || !argument.hasPrefix("-") {
                files.append(argument)
                continue
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            switch name {
            case "--": onlyFiles = true
            case "--list": if options.mode == .browse { options.mode = .list }
            case "--export":
                let chosen = try exportFormat(value(of: name, argument))
                if options.mode == .browse || options.mode == .list { options.mode = .export(chosen) }
            case "--format": options.format = try inputFormat(value(of: name, argument))
            case "--filter": options.filter = try checkedFilter(value(of: name, argument))
            case "--sort": options.sort = try checkedSortOrder(value(of: name, argument))
            case "--table": options.table = try value(of: name, argument)
            case "--password-file": options.passwordFile = try value(of: name, argument)
            case "--strict": options.strict = true
            case "--no-state": options.noState = true
            case "--mouse": options.mouse = true
            case "--no-color": options.noColor = true
            case "--csv-verbatim": options.csvVerbatim = true
            case "--tree": options.tree = true
            case "-h", "--help": options.mode = .help
            case "--version", "-V": options.mode = .version
            default:
                throw UsageError(message: "unknown option '\(argument)'")
            }
        }
        guard files.count <= 1 else {
            throw UsageError(message: "one file at a time, got \(files.count): \(files.joined(separator: " "))")
        }
        options.file = files.first
        if options.tree, options.mode != .list, options.mode != .help, options.mode != .version {
            throw UsageError(message: "--tree goes with --list (roster --list --tree FILE)")
        }
        return options
    }

    // MARK: Option values, checked

    static func exportFormat(_ text: String) throws(UsageError) -> ExportFormat {
        guard let chosen = ExportFormat(rawValue: text.lowercased()) else {
            throw UsageError(message: "--export takes csv, json or vcard, not '\(text)'")
        }
        return chosen
    }

    static func inputFormat(_ text: String) throws(UsageError) -> InputFormat {
        guard let format = InputFormat(option: text) else { throw UsageError(message: "--format takes json, jsonl, csv, vcf or ldif, not '\(text)'") }
        return format
    }

    /// Checked here, so that a bad query is a usage error, not an empty list.
    static func checkedFilter(_ text: String) throws(UsageError) -> String {
        do {
            _ = try QueryParser.parse(text)
        } catch {
            throw UsageError(message: "--filter: \(error.describe(in: text))")
        }
        return text
    }

    static func checkedSortOrder(_ text: String) throws(UsageError) -> SortOrder {
        guard let order = sortOrder(text) else {
            let column = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
            if SortOrder.Key.named(column) != nil {
                throw UsageError(message: "--sort: a column's direction is :asc or :desc, not '\(DisplayText.sanitized(text))'")
            }
            let spellings = SortOrder.Key.allCases.map { [$0.spelling, $0.rawValue] }
            if let guess = EditDistance.nearest(to: column, among: spellings) {
                throw UsageError(message: "--sort: no column '\(DisplayText.sanitized(column))'; did you mean \(guess)?")
            }
            throw UsageError(message: "--sort takes a column (last, first, email, phone, age, active, company, city, state, zip, address, eye-color, fruit, id, balance), optionally with :desc, not '\(DisplayText.sanitized(text))'")
        }
        return order
    }

    /// "balance:desc" → balance, descending.
    static func sortOrder(_ text: String) -> SortOrder? {
        let parts = text.lowercased().split(separator: ":").map(String.init)
        guard let field = parts.first, parts.count <= 2 else { return nil }
        let descending: Bool
        switch parts.count == 2 ? parts[1] : "asc" {
        case "asc": descending = false
        case "desc": descending = true
        default: return nil
        }
        return SortOrder.Key.named(field).map { SortOrder($0, descending: descending) }
    }
}

/// A subcommand's words, read one at a time: an option's value follows
/// its `=` or is the next word (`import`, `update`, `add`, `delete`).
struct ArgumentWords {
    private let words: [String]
    private var index = 0

    init(_ words: [String]) {
        self.words = words
    }

    /// The next word, nil at the end.
    mutating func next() -> String? {
        guard index < words.count else { return nil }
        defer { index += 1 }
        return words[index]
    }

    /// The value of `option`, given as `argument` (`--table=x`, or `--table` then `x`).
    mutating func value(of option: String, _ argument: String) throws(Options.UsageError) -> String {
        if let equals = argument.firstIndex(of: "=") { return String(argument[argument.index(after: equals)...]) }
        guard let value = next() else { throw Options.UsageError(message: "\(option) needs a value") }
        return value
    }

    /// `--format`'s value as a format.
    mutating func format(_ argument: String) throws(Options.UsageError) -> InputFormat {
        let text = try value(of: "--format", argument)
        guard let format = InputFormat(option: text) else { throw Options.UsageError(message: "--format takes json, jsonl, csv, vcf or ldif, not '\(text)'") }
        return format
    }

    /// A subcommand asked for its help (`--help`, `-h`): its usage on
    /// standard output, and true.
    static func answeredHelp(_ arguments: [String], usage: String) -> Bool {
        guard arguments.contains("--help") || arguments.contains("-h") else { return false }
        Platform.writeOutput(usage + "\n")
        return true
    }

    /// The option's name without a value after `=`.
    static func name(of argument: String) -> String {
        argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
    }
}
