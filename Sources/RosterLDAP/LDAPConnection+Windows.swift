/// A window of a server-sorted list to read (Virtual List View).
public struct LDAPWindowRequest: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        /// The entry at `offset` (1 is the first) of a list the caller
        /// believes holds `contentCount` entries (0: it does not know; the
        /// server then takes the offset as it is).
        case position(offset: Int, contentCount: Int)
        /// The first entry whose first sort key is at least `value` (a
        /// jump to a letter).
        case firstAtLeast(LDAPValue)
    }

    public let target: Target
    /// Entries wanted before and after the target.
    public let before: Int
    public let after: Int
    /// The server's marker from the previous window of the same list.
    /// Pass it only for the same search and order, and only while nothing
    /// changed: OpenLDAP then answers from the list it sorted before (a
    /// millisecond, against 80 for a fresh sort of 20,000 people) and does
    /// not see changes made since.
    public let contextID: [UInt8]?

    public init(_ target: Target, before: Int = 0, after: Int, contextID: [UInt8]? = nil) {
        self.target = target
        self.before = before
        self.after = after
        self.contextID = contextID
    }
}

/// A window of the sorted list, and where it sits.
public struct LDAPWindow: Sendable {
    public let entries: [LDAPEntry]
    /// The target entry's position in the list (1 is the first).
    public let targetPosition: Int
    /// How many entries the list holds now, as the server counts them.
    public let contentCount: Int
    /// Pass to the next window's request.
    public let contextID: [UInt8]?

    /// The position of `entries.first` (1 is the first).
    public let firstPosition: Int
}

extension LDAPConnection {
    /// A window of `search`'s entries sorted on the server by `keys`
    /// (RFC 2891) read by position (Virtual List View): the list need not
    /// be read up to it, and the reply says how long it is.
    /// `.unsupported` when the server cannot (no `sssvlv`, or an attribute
    /// with no ordering rule).
    ///
    /// OpenLDAP keeps each sorted list on the connection until it closes,
    /// a few per connection (`sssvlv-maxperconn`, 5 by default), and says
    /// "busy" to the next new one; it also says "busy" to a window asked
    /// for a moment too soon after the last (its own race). So a busy
    /// answer is asked again a little later, then on the connection opened
    /// afresh, which frees the lists (and forgets `contextID`).
    public func window(_ search: LDAPSearch, sortedBy keys: [LDAPSortKey], _ request: LDAPWindowRequest) async throws(LDAPError)
        -> LDAPWindow {
        var request = request
        for attempt in 1... {
            do {
                return try await readWindow(search, keys, request)
            } catch where error.kind == .busy && error.resultCode == 51 && attempt <= 4 {
                if attempt < 4 {
                    do {
                        try await Task.sleep(for: .milliseconds(10 * attempt))
                    } catch {
                        throw LDAPError.cancelled()
                    }
                } else {
                    try await reconnect()
                    request = LDAPWindowRequest(request.target, before: request.before, after: request.after)
                }
            }
        }
        throw LDAPError(.busy, "the directory is busy; try again")
    }

    private func readWindow(_ search: LDAPSearch, _ keys: [LDAPSortKey], _ request: LDAPWindowRequest) async throws(LDAPError)
        -> LDAPWindow {
        try await lane.run(deadline: options.operationTimeout) { context throws(LDAPError) in
            let (entries, result) = try context.search(search, controls: [.sort(keys), .virtualListView(request)])
            let view = try Self.decoded { () throws(BER.Malformed) in try result.controls.virtualListView() }
            let sorting = try Self.decoded { () throws(BER.Malformed) in try result.controls.sortResult() }
            let sortContext = LDAPErrorContext.sorting(by: keys.map(\.attribute))
            guard result.succeeded else { throw LDAPError.result(result, sortContext) }
            if let sorting, sorting != 0 { throw LDAPError.result(LDAPResult.failed(Int32(sorting)), sortContext) }
            guard let view else {
                throw LDAPError(.unsupported, "the directory did not read the list by position", detail: "no VLV response control")
            }
            guard view.result == 0 else { throw LDAPError.result(LDAPResult.failed(Int32(view.result)), sortContext) }
            // Fewer come before the target near the top of the list.
            return LDAPWindow(entries: entries, targetPosition: view.position, contentCount: view.count, contextID: view.contextID,
                              firstPosition: view.position - min(request.before, max(0, view.position - 1)))
        }
    }
}

extension LDAPResult {
    /// A failure told by a control rather than the result (a sort or a
    /// window that failed under a successful search).
    static func failed(_ code: Int32) -> LDAPResult {
        LDAPResult(code: code, matchedDN: "", diagnostic: "", referrals: [], controls: [], responseValue: nil)
    }
}
