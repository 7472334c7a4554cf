@testable import RosterLDAP
import Testing

/// Content synchronisation's messages, decoded and turned into changes
/// without a server: the deletions a present phase implies, and the ones
/// sent outright.
@Suite struct LDAPSyncTrackerTests {
    private func uuid(_ last: UInt8) -> LDAPEntryUUID {
        LDAPEntryUUID(bytes: [UInt8](repeating: 0xAB, count: 15) + [last])!
    }

    private func entry(_ name: String) -> LDAPEntry {
        LDAPEntry(dn: "uid=\(name),dc=x", attributes: [LDAPAttribute("uid", [LDAPValue(name)])])
    }

    @Test func aPresentPhaseDeletesWhomItDoesNotName() {
        var tracker = LDAPSyncTracker(known: [uuid(1), uuid(2), uuid(3), uuid(4)], cookie: nil)
        #expect(tracker.take(.entry(.add, uuid: uuid(2), entry: entry("b"))) == [.changed(entry("b"), uuid: uuid(2))])
        #expect(tracker.take(.uuids([uuid(1)], deleted: false)).isEmpty)
        #expect(tracker.take(.entry(.present, uuid: uuid(4), entry: entry("d"))).isEmpty)
        #expect(tracker.take(.entry(.add, uuid: uuid(5), entry: entry("e"))) == [.changed(entry("e"), uuid: uuid(5))])
        #expect(tracker.take(.presentPhaseEnded) == [.deleted(uuid(3), dn: nil)])
        #expect(tracker.take(.cookie(LDAPSyncCookie("c1"))) == [.cookie(LDAPSyncCookie("c1"))])
        #expect(tracker.take(.refreshDone) == [.caughtUp])
        #expect(tracker.known == [uuid(1), uuid(2), uuid(4), uuid(5)])
        #expect(tracker.cookie == LDAPSyncCookie("c1"))
        // Live changes after the refresh.
        #expect(tracker.take(.entry(.delete, uuid: uuid(4), entry: entry("d"))) == [.deleted(uuid(4), dn: "uid=d,dc=x")])
        #expect(tracker.known == [uuid(1), uuid(2), uuid(5)])
    }

    @Test func deletionsSentOutrightAreDeletionsWithoutAPresentPhase() {
        var tracker = LDAPSyncTracker(known: [uuid(1), uuid(2), uuid(3)], cookie: LDAPSyncCookie("c0"))
        #expect(tracker.take(.uuids([uuid(1), uuid(3)], deleted: true)) == [.deleted(uuid(1), dn: nil), .deleted(uuid(3), dn: nil)])
        #expect(tracker.take(.deletePhaseEnded).isEmpty)
        #expect(tracker.take(.refreshDone) == [.caughtUp])
        #expect(tracker.known == [uuid(2)])
    }

    @Test func aPresentPhaseOverEntriesNotListedAsksForAReload() {
        var tracker = LDAPSyncTracker(known: nil, cookie: nil)
        _ = tracker.take(.uuids([uuid(1)], deleted: false))
        #expect(tracker.take(.presentPhaseEnded) == [.reloadNeeded])
        // Outside a refresh a present phase is not in the protocol either.
        var live = LDAPSyncTracker(known: [uuid(1)], cookie: nil)
        _ = live.take(.refreshDone)
        #expect(live.take(.presentPhaseEnded) == [.reloadNeeded])
        #expect(live.known == [uuid(1)])
    }

    @Test func aReconnectStartsANewRefreshAndKeepsTheFirstCookie() {
        var tracker = LDAPSyncTracker(known: [uuid(1), uuid(2)], cookie: nil)
        tracker.begin(at: LDAPSyncCookie("now"))
        tracker.begin(at: LDAPSyncCookie("later"))
        #expect(tracker.cookie == LDAPSyncCookie("now"))
        _ = tracker.take(.refreshDone)
        tracker.restart()
        _ = tracker.take(.uuids([uuid(2)], deleted: false))
        #expect(tracker.take(.presentPhaseEnded) == [.deleted(uuid(1), dn: nil)])
        tracker.forgetCookie()
        #expect(tracker.cookie == nil)
    }

    @Test func syncMessagesAreDecoded() throws {
        let id = [UInt8](repeating: 0x11, count: 16)
        // Sync State: { add, uuid, cookie "k" }
        let state = LDAPControl(oid: LDAPOID.syncState, isCritical: false, value: [0x30, 0x18, 0x0A, 0x01, 0x01, 0x04, 0x10] + id + [0x04, 0x01, 0x6B])
        #expect(try LDAPSyncMessage.decode(entry: entry("a"), controls: [state])
                == [.entry(.add, uuid: LDAPEntryUUID(bytes: id)!, entry: entry("a")), .cookie(LDAPSyncCookie("k"))])
        #expect(throws: BER.Malformed.self) { try LDAPSyncMessage.decode(entry: entry("a"), controls: []) }
        // Sync Info: newcookie [0]; refreshPresent [2] { refreshDone default TRUE }; syncIdSet [3] { TRUE, SET { uuid } }.
        #expect(try LDAPSyncMessage.decode(info: [0x80, 0x01, 0x6B]) == [.cookie(LDAPSyncCookie("k"))])
        #expect(try LDAPSyncMessage.decode(info: [0xA2, 0x00]) == [.presentPhaseEnded, .refreshDone])
        #expect(try LDAPSyncMessage.decode(info: [0xA1, 0x03, 0x01, 0x01, 0x00]) == [.deletePhaseEnded])
        #expect(try LDAPSyncMessage.decode(info: [0xA3, 0x17, 0x01, 0x01, 0xFF, 0x31, 0x12, 0x04, 0x10] + id)
                == [.uuids([LDAPEntryUUID(bytes: id)!], deleted: true)])
        #expect(throws: BER.Malformed.self) { try LDAPSyncMessage.decode(info: [0xA3, 0x05, 0x31, 0x03, 0x04, 0x01, 0x00]) }
        // Sync Done: { cookie "k", refreshDeletes TRUE }.
        let done = LDAPControl(oid: LDAPOID.syncDone, isCritical: false, value: [0x30, 0x06, 0x04, 0x01, 0x6B, 0x01, 0x01, 0xFF])
        #expect(try LDAPSyncMessage.decode(done: [done]) == [.deletePhaseEnded, .cookie(LDAPSyncCookie("k")), .refreshDone])
    }

    @Test func entryUUIDsReadAndPrintAsTheAttributeHoldsThem() {
        let text = "2039de48-8649-1041-8441-5f5c6fe2d14b"
        #expect(LDAPEntryUUID(text)?.description == text)
        #expect(LDAPEntryUUID("2039de48") == nil)
        #expect(LDAPEntryUUID("zz39de48-8649-1041-8441-5f5c6fe2d14b") == nil)
    }
}
