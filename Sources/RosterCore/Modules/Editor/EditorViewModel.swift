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
}
