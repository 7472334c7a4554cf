/// Tab on the command line, as a shell completes: the command's name,
/// then what it takes (a column for `:sort` from the one list of sort
/// keys, then asc or desc; a field name in a `:filter` query; a file name
/// for `:export`, as the export prompt does). A lone match is completed
/// whole, several as far as they agree; with nothing to add, the matches
/// are listed above the line.
enum CommandCompletion: Equatable {
    /// The text before the cursor completed to this.
    case completed(String)
    /// Nothing to add: these match.
    case listed([String])
    /// Nothing starts that way.
    case none

    /// The completion of `line` (the text before the cursor); `fileNames`
    /// lists a folder's entries, folders ending in `/`.
    static func complete(_ line: String, fileNames: (String) -> [String]) -> CommandCompletion {
        let lead = String(line.prefix { $0 == ":" || $0.isWhitespace })
        let rest = String(line.dropFirst(lead.count))
        guard let space = rest.firstIndex(where: \.isWhitespace) else {
            let named = ListCommandTable.commands.filter { !$0.isNumbered }
            let names = named.flatMap { [$0.name] + $0.aliases }
            return choose(rest.lowercased(), among: names, before: lead) { name in
                ListCommandTable.spec(named: name)?.argument == .nothing ? "" : " "
            }
        }
        guard let spec = ListCommandTable.spec(named: String(rest[..<space])) else { return .none }
        let before = lead + String(rest[...space])
        let arguments = String(rest[rest.index(after: space)...])
        switch spec.argument {
        case .nothing:
            return .none
        case .fileName:
            switch FileNameCompletion.complete(arguments, names: fileNames) {
            case .completed(let name): return .completed(before + name)
            case .listed(let names): return .listed(names)
            case .none: return .none
            }
        case .sortKey:
            let (done, word) = lastWord(of: arguments)
            let isField = !done.contains { !$0.isWhitespace }
            let candidates = isField ? SortOrder.Key.allCases.map(\.spelling) : ListCommandTable.sortWords.prefix(3).map(\.word)
            return choose(word.lowercased(), among: candidates, before: before + done) { _ in " " }
        case .query:
            let (done, word) = lastWord(of: arguments)
            guard !word.contains(":") else { return .none }
            return choose(word.lowercased(), among: QueryParser.fieldNames.map { $0.0[0] }, before: before + done) { _ in ":" }
        }
    }

    /// `text` up to its last word, and that word (empty after a space).
    private static func lastWord(of text: String) -> (done: String, word: String) {
        let word = String(text.reversed().prefix { !$0.isWhitespace }.reversed())
        return (String(text.dropLast(word.count)), word)
    }

    /// `start` completed among `candidates` (kept in their order), after
    /// `before`; a lone match gets `ending(match)` after it.
    private static func choose(_ start: String, among candidates: [String], before: String,
                               ending: (String) -> String) -> CommandCompletion {
        let matches = candidates.filter { $0.hasPrefix(start) }
        guard let first = matches.first else { return .none }
        if matches.count == 1 { return .completed(before + first + ending(first)) }
        let common = matches.dropFirst().reduce(first) { common, name in String(zip(common, name).prefix { $0 == $1 }.map(\.0)) }
        return common.count > start.count ? .completed(before + common) : .listed(matches)
    }

    /// What the line above the command line says after a Tab that did not
    /// complete: "sort  filter  export", "nothing starts that way".
    var note: String? {
        switch self {
        case .completed: return nil
        case .listed(let names): return names.joined(separator: "  ")
        case .none: return "nothing to complete here"
        }
    }
}
