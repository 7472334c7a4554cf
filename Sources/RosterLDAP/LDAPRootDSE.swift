/// What a server says of itself at the root DSE: where its data lives and
/// which controls it offers, so that a source uses what is there (windows
/// by position where Virtual List View is offered, paging otherwise;
/// content synchronisation, else persistent search, else polling).
public struct LDAPRootDSE: Sendable, Equatable {
    static let attributes = ["namingContexts", "supportedControl", "supportedExtension", "supportedFeatures",
                             "supportedSASLMechanisms", "vendorName", "vendorVersion"]

    public let namingContexts: [String]
    public let supportedControls: Set<String>
    public let supportedExtensions: Set<String>
    public let saslMechanisms: [String]
    public let vendor: String?

    public init(_ entry: LDAPEntry) {
        namingContexts = entry["namingContexts"].compactMap(\.text)
        supportedControls = Set(entry["supportedControl"].compactMap(\.text))
        supportedExtensions = Set(entry["supportedExtension"].compactMap(\.text))
        saslMechanisms = entry["supportedSASLMechanisms"].compactMap(\.text)
        vendor = [entry.text("vendorName"), entry.text("vendorVersion")].compactMap { $0 }.joined(separator: " ").nonEmpty
    }

    public var offersPagedResults: Bool { supportedControls.contains(LDAPOID.pagedResults) }
    /// Windows by position: the Virtual List View control and the sort it
    /// needs.
    public var offersVirtualListView: Bool {
        supportedControls.contains(LDAPOID.vlvRequest) && supportedControls.contains(LDAPOID.sortRequest)
    }
    public var offersContentSync: Bool { supportedControls.contains(LDAPOID.syncRequest) }
    public var offersPersistentSearch: Bool { supportedControls.contains(LDAPOID.persistentSearch) }
    public var offersAssertion: Bool { supportedControls.contains(LDAPOID.assertion) }
    public var offersPostRead: Bool { supportedControls.contains(LDAPOID.postRead) }

    /// The naming context `dn` lies in (the longest that ends it).
    public func namingContext(of dn: String) -> String? {
        let lowered = dn.lowercased()
        return namingContexts.filter { context in
            let suffix = context.lowercased()
            return lowered == suffix || lowered.hasSuffix("," + suffix)
        }.max { $0.count < $1.count }
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
