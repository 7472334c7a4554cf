/// People named in one line that fits: "Ada Lovelace, Bob Smith and 1
/// more". As many names as fit, in order, the rest counted; never a name
/// cut in the middle while a count can stand for it.
public enum PeopleNames {
    /// How a person is named in such a line: their name, else their `_id`,
    /// made safe for a terminal.
    public static func name(of person: Person) -> String {
        let name = person.fullName.trimmingSpaces
        return DisplayText.sanitized(name.isEmpty ? (person.id.isEmpty ? "someone without a name" : "_id \(person.id)") : name)
    }

    /// `names` joined as a sentence ("A", "A and B", "A, B and C"), with as
    /// many of them as keep it within `columns` and the rest counted ("A, B
    /// and 3 more"); at least the first (cut to fit when even it alone is
    /// too long). Empty for no names.
    public static func list(_ names: [String], columns: Int) -> String {
        guard !names.isEmpty else { return "" }
        // From one name up, while the names alone still fit (a few steps,
        // however many people there are).
        var best: String?
        var namesWidth = 0
        for shown in 1...names.count {
            namesWidth += DisplayText.width(names[shown - 1]) + 2
            guard namesWidth <= columns + 2 else { break }
            let text = sentence(Array(names.prefix(shown)), more: names.count - shown)
            if DisplayText.width(text) <= columns { best = text }
        }
        if let best { return best }
        let more = names.count > 1 ? " and \(NumberText.grouped(names.count - 1)) more" : ""
        return DisplayText.fit(names[0], columns: max(1, columns - DisplayText.width(more))) + more
    }

    private static func sentence(_ names: [String], more: Int) -> String {
        let parts = names + (more > 0 ? ["\(NumberText.grouped(more)) more"] : [])
        guard parts.count > 1 else { return parts[0] }
        return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }
}
