/// One person, every field labelled, ready to draw.
public struct DetailViewModel: Equatable, Sendable {
    public struct Field: Equatable, Sendable {
        public var label: String
        public var value: String
        /// What `y` copies: the value as stored (empty when the record has none).
        public var copyText: String = ""
        /// People this field names (the chain of managers, a report): each
        /// a stop of Tab that Enter opens, drawn in place of `value` one
        /// after another with " › " between, cut to one line.
        public var people: [String] = []
        /// Drawn dim after the people: why a chain of managers ends where
        /// it does when that is a problem ("manager not here").
        public var after: String? = nil
    }

    /// The person's full name.
    public var title: String
    public var company: String
    /// "12/340": where this person stands in the list.
    public var position: String
    public var fields: [Field]
    /// A short message for the status line ("copied email"), or nil.
    public var status: String? = nil
    /// The field under the cursor (Tab), which `y` copies.
    public var selectedField: Int? = nil
    /// Which of the selected field's `people` is under the cursor (Enter
    /// opens them); nil on a field that names nobody.
    public var selectedPerson: Int? = nil
    /// Whether the person was read: while `.loading`, or `.failed` with
    /// what the screen says instead ("Not loaded: connection lost. …"), it
    /// shows no fields that would look like values (or like none).
    public var state: LoadState = .loaded
    /// What the database said last, for the `?` help (nil: nothing failed).
    public var problemDetail: String? = nil
}
