/// What the editor shows: one line editor per field, the reason under a
/// field that does not read, and a status line.
public struct EditorViewModel: Equatable, Sendable {
    public struct Field: Equatable, Sendable {
        public let label: String
        public let text: String
        /// Characters before the cursor.
        public let cursor: Int
        /// Why the value cannot be saved, under the field; nil when it reads.
        public let problem: String?
        public let isChanged: Bool
    }

    /// "Edit Ada Lovelace".
    public let title: String
    public let fields: [Field]
    public let focused: Int
    /// "2 fields changed", "saving…", or why the last save failed.
    public let status: String
    /// A question waiting for y or n ("Throw away 2 changes? (y/n)").
    public let question: String?
    public let isSaving: Bool
    /// While saving: how far the save has got, read as the form draws
    /// (nil where the source never says).
    public let saveProgress: SaveProgress?
    /// The conflict screen's rows (a field that differs somewhere), while
    /// it is up instead of the form.
    public let conflict: [ConflictRow]?
    /// On the conflict screen: whose "theirs" is, as far as the source
    /// knows ("people.json, saved 14:02:31 by another program or Roster").
    public var theirsNote: String?

    /// One field on the conflict screen: was, yours and theirs.
    public struct ConflictRow: Equatable, Sendable {
        public let label: String
        public let was: String
        public let mine: String
        public let theirs: String
        /// Whose value it takes; nil while it waits for a choice.
        public let choice: PersonMerge.Choice?
        /// Changed on both sides (the others were merged for the user).
        public let isConflict: Bool
        public let isFocused: Bool
    }

    public init(title: String, fields: [Field], focused: Int, status: String, question: String?, isSaving: Bool,
                saveProgress: SaveProgress? = nil, conflict: [ConflictRow]? = nil) {
        self.title = title
        self.fields = fields
        self.focused = focused
        self.status = status
        self.question = question
        self.isSaving = isSaving
        self.saveProgress = isSaving ? saveProgress : nil
        self.conflict = conflict
    }
}
