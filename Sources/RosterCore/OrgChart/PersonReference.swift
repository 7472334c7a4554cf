/// The ways one person's record names another (a manager): by record id,
/// by LDAP distinguished name, by email address, by full name. A reference
/// is tried as each kind in this order, the most exact first: an id names
/// one record by construction, a name may fit several people.
public enum PersonReferenceKind: UInt8, CaseIterable, Sendable {
    case id
    case distinguishedName
    case email
    case name

    /// Every kind, in the order a reference is tried (made once: `allCases`
    /// makes an array each time it is asked, a million times a resolution).
    static let inOrder = allCases

    /// How a message words the kind ("no one has that id, DN, email or name").
    public var noun: String {
        switch self {
        case .id: return "id"
        case .distinguishedName: return "DN"
        case .email: return "email"
        case .name: return "name"
        }
    }
}

/// What the manager resolution reads of a directory: each person's
/// identifiers (the ways others may name them) and the reference to their
/// manager, as UTF-8 bytes where they already lie, so that a million people
/// are read without a String each.
///
/// People are numbered `0..<count`; the resolution answers in the same
/// numbers. Bytes are given as the source has them: the resolution
/// normalises each kind itself (a DN's spacing and escapes, an email's
/// case, a name's case and accents).
public protocol PersonReferenceSource: Sendable {
    var count: Int { get }
    /// Calls `body` with each of `person`'s identifiers of `kind` (none, one
    /// or several: a person may have two emails).
    func forEachIdentifier(_ kind: PersonReferenceKind, of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
    /// Calls `body` once with `person`'s manager reference, or not at all
    /// when they have none.
    func withManagerReference(of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
}

/// A directory's identifiers and manager references as plain strings: for
/// tests, benchmarks and small sources. A large source reads its own bytes
/// (`PersonReferenceSource`).
public struct PersonReferenceColumns: PersonReferenceSource, Sendable {
    /// One person's identifiers and manager reference.
    public struct Person: Sendable, Equatable {
        public var id: String?
        public var distinguishedName: String?
        public var emails: [String]
        public var names: [String]
        public var manager: String?

        public init(id: String? = nil, distinguishedName: String? = nil, emails: [String] = [], names: [String] = [],
                    manager: String? = nil) {
            self.id = id
            self.distinguishedName = distinguishedName
            self.emails = emails
            self.names = names
            self.manager = manager
        }
    }

    public var people: [Person]

    public init(_ people: [Person]) {
        self.people = people
    }

    public var count: Int { people.count }

    public func forEachIdentifier(_ kind: PersonReferenceKind, of person: Int,
                                  _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let entry = people[person]
        switch kind {
        case .id: entry.id.map { Self.withBytes($0, body) }
        case .distinguishedName: entry.distinguishedName.map { Self.withBytes($0, body) }
        case .email: entry.emails.forEach { Self.withBytes($0, body) }
        case .name: entry.names.forEach { Self.withBytes($0, body) }
        }
    }

    public func withManagerReference(of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        people[person].manager.map { Self.withBytes($0, body) }
    }

    private static func withBytes(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        text.withUTF8(body)
    }
}
