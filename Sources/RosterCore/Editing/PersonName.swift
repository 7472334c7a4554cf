/// A person's name written as one text (`"name": "Ada Lovelace"`, a CSV
/// `name` column): its last word is the last name, the words before it
/// the first. The loaders read by this rule (`RecordScratch` on bytes);
/// an edit of one half writes the text again by it, so that the other
/// half is kept.
public enum WholeName {
    /// The first and last name `text` reads as: the last word (after any
    /// trailing spaces) is the last name; what is before it, without the
    /// spaces between, the first.
    public static func halves(of text: String) -> (first: String, last: String) {
        let bytes = text.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: " ") { end = bytes.index(before: end) }
        var split = end
        while split > bytes.startIndex, bytes[bytes.index(before: split)] != UInt8(ascii: " ") { split = bytes.index(before: split) }
        var firstEnd = split
        while firstEnd > bytes.startIndex, bytes[bytes.index(before: firstEnd)] == UInt8(ascii: " ") {
            firstEnd = bytes.index(before: firstEnd)
        }
        // Every boundary is beside an ASCII space: a character boundary.
        return (String(text[..<firstEnd]), String(text[split..<end]))
    }

    /// The one text that reads back as exactly `first` and `last`; nil
    /// when none does: a last name of more than one word, or a first name
    /// without a last (alone, it would read as the last name).
    public static func text(first: String, last: String) -> String? {
        let text = first.isEmpty ? last : first + " " + last
        let read = halves(of: text)
        return read.first == first && read.last == last ? text : nil
    }
}

extension FieldCheck {
    /// What every editor says to a person left without a name.
    public static let nameNeeded = "a first or last name is needed"

    /// Why `person`, as an edit would leave them, cannot be saved: with no
    /// first or last name a reader would see (spaces, no-break spaces,
    /// zero-width or bidi marks only), the loader skips the record, and
    /// the person would vanish from the list. The one rule for the form,
    /// `v`, `roster add` and `update`, and every source's save.
    public static func nameProblem(of person: Person) -> EditProblem? {
        hasVisibleText(person.firstName) || hasVisibleText(person.lastName) ? nil : EditProblem(nameNeeded)
    }

    private static func hasVisibleText(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { TextFolding.hasVisibleText($0) }
    }
}
