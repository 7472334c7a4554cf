/// Attribute range retrieval, as Active Directory does it: an attribute
/// with more values than the server hands out at once (`MaxValRange`,
/// 1,500 for `member`) comes back as `member;range=0-1499` and no plain
/// `member`; the rest is asked for as `member;range=1500-*`, and so on,
/// until a range ends in `*`.
public struct LDAPAttributeRange: Sendable, Equatable {
    /// The description without the range option (`member`).
    public let attribute: String
    public let first: Int
    /// The last value's index, or nil for `*` (the last part).
    public let last: Int?

    /// The range in `description` (`member;range=0-1499`), or nil when it
    /// carries none. Other options stay in `attribute`, in their order.
    public init?(_ description: String) {
        // Every attribute of every entry read is asked: a range needs a
        // `;`, which almost no description has, and splitting each one
        // cost more than reading the entries (70% of a 20,000-person read).
        guard description.utf8.contains(UInt8(ascii: ";")) else { return nil }
        var kept: [Substring] = []
        var found: (Int, Int?)?
        for option in description.split(separator: ";", omittingEmptySubsequences: false) {
            let lowered = option.lowercased()
            guard kept.count > 0, lowered.hasPrefix("range=") else {
                kept.append(option)
                continue
            }
            let bounds = lowered.dropFirst("range=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard bounds.count == 2, let low = Int(bounds[0]), low >= 0 else { return nil }
            if bounds[1] == "*" {
                found = (low, nil)
            } else if let high = Int(bounds[1]), high >= low {
                found = (low, high)
            } else {
                return nil
            }
        }
        guard let found else { return nil }
        attribute = kept.joined(separator: ";")
        first = found.0
        last = found.1
    }

    /// What to ask for next, or nil when this was the last part.
    public var nextRequest: String? {
        last.map { "\(attribute);range=\($0 + 1)-*" }
    }

    /// `entry` with every ranged attribute completed: `fetch` is asked for
    /// each next part (the entry's DN and the description to request) and
    /// returns the entry holding it; the parts' values are joined under the
    /// plain description, in order. An attribute whose next part does not
    /// come back (the entry changed meanwhile) keeps what was read.
    public static func completed<Failure: Error>(
        _ entry: LDAPEntry, fetch: (String, String) throws(Failure) -> LDAPEntry?
    ) throws(Failure) -> LDAPEntry {
        var attributes: [LDAPAttribute] = []
        for attribute in entry.attributes {
            guard var range = LDAPAttributeRange(attribute.name) else {
                attributes.append(attribute)
                continue
            }
            var values = attribute.values
            // A server that repeats a range would loop for ever: each
            // part must start past the last.
            while let request = range.nextRequest, let part = try fetch(entry.dn, request),
                  let next = rangedPart(of: range.attribute, in: part), next.range.first > range.first {
                values += next.values
                range = next.range
            }
            attributes.append(LDAPAttribute(range.attribute, values))
        }
        return LDAPEntry(dn: entry.dn, attributes: attributes)
    }

    /// The part of `attribute` that `entry` holds, with its range.
    private static func rangedPart(of attribute: String, in entry: LDAPEntry) -> (range: LDAPAttributeRange, values: [LDAPValue])? {
        for candidate in entry.attributes {
            if let range = LDAPAttributeRange(candidate.name), range.attribute.caseInsensitiveEquals(attribute) {
                return (range, candidate.values)
            }
        }
        return nil
    }
}
