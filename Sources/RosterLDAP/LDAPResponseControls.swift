/// What the response controls Roster asks for say, decoded from their BER.
extension [LDAPControl] {
    func first(_ oid: String) -> LDAPControl? {
        first { $0.oid == oid }
    }

    /// The paged results cookie for the next page (empty: the last page),
    /// and the server's estimate of the total (0: none given).
    func pagedResults() throws(BER.Malformed) -> (cookie: [UInt8], estimate: Int)? {
        guard let value = first(LDAPOID.pagedResults)?.value else { return nil }
        var outer = BERReader(value)
        var sequence = try outer.constructed()
        let estimate = try sequence.integer()
        return (try sequence.octets(), estimate)
    }

    /// The sort's result code (0: sorted).
    func sortResult() throws(BER.Malformed) -> Int? {
        guard let value = first(LDAPOID.sortResponse)?.value else { return nil }
        var outer = BERReader(value)
        var sequence = try outer.constructed()
        return try sequence.enumerated()
    }

    /// Where the window's target is and how long the list is.
    func virtualListView() throws(BER.Malformed) -> (position: Int, count: Int, result: Int, contextID: [UInt8]?)? {
        guard let value = first(LDAPOID.vlvResponse)?.value else { return nil }
        var outer = BERReader(value)
        var sequence = try outer.constructed()
        let position = try sequence.integer()
        let count = try sequence.integer()
        let result = try sequence.enumerated()
        let context = try sequence.optional(BER.octetString) { reader throws(BER.Malformed) in try reader.octets() }
        return (position, count, result, context)
    }

    /// The entry the Post-Read control returned.
    func postReadEntry() throws(BER.Malformed) -> LDAPEntry? {
        guard let value = first(LDAPOID.postRead)?.value else { return nil }
        return try LDAPEntry.decode(value)
    }
}

extension LDAPEntry {
    /// A `SearchResultEntry` ([APPLICATION 4]) as the read controls carry it.
    static func decode(_ bytes: [UInt8]) throws(BER.Malformed) -> LDAPEntry {
        var outer = BERReader(bytes)
        var entry = try outer.constructed(0x64)
        let dn = try entry.string()
        var list = try entry.constructed()
        var attributes: [LDAPAttribute] = []
        while !list.isAtEnd {
            var attribute = try list.constructed()
            let name = try attribute.string()
            var set = try attribute.constructed(BER.set)
            var values: [LDAPValue] = []
            while !set.isAtEnd { values.append(LDAPValue(try set.octets())) }
            attributes.append(LDAPAttribute(name, values))
        }
        return LDAPEntry(dn: dn, attributes: attributes)
    }
}
