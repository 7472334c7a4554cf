/// One page of a paged search, and where the next starts.
public struct LDAPPage: Sendable {
    public let entries: [LDAPEntry]
    /// Where the next page starts; nil after the last page.
    public let next: LDAPPageCookie?
    /// The server's estimate of how many the search finds, if it gave one.
    public let estimatedTotal: Int?
}

/// The server's marker for the rest of a paged search (valid on the
/// connection that read the page).
public struct LDAPPageCookie: Sendable, Equatable {
    let bytes: [UInt8]
}

extension LDAPConnection {
    /// Everything `search` finds, in one answer, without paging. A server
    /// that stops at its size limit fails the read with
    /// `.sizeLimitExceeded` (saying how many came): a part is never passed
    /// off as the whole answer.
    public func search(_ search: LDAPSearch) async throws(LDAPError) -> [LDAPEntry] {
        try await lane.run(deadline: options.operationTimeout) { [identity] context throws(LDAPError) in
            let (entries, result) = try context.search(search)
            if result.code == 4, search.sizeLimit == 0 || entries.count < search.sizeLimit {
                throw LDAPError(.sizeLimitExceeded,
                                "the directory stopped after \(entries.count) entries (its size limit): not everyone was read",
                                detail: LDAPHandle.describe(result.code) + " " + result.diagnostic, resultCode: result.code)
            }
            guard result.succeeded || result.code == 4 else { throw LDAPError.result(result, .reading(search.base, by: identity)) }
            return try context.completingRanges(entries, by: identity)
        }
    }

    /// One page of `search` (Simple Paged Results, RFC 2696): up to `size`
    /// entries after `cookie` (nil: the first page). The server's own size
    /// limit then caps a page, not the search.
    public func page(_ search: LDAPSearch, size: Int, after cookie: LDAPPageCookie?) async throws(LDAPError) -> LDAPPage {
        try await lane.run(deadline: options.operationTimeout) { [identity] context throws(LDAPError) in
            try context.page(search, size: size, after: cookie, by: identity)
        }
    }

    /// Everyone `search` finds, page after page of `pageSize`, each handed
    /// to `onPage` as it comes (the first screen need not wait for the
    /// rest), on the connection's thread. The pages are read in one turn
    /// of the connection, with no hop between threads between them (a
    /// hop per page cost a third of a 20,000-person read on a loaded
    /// machine). Cancelling the task stops between or inside pages.
    public func readAll(_ search: LDAPSearch, pageSize: Int = 1000,
                        onPage: @escaping @Sendable ([LDAPEntry]) -> Void = { _ in }) async throws(LDAPError) -> [LDAPEntry] {
        try await lane.run(deadline: options.operationTimeout) { [identity] context throws(LDAPError) in
            var everyone: [LDAPEntry] = []
            var cookie: LDAPPageCookie?
            repeat {
                let page = try context.page(search, size: pageSize, after: cookie, by: identity)
                onPage(page.entries)
                everyone += page.entries
                cookie = page.next
            } while cookie != nil
            return everyone
        }
    }

    /// The entry at `dn` with `attributes` (empty: all user attributes),
    /// or nil when there is none.
    public func read(_ dn: String, attributes: [String] = []) async throws(LDAPError) -> LDAPEntry? {
        try await lane.run(deadline: options.operationTimeout) { [identity] context throws(LDAPError) in
            guard let entry = try context.readEntry(dn, attributes: attributes, by: identity) else { return nil }
            return try context.completingRanges([entry], by: identity).first
        }
    }

    /// What the server says of itself: its naming contexts and the
    /// controls it offers.
    public func rootDSE() async throws(LDAPError) -> LDAPRootDSE {
        let entry = try await read("", attributes: LDAPRootDSE.attributes)
        return LDAPRootDSE(entry ?? LDAPEntry(dn: "", attributes: []))
    }

    /// A control's value, or an `.other` error naming the bad encoding.
    static func decoded<T>(_ body: () throws(BER.Malformed) -> T) throws(LDAPError) -> T {
        do {
            return try body()
        } catch {
            throw LDAPError(.other, "the directory sent a reply Roster cannot read", detail: "malformed control: \(error.reason)")
        }
    }
}

extension LDAPJobContext {
    /// The entries of `search` and its result, whatever the result says.
    func search(_ search: LDAPSearch, controls: [LDAPControl] = [],
                each: (LDAPEntry, [LDAPControl]) throws(LDAPError) -> Void = { _, _ throws(LDAPError) in })
        throws(LDAPError) -> (entries: [LDAPEntry], result: LDAPResult) {
        var entries: [LDAPEntry] = []
        let result = try collect(try send(.search(search), controls: controls)) { reply throws(LDAPError) in
            // References (parts held by other servers) are not followed:
            // Roster reads one server, with its own credentials.
            if case .entry(let entry, let entryControls) = reply {
                try each(entry, entryControls)
                entries.append(entry)
            }
        }
        return (entries, result)
    }

    /// One page of a paged search.
    func page(_ search: LDAPSearch, size: Int, after cookie: LDAPPageCookie?, by identity: String) throws(LDAPError) -> LDAPPage {
        let control = LDAPControl.pagedResults(size: size, cookie: cookie?.bytes ?? [])
        let (entries, result) = try self.search(search, controls: [control])
        guard result.succeeded else { throw LDAPError.result(result, .reading(search.base, by: identity)) }
        guard let paging = try LDAPConnection.decoded({ () throws(BER.Malformed) in try result.controls.pagedResults() }) else {
            throw LDAPError(.unsupported, "the directory did not page the search", detail: "no paged results control in the reply")
        }
        return LDAPPage(entries: try completingRanges(entries, by: identity),
                        next: paging.cookie.isEmpty ? nil : LDAPPageCookie(bytes: paging.cookie),
                        estimatedTotal: paging.estimate > 0 ? paging.estimate : nil)
    }

    /// `entries` with every attribute the server split into ranges
    /// (`member;range=0-1499`) read whole: every read of entries follows
    /// them, after its own operation ended.
    func completingRanges(_ entries: [LDAPEntry], by identity: String) throws(LDAPError) -> [LDAPEntry] {
        guard entries.contains(where: { $0.attributes.contains { LDAPAttributeRange($0.name) != nil } }) else { return entries }
        var completed: [LDAPEntry] = []
        for entry in entries {
            completed.append(try LDAPAttributeRange.completed(entry) { dn, attribute throws(LDAPError) in
                try readEntry(dn, attributes: [attribute], by: identity)
            })
        }
        return completed
    }

    /// The entry at `dn`, or nil when there is none.
    func readEntry(_ dn: String, attributes: [String], by identity: String) throws(LDAPError) -> LDAPEntry? {
        let search = LDAPSearch(base: dn, scope: .base, filter: .everyone, attributes: attributes)
        let (entries, result) = try self.search(search)
        if result.code == 32 { return nil }
        guard result.succeeded else { throw LDAPError.result(result, .reading(dn, by: identity)) }
        return entries.first
    }
}
