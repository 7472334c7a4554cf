/// Three versions of one person, field by field, when a save found them
/// changed meanwhile: as the edit began (`base`), as the user made them
/// (`mine`), and as the source holds them now (`theirs`). A field changed
/// on one side only takes that side; one changed on both sides to
/// different values needs the user's choice. Never last-write-wins.
public struct PersonMerge: Equatable, Sendable {
    public enum Choice: Equatable, Sendable {
        case mine, theirs
        /// Mine as a start, edited in the form before saving.
        case edit
    }

    public struct Row: Equatable, Sendable {
        public let field: EditableField
        public let base: String
        public let mine: String
        public let theirs: String
        /// Made for the user when only one side changed; nil while a
        /// field changed on both sides waits for theirs.
        public internal(set) var choice: Choice?

        /// Changed on both sides, to different values.
        public var isConflict: Bool { mine != base && theirs != base && mine != theirs }
        /// Differs on some side (the rows the conflict screen shows).
        public var differs: Bool { mine != base || theirs != base }
        /// The value this row saves, once chosen.
        public var result: String? {
            switch choice {
            case .none: return nil
            case .mine?, .edit?: return mine
            case .theirs?: return theirs
            }
        }
    }

    /// Every field of `fields`, in order.
    public private(set) var rows: [Row]
    /// The person as the source holds them now: what a retry is based on.
    public let theirs: Person

    /// `mine` holds the user's value of each of `fields`, in order.
    public init(fields: [EditableField], base: Person, mine: [String], theirs: Person) {
        self.theirs = theirs
        rows = zip(fields, mine).map { field, mine in
            let before = base.value(of: field), now = theirs.value(of: field)
            let choice: Choice? = mine == before ? .theirs : (now == before || now == mine ? .mine : nil)
            return Row(field: field, base: before, mine: mine, theirs: now, choice: choice)
        }
    }

    /// Indexes of the rows that differ somewhere, in order.
    public var shown: [Int] { rows.indices.filter { rows[$0].differs } }

    /// How many fields changed on both sides still wait for a choice.
    public var unresolved: Int { rows.filter { $0.choice == nil }.count }

    /// Chooses for the field at `index`; a field changed on one side only
    /// may be chosen too (to keep one's own value over theirs, say).
    public mutating func choose(_ choice: Choice, at index: Int) {
        rows[index].choice = choice
    }

    /// Each field's merged value, in order; nil while any waits for a choice.
    public var values: [String]? {
        let values = rows.compactMap(\.result)
        return values.count == rows.count ? values : nil
    }
}
