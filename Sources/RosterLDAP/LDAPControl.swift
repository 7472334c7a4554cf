/// A request or response control: its OID, whether the server must
/// understand it, and its BER-encoded value.
public struct LDAPControl: Sendable, Equatable {
    public let oid: String
    public let isCritical: Bool
    public let value: [UInt8]?

    public init(oid: String, isCritical: Bool, value: [UInt8]?) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
    }
}

/// The OIDs of the controls and extensions Roster uses.
public enum LDAPOID {
    /// Simple Paged Results (RFC 2696).
    public static let pagedResults = "1.2.840.113556.1.4.319"
    /// Server-side sorting (RFC 2891): request and response.
    public static let sortRequest = "1.2.840.113556.1.4.473"
    public static let sortResponse = "1.2.840.113556.1.4.474"
    /// Virtual List View (draft-ietf-ldapext-ldapv3-vlv): request and response.
    public static let vlvRequest = "2.16.840.1.113730.3.4.9"
    public static let vlvResponse = "2.16.840.1.113730.3.4.10"
    /// Assertion (RFC 4528).
    public static let assertion = "1.3.6.1.1.12"
    /// Post-Read (RFC 4527).
    public static let postRead = "1.3.6.1.1.13.2"
    /// Content Synchronization (RFC 4533): request, state, done, info.
    public static let syncRequest = "1.3.6.1.4.1.4203.1.9.1.1"
    public static let syncState = "1.3.6.1.4.1.4203.1.9.1.2"
    public static let syncDone = "1.3.6.1.4.1.4203.1.9.1.3"
    public static let syncInfo = "1.3.6.1.4.1.4203.1.9.1.4"
    /// Persistent Search (draft-ietf-ldapext-psearch) and its Entry Change
    /// Notification.
    public static let persistentSearch = "2.16.840.1.113730.3.4.3"
    public static let entryChangeNotification = "2.16.840.1.113730.3.4.7"
    /// Who am I? (RFC 4532), an extended operation.
    public static let whoAmI = "1.3.6.1.4.1.4203.1.11.3"
}

extension LDAPControl {
    /// Asks for a page of `size` entries, after the page `cookie` ended
    /// (empty: the first).
    static func pagedResults(size: Int, cookie: [UInt8]) -> LDAPControl {
        var writer = BERWriter()
        writer.constructed { sequence in
            sequence.integer(size)
            sequence.octets(cookie)
        }
        return LDAPControl(oid: LDAPOID.pagedResults, isCritical: true, value: writer.bytes)
    }

    /// Asks for the entries sorted by `keys` (critical: an unsorted answer
    /// would put people at the wrong positions).
    static func sort(_ keys: [LDAPSortKey]) -> LDAPControl {
        var writer = BERWriter()
        writer.constructed { list in
            for key in keys {
                list.constructed { item in
                    item.string(key.attribute)
                    if let rule = key.orderingRule { item.string(rule, tag: BER.context(0)) }
                    if key.reverse { item.boolean(true, tag: BER.context(1)) }
                }
            }
        }
        return LDAPControl(oid: LDAPOID.sortRequest, isCritical: true, value: writer.bytes)
    }

    /// Asks for a window of the sorted list around `target`.
    static func virtualListView(_ window: LDAPWindowRequest) -> LDAPControl {
        var writer = BERWriter()
        writer.constructed { sequence in
            sequence.integer(window.before)
            sequence.integer(window.after)
            switch window.target {
            case .position(let offset, let count):
                sequence.constructed(BER.context(0, constructed: true)) { target in
                    target.integer(offset)
                    target.integer(count)
                }
            case .firstAtLeast(let value):
                sequence.octets(value.bytes, tag: BER.context(1))
            }
            if let context = window.contextID { sequence.octets(context) }
        }
        return LDAPControl(oid: LDAPOID.vlvRequest, isCritical: true, value: writer.bytes)
    }

    /// The operation happens only while `filter` holds for the entry
    /// (critical: a server that ignored it would overwrite blindly).
    static func assertion(_ filter: LDAPFilter) -> LDAPControl {
        LDAPControl(oid: LDAPOID.assertion, isCritical: true, value: filter.encoded)
    }

    /// Returns the entry as it is after the operation: `attributes` of it.
    static func postRead(_ attributes: [String]) -> LDAPControl {
        var writer = BERWriter()
        writer.constructed { list in attributes.forEach { list.string($0) } }
        return LDAPControl(oid: LDAPOID.postRead, isCritical: false, value: writer.bytes)
    }

    /// Content synchronization from `cookie` (nil: from the start).
    static func sync(mode: LDAPSyncMode, cookie: LDAPSyncCookie?) -> LDAPControl {
        var writer = BERWriter()
        writer.constructed { sequence in
            sequence.enumerated(mode == .refreshAndPersist ? 3 : 1)
            if let cookie { sequence.octets(cookie.bytes) }
        }
        return LDAPControl(oid: LDAPOID.syncRequest, isCritical: true, value: writer.bytes)
    }

    /// Persistent Search: every kind of change (add, delete, modify,
    /// rename), only changes from now on, each with its notification.
    static func persistentSearch() -> LDAPControl {
        var writer = BERWriter()
        writer.constructed { sequence in
            sequence.integer(1 | 2 | 4 | 8)
            sequence.boolean(true)
            sequence.boolean(true)
        }
        return LDAPControl(oid: LDAPOID.persistentSearch, isCritical: true, value: writer.bytes)
    }
}

/// One key of a server-side sort.
public struct LDAPSortKey: Sendable, Equatable {
    public let attribute: String
    /// The matching rule to order by; OpenLDAP needs one for attributes
    /// whose schema has no ORDERING (`cn`, `sn`: `caseIgnoreOrderingMatch`).
    public let orderingRule: String?
    public let reverse: Bool

    public init(_ attribute: String, orderingRule: String? = "caseIgnoreOrderingMatch", reverse: Bool = false) {
        self.attribute = attribute
        self.orderingRule = orderingRule
        self.reverse = reverse
    }
}
