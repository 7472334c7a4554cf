/// What a line typed after `:` asks the list to do.
public enum ListCommand: Equatable, Sendable {
    /// `:sort balance desc`: that order, the selected person kept; with
    /// `flat`, as one flat list (else grouped as it is).
    case sort(SortOrder, flat: Bool)
    /// `:filter company:acme`; nil (`:filter` alone) clears the filter.
    case filter(String?)
    /// `:export out.csv`: what the list shows (or the marked) to that file, as `e` writes it.
    case export(String)
    /// `:columns`: the column chooser, as `C`.
    case columns
    /// `:help`: the keys and commands, as `?`.
    case help
    case quit
    /// `:42`: person 42 of the list, as less and vim go to line 42.
    case goTo(Int)
}

/// Why a line is not a command, shown above the line (which stays open to
/// be put right, as the search prompt stays open on a query's error).
public struct CommandError: Error, Equatable, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}

/// What a command takes after its name: what Tab completes there.
enum CommandArgument: Sendable {
    case nothing
    /// A column to sort by (`SortOrder.Key.allCases`), then asc or desc.
    case sortKey
    /// A query, as `/` takes it: Tab completes a field name.
    case query
    /// A file name, as the export prompt's Tab completes it.
    case fileName
}

/// One command of the command line: how it is named, what help says of
/// it, and how its arguments make a `ListCommand`. The one table
/// (`ListCommandTable.commands`) both runs the commands and lists them in `?`.
public struct ListCommandSpec: Sendable {
    /// "sort": any start of it is the command too (`:s`, `:so`), as vim
    /// takes `:q`. "N" for the one named by a number (`:42`).
    public let name: String
    /// Other names: `write` (vim's `:w`) for export.
    let aliases: [String]
    /// "FIELD [asc|desc]": what follows the name, for help.
    public let usage: String
    public let help: String
    let argument: CommandArgument
    /// The command, from the word that named it and what follows it.
    let make: @Sendable (_ word: String, _ arguments: String) throws(CommandError) -> ListCommand

    /// Named by a number (the row to go to) rather than by its name.
    var isNumbered: Bool { name == "N" }

    /// How help writes it: ":sort FIELD [asc|desc]".
    public var synopsis: String { ":" + name + (usage.isEmpty ? "" : " " + usage) }
}
