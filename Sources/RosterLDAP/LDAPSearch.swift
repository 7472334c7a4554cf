/// How far below the base a search looks.
public enum LDAPScope: Int32, Sendable, Equatable {
    case base = 0
    case oneLevel = 1
    case subtree = 2
    /// Below the base but not the base itself (an OpenLDAP extension).
    case children = 3
}

/// One search: where, how deep, whom, and which attributes.
public struct LDAPSearch: Sendable, Equatable {
    public var base: String
    public var scope: LDAPScope
    /// The filter as text (RFC 4515): `LDAPFilter.text`, or a URL's own.
    public var filter: String
    /// The attributes to return; empty asks for every user attribute
    /// (`+` for operational ones such as `entryCSN`, `entryUUID`).
    public var attributes: [String]
    /// The most entries wanted (0: as many as the server allows).
    public var sizeLimit: Int
    /// The server's time limit in seconds (0: the server's own).
    public var timeLimit: Int

    public init(base: String, scope: LDAPScope = .subtree, filter: LDAPFilter = .everyone, attributes: [String] = [],
                sizeLimit: Int = 0, timeLimit: Int = 0) {
        self.init(base: base, scope: scope, filterText: filter.text, attributes: attributes, sizeLimit: sizeLimit, timeLimit: timeLimit)
    }

    public init(base: String, scope: LDAPScope = .subtree, filterText: String, attributes: [String] = [],
                sizeLimit: Int = 0, timeLimit: Int = 0) {
        self.base = base
        self.scope = scope
        filter = filterText
        self.attributes = attributes
        self.sizeLimit = sizeLimit
        self.timeLimit = timeLimit
    }

    /// The same search narrowed by `filter` (both must hold).
    public func narrowed(by filter: LDAPFilter) -> LDAPSearch {
        var narrowed = self
        // libldap takes a bare `uid=x` too (a URL's filter may be one); in
        // a conjunction it needs its parentheses.
        let own = self.filter.hasPrefix("(") ? self.filter : "(" + self.filter + ")"
        narrowed.filter = "(&" + own + filter.text + ")"
        return narrowed
    }
}

/// One change to an entry's attribute.
public struct LDAPModification: Sendable, Equatable {
    public enum Kind: Int32, Sendable {
        case add = 0
        case delete = 1
        case replace = 2
    }

    public let kind: Kind
    public let attribute: String
    public let values: [LDAPValue]

    public init(_ kind: Kind, _ attribute: String, _ values: [LDAPValue]) {
        self.kind = kind
        self.attribute = attribute
        self.values = values
    }

    /// `attribute` holds exactly `values` afterwards (none: removed).
    public static func replace(_ attribute: String, with values: [LDAPValue]) -> LDAPModification {
        LDAPModification(.replace, attribute, values)
    }
}

/// What the library is asked to send.
enum LDAPRequest {
    case simpleBind(dn: String, password: [UInt8])
    case saslBind(mechanism: String)
    case search(LDAPSearch)
    case modify(dn: String, [LDAPModification])
    case add(dn: String, [LDAPAttribute])
    case delete(dn: String)
    case extended(oid: String, value: [UInt8]?)
}

/// One message the server sent for an operation.
enum LDAPReply {
    case entry(LDAPEntry, controls: [LDAPControl])
    /// A continuation reference (another server holds part of the answer).
    case reference([String])
    case intermediate(name: String?, value: [UInt8]?, controls: [LDAPControl])
    case done(LDAPResult)
}

/// The operation's final result.
struct LDAPResult: Sendable {
    let code: Int32
    let matchedDN: String
    let diagnostic: String
    let referrals: [String]
    let controls: [LDAPControl]
    /// An extended operation's response value.
    let responseValue: [UInt8]?

    var succeeded: Bool { code == 0 }
}
