/// What the Content Synchronization operation (RFC 4533) says, message by
/// message, decoded from its controls and intermediate responses.
public enum LDAPSyncMessage: Sendable, Equatable {
    /// An entry and its state: added or changed (with its attributes), or
    /// present/deleted (its DN only).
    case entry(LDAPSyncState, uuid: LDAPEntryUUID, entry: LDAPEntry)
    /// Many entries at once, by id: present (unchanged, still there) or
    /// deleted.
    case uuids([LDAPEntryUUID], deleted: Bool)
    /// The refresh's present phase ended: every entry neither named
    /// present nor sent since the refresh began is gone.
    case presentPhaseEnded
    /// The refresh's delete phase ended (deletions were sent one by one).
    case deletePhaseEnded
    /// The refresh ended (in persist mode: from now on changes come live).
    case refreshDone
    /// A cookie to save: synchronising again from it resumes here.
    case cookie(LDAPSyncCookie)
}

/// An entry's state in a synchronisation message.
public enum LDAPSyncState: Int, Sendable, Equatable {
    case present = 0, add = 1, modify = 2, delete = 3
}

/// The server's marker of how far a synchronisation got; save it to catch
/// up from there after a lost connection.
public struct LDAPSyncCookie: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init(_ text: String) { bytes = Array(text.utf8) }

    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

/// An entry's permanent id (`entryUUID`, RFC 4530): 16 bytes.
public struct LDAPEntryUUID: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// From its text form (`2039de48-8649-1041-8441-5f5c6fe2d14b`), as the
    /// `entryUUID` attribute holds it.
    public init?(_ text: String) {
        let digits = text.utf8.filter { $0 != UInt8(ascii: "-") }
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.init(bytes: bytes)
    }

    /// `entry`'s id from its `entryUUID` attribute.
    public init?(of entry: LDAPEntry) {
        guard let text = entry.text("entryUUID") else { return nil }
        self.init(text)
    }

    public var description: String {
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }
}

extension LDAPSyncMessage {
    /// The messages an entry with its Sync State control stands for.
    static func decode(entry: LDAPEntry, controls: [LDAPControl]) throws(BER.Malformed) -> [LDAPSyncMessage] {
        guard let value = controls.first(LDAPOID.syncState)?.value else { throw BER.Malformed(reason: "an entry without its sync state") }
        var outer = BERReader(value)
        var sequence = try outer.constructed()
        guard let state = LDAPSyncState(rawValue: try sequence.enumerated()) else { throw BER.Malformed(reason: "an unknown sync state") }
        guard let uuid = LDAPEntryUUID(bytes: try sequence.octets()) else { throw BER.Malformed(reason: "an entryUUID not of 16 bytes") }
        var messages: [LDAPSyncMessage] = [.entry(state, uuid: uuid, entry: entry)]
        if let cookie = try sequence.optional(BER.octetString, { reader throws(BER.Malformed) in try reader.octets() }) {
            messages.append(.cookie(LDAPSyncCookie(cookie)))
        }
        return messages
    }

    /// The messages a Sync Info intermediate response stands for.
    static func decode(info value: [UInt8]) throws(BER.Malformed) -> [LDAPSyncMessage] {
        var outer = BERReader(value)
        let (tag, contents) = try outer.element()
        if tag == BER.context(0) { return [.cookie(LDAPSyncCookie(Array(contents)))] }
        var choice = BERReader(contents)
        var messages: [LDAPSyncMessage] = []
        if let cookie = try choice.optional(BER.octetString, { reader throws(BER.Malformed) in try reader.octets() }) {
            messages.append(.cookie(LDAPSyncCookie(cookie)))
        }
        switch tag {
        case BER.context(1, constructed: true), BER.context(2, constructed: true):
            let refreshDone = try choice.optional(BER.boolean) { reader throws(BER.Malformed) in try reader.boolean() } ?? true
            messages.insert(tag == BER.context(1, constructed: true) ? .deletePhaseEnded : .presentPhaseEnded, at: 0)
            if refreshDone { messages.append(.refreshDone) }
        case BER.context(3, constructed: true):
            let deleted = try choice.optional(BER.boolean) { reader throws(BER.Malformed) in try reader.boolean() } ?? false
            var set = try choice.constructed(BER.set)
            var uuids: [LDAPEntryUUID] = []
            while !set.isAtEnd {
                guard let uuid = LDAPEntryUUID(bytes: try set.octets()) else { throw BER.Malformed(reason: "an entryUUID not of 16 bytes") }
                uuids.append(uuid)
            }
            messages.insert(.uuids(uuids, deleted: deleted), at: 0)
        default:
            throw BER.Malformed(reason: "an unknown sync info (tag \(tag))")
        }
        return messages
    }

    /// The messages the Sync Done control at the end of a refresh stands for.
    static func decode(done controls: [LDAPControl]) throws(BER.Malformed) -> [LDAPSyncMessage] {
        guard let value = controls.first(LDAPOID.syncDone)?.value else { return [.refreshDone] }
        var outer = BERReader(value)
        var sequence = try outer.constructed()
        let cookie = try sequence.optional(BER.octetString) { reader throws(BER.Malformed) in try reader.octets() }
        let deletes = try sequence.optional(BER.boolean) { reader throws(BER.Malformed) in try reader.boolean() } ?? false
        return [deletes ? .deletePhaseEnded : .presentPhaseEnded] + (cookie.map { [.cookie(LDAPSyncCookie($0))] } ?? []) + [.refreshDone]
    }
}
