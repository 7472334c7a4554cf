/// One entry as the directory returned it: its DN and its attributes in
/// the server's order, each with all its values (binary-safe).
public struct LDAPEntry: Sendable, Equatable {
    public let dn: String
    public var attributes: [LDAPAttribute]

    public init(dn: String, attributes: [LDAPAttribute]) {
        self.dn = dn
        self.attributes = attributes
    }

    /// The values of `name` (matched without regard to case, as LDAP
    /// matches attribute descriptions); empty when the entry has none.
    public subscript(_ name: String) -> [LDAPValue] {
        attribute(named: name)?.values ?? []
    }

    public func attribute(named name: String) -> LDAPAttribute? {
        attributes.first { $0.name.caseInsensitiveEquals(name) }
    }

    /// The first value of `name` as text.
    public func text(_ name: String) -> String? {
        self[name].first?.text
    }
}

/// One attribute description (`mail`, `member;range=0-1499`,
/// `userCertificate;binary`) and its values.
public struct LDAPAttribute: Sendable, Equatable {
    public let name: String
    public var values: [LDAPValue]

    public init(_ name: String, _ values: [LDAPValue]) {
        self.name = name
        self.values = values
    }
}

extension String {
    /// ASCII case-insensitive equality: attribute descriptions are ASCII.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { Self.lower($0) == Self.lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
