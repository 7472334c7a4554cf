import Foundation

/// Edits of a query's text that keep the rest as the user typed it: the
/// terms are found by the parser, so quotes and spacing do not matter.
public enum QueryEditing {
    /// `text` less the last term that asks what `term` asks: `state="Kansas"`
    /// out of `state="Kansas" -age>40` (or `state="Kansas"-age>40`) leaves
    /// `-age>40`. The terms either side are joined by one space. Nil when
    /// no such term is there, or either is not a query.
    public static func removingLast(_ term: String, from text: String) -> String? {
        guard let wanted = try? QueryParser.parse(term).terms, wanted.count == 1,
              let found = try? QueryParser.parse(text).terms.last(where: {
                  $0.condition == wanted[0].condition && $0.isNegated == wanted[0].isNegated
              }) else { return nil }
        let characters = Array(text)
        let before = String(characters[..<found.range.lowerBound]).trimmingCharacters(in: .whitespaces)
        let after = String(characters[found.range.upperBound...]).trimmingCharacters(in: .whitespaces)
        return [before, after].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// What `/` opens the prompt on for `filter`: after a finished field
    /// term or phrase (`state="Kansas"`, `age>40`, `"two words"`) a space,
    /// so that what is typed next is a term of its own; after a plain word
    /// (`cohe`) nothing, so that typing goes on refining it.
    public static func promptText(editing filter: String) -> String {
        guard let last = filter.last, !last.isWhitespace,
              filter.count(where: { $0 == "\"" }).isMultiple(of: 2),
              let lastTerm = try? QueryParser.parse(filter).terms.last,
              lastTerm.range.upperBound == filter.count else { return filter }
        if last == "\"" { return filter + " " }
        if case .text(.anywhere, _) = lastTerm.condition { return filter }
        return filter + " "
    }
}
