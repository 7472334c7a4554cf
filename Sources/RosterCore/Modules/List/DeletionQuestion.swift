/// `D`'s question, naming who would go: "Delete Ada Lovelace? (y/n)",
/// "Delete 3 people: Ada Lovelace, Bob Smith and 1 more? (y/n)", with as
/// many names as the line has room for.
public struct DeletionQuestion: Equatable, Sendable {
    /// The people's names, made safe for a terminal, in the list's order.
    public let names: [String]

    public init(_ people: [Person]) {
        names = people.map(PeopleNames.name(of:))
    }

    init(names: [String]) {
        self.names = names
    }

    /// The question in at most `columns` cells (its names counted, not cut, where they do not fit).
    public func text(columns: Int) -> String {
        let ending = "? (y/n)"
        guard names.count > 1 else { return "Delete \(names.first ?? "nobody")\(ending)" }
        let opening = "Delete \(NumberText.count(names.count, "person", "people")): "
        return opening + PeopleNames.list(names, columns: columns - DisplayText.width(opening + ending)) + ending
    }
}
