/// Tab in the export prompt completes the file name as a shell does: the
/// part after the last `/` is completed among the names in that folder
/// (hidden ones only when it starts with `.`); a lone match is completed
/// whole (a folder with its `/`), several as far as they agree; a second
/// Tab, with nothing left to add, lists the matches above the prompt
/// (as bash's second Tab does) rather than cycling through them.
enum FileNameCompletion: Equatable {
    /// The line completed to this.
    case completed(String)
    /// Nothing to add: these names match.
    case listed([String])
    /// No name in the folder starts that way.
    case none

    /// The completion of `text`; `names(folder)` lists a folder's entries
    /// (`""` is the current one), folders ending in `/`.
    static func complete(_ text: String, names: (String) -> [String]) -> FileNameCompletion {
        let folder = text.lastIndex(of: "/").map { String(text[...$0]) } ?? ""
        let start = String(text.dropFirst(folder.count))
        let matches = names(folder).filter { $0.hasPrefix(start) && (start.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted()
        guard let first = matches.first else { return .none }
        let common = matches.dropFirst().reduce(first) { common, name in String(zip(common, name).prefix { $0 == $1 }.map(\.0)) }
        if common.count > start.count { return .completed(folder + common) }
        return matches.count == 1 ? .completed(folder + first) : .listed(matches)
    }

    /// What the line above the prompt says after a Tab that did not
    /// complete: "3 match: a.csv  b.csv  c.json", "nothing here starts with x".
    var note: String? {
        switch self {
        case .completed: return nil
        case .listed(let names): return "\(NumberText.grouped(names.count)) match: " + names.joined(separator: "  ")
        case .none: return "no file name here starts that way"
        }
    }
}
