/// The version of an entry as it was read: one operational attribute's
/// value that changes with every write (OpenLDAP's `entryCSN`, else
/// `modifyTimestamp`, or Active Directory's `uSNChanged`). A write that
/// carries it (the Assertion control) happens only if nobody changed the
/// entry since.
public struct LDAPVersion: Sendable, Hashable {
    public let attribute: String
    public let value: LDAPValue

    public init(attribute: String, value: LDAPValue) {
        self.attribute = attribute
        self.value = value
    }

    /// The attributes to read with an entry to know its version, best first.
    public static let attributes = ["entryCSN", "uSNChanged", "modifyTimestamp"]

    /// `entry`'s version: the best of `attributes` it carries.
    public init?(of entry: LDAPEntry) {
        for attribute in Self.attributes {
            if let value = entry[attribute].first {
                self.init(attribute: attribute, value: value)
                return
            }
        }
        return nil
    }
}

extension LDAPConnection {
    /// Changes the entry at `dn`, only if it is still at `version` (when
    /// given); returns the entry as it is afterwards (`readBack`
    /// attributes, by the Post-Read control), or nil from a server that
    /// does not offer it.
    ///
    /// A stale version is `.assertionFailed` (a conflict, nothing
    /// changed); a refusal by access control is `.insufficientAccess`
    /// ("the directory does not let cn=… change title").
    @discardableResult
    public func modify(_ dn: String, _ changes: [LDAPModification], ifVersion version: LDAPVersion? = nil,
                       readBack: [String] = ["entryCSN", "entryUUID", "modifyTimestamp"]) async throws(LDAPError) -> LDAPEntry? {
        let context = LDAPErrorContext.modifying(dn, attributes: Self.names(changes.map(\.attribute)), by: identity)
        return try await write(.modify(dn: dn, changes), version: version, readBack: readBack, context)
    }

    /// Adds an entry at `dn`; returns it as stored (`readBack`).
    @discardableResult
    public func add(_ dn: String, _ attributes: [LDAPAttribute],
                    readBack: [String] = ["entryCSN", "entryUUID", "modifyTimestamp"]) async throws(LDAPError) -> LDAPEntry? {
        try await write(.add(dn: dn, attributes), version: nil, readBack: readBack, .adding(dn, by: identity))
    }

    /// Deletes the entry at `dn`, only if it is still at `version` (when
    /// given).
    public func delete(_ dn: String, ifVersion version: LDAPVersion? = nil) async throws(LDAPError) {
        _ = try await write(.delete(dn: dn), version: version, readBack: [], .deleting(dn, by: identity))
    }

    private func write(_ request: LDAPRequest, version: LDAPVersion?, readBack: [String],
                       _ errorContext: LDAPErrorContext) async throws(LDAPError) -> LDAPEntry? {
        var controls: [LDAPControl] = []
        if let version { controls.append(.assertion(.equals(version.attribute, version.value))) }
        if !readBack.isEmpty { controls.append(.postRead(readBack)) }
        return try await lane.run(deadline: options.operationTimeout) { [controls] context throws(LDAPError) in
            let result = try context.collect(try context.send(request, controls: controls)) { _ throws(LDAPError) in }
            guard result.succeeded else { throw LDAPError.result(result, errorContext) }
            return try Self.decoded { () throws(BER.Malformed) in try result.controls.postReadEntry() }
        }
    }

    /// Attribute names once each, in their first order (a replace and an
    /// add of the same attribute name it once).
    private static func names(_ attributes: [String]) -> [String] {
        var seen: [String] = []
        for attribute in attributes where !seen.contains(where: { $0.caseInsensitiveEquals(attribute) }) {
            seen.append(attribute)
        }
        return seen
    }
}
