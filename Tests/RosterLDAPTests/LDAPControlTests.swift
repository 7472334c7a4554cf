@testable import RosterLDAP
import Testing

/// The controls' BER, byte for byte, both ways; a malformed reply is an
/// error, never a crash or a read past the end.
@Suite struct LDAPControlTests {
    @Test func integersAndLengthsTakeTheirShortestForm() {
        #expect(BERWriter.twosComplement(0) == [0x00])
        #expect(BERWriter.twosComplement(127) == [0x7F])
        #expect(BERWriter.twosComplement(128) == [0x00, 0x80])
        #expect(BERWriter.twosComplement(-1) == [0xFF])
        #expect(BERWriter.twosComplement(-129) == [0xFF, 0x7F])
        #expect(BERWriter.twosComplement(500) == [0x01, 0xF4])
        var writer = BERWriter()
        writer.octets([UInt8](repeating: 7, count: 300))
        #expect(Array(writer.bytes.prefix(4)) == [0x04, 0x82, 0x01, 0x2C])
        var reader = BERReader(writer.bytes)
        #expect((try? reader.octets()) == [UInt8](repeating: 7, count: 300))
        #expect(reader.isAtEnd)
    }

    @Test func readingBackWhatWasWritten() throws {
        for value in [0, 1, -1, 127, 128, -128, -129, 65_535, Int(Int32.max), Int(Int32.min), Int.max, Int.min] {
            var writer = BERWriter()
            writer.integer(value)
            var reader = BERReader(writer.bytes)
            #expect(try reader.integer() == value)
        }
    }

    @Test func malformedEncodingsAreErrors() {
        var pastEnd = BERReader([0x04, 0x05, 0x61])
        #expect(throws: BER.Malformed.self) { try pastEnd.octets() }
        var wrongTag = BERReader([0x02, 0x01, 0x01])
        #expect(throws: BER.Malformed.self) { try wrongTag.octets() }
        var hugeLength = BERReader([0x04, 0x88, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(throws: BER.Malformed.self) { try hugeLength.octets() }
        var empty = BERReader([UInt8]())
        #expect(throws: BER.Malformed.self) { try empty.integer() }
        #expect(throws: BER.Malformed.self) { try LDAPEntry.decode([0x64, 0x03, 0x04, 0x01]) }
    }

    @Test func requestControlsAreEncodedAsTheirRFCsSay() {
        // Paged results: { size 500, cookie "" }.
        #expect(LDAPControl.pagedResults(size: 500, cookie: []).value == [0x30, 0x06, 0x02, 0x02, 0x01, 0xF4, 0x04, 0x00])
        // Sort: { { "sn", [0] "r", [1] TRUE } }.
        #expect(LDAPControl.sort([LDAPSortKey("sn", orderingRule: "r", reverse: true)]).value
                == [0x30, 0x0C, 0x30, 0x0A, 0x04, 0x02, 0x73, 0x6E, 0x80, 0x01, 0x72, 0x81, 0x01, 0xFF])
        // VLV: { before 2, after 3, byOffset [0] { 100, 1200 } }.
        #expect(LDAPControl.virtualListView(LDAPWindowRequest(.position(offset: 100, contentCount: 1200), before: 2, after: 3)).value
                == [0x30, 0x0F, 0x02, 0x01, 0x02, 0x02, 0x01, 0x03, 0xA0, 0x07, 0x02, 0x01, 0x64, 0x02, 0x02, 0x04, 0xB0])
        // VLV: { 0, 1, greaterThanOrEqual [1] "m", contextID "c" }.
        #expect(LDAPControl.virtualListView(LDAPWindowRequest(.firstAtLeast("m"), after: 1, contextID: [0x63])).value
                == [0x30, 0x0C, 0x02, 0x01, 0x00, 0x02, 0x01, 0x01, 0x81, 0x01, 0x6D, 0x04, 0x01, 0x63])
        // Post-read: { "a", "b" }; sync: { refreshAndPersist, cookie "k" }; psearch: { 15, TRUE, TRUE }.
        #expect(LDAPControl.postRead(["a", "b"]).value == [0x30, 0x06, 0x04, 0x01, 0x61, 0x04, 0x01, 0x62])
        #expect(LDAPControl.sync(mode: .refreshAndPersist, cookie: LDAPSyncCookie("k")).value == [0x30, 0x06, 0x0A, 0x01, 0x03, 0x04, 0x01, 0x6B])
        #expect(LDAPControl.sync(mode: .refreshOnly, cookie: nil).value == [0x30, 0x03, 0x0A, 0x01, 0x01])
        #expect(LDAPControl.persistentSearch().value == [0x30, 0x09, 0x02, 0x01, 0x0F, 0x01, 0x01, 0xFF, 0x01, 0x01, 0xFF])
        #expect(LDAPControl.assertion(.equals("cn", "a")).isCritical)
    }

    @Test func responseControlsAreDecoded() throws {
        let paged = [LDAPControl(oid: LDAPOID.pagedResults, isCritical: false, value: [0x30, 0x07, 0x02, 0x02, 0x04, 0xB0, 0x04, 0x01, 0x6B])]
        #expect(try paged.pagedResults()?.cookie == [0x6B])
        #expect(try paged.pagedResults()?.estimate == 1200)
        let view = [LDAPControl(oid: LDAPOID.vlvResponse, isCritical: false,
                                value: [0x30, 0x0C, 0x02, 0x01, 0x64, 0x02, 0x02, 0x04, 0xB0, 0x0A, 0x01, 0x00, 0x04, 0x00])]
        let decoded = try #require(try view.virtualListView())
        #expect(decoded.position == 100 && decoded.count == 1200 && decoded.result == 0 && decoded.contextID == [])
        #expect(try [LDAPControl(oid: LDAPOID.sortResponse, isCritical: false, value: [0x30, 0x03, 0x0A, 0x01, 0x12])].sortResult() == 18)
        #expect(try [LDAPControl]().pagedResults() == nil)
    }

    @Test func thePostReadEntryIsAnEntry() throws {
        // [APPLICATION 4] { "cn=a", { { "x", SET { "1", "2" } } } }
        let bytes: [UInt8] = [0x64, 0x16, 0x04, 0x04, 0x63, 0x6E, 0x3D, 0x61, 0x30, 0x0E, 0x30, 0x0C, 0x04, 0x01, 0x78,
                              0x31, 0x07, 0x04, 0x01, 0x31, 0x04, 0x02, 0x00, 0x32]
        let controls = [LDAPControl(oid: LDAPOID.postRead, isCritical: false, value: bytes)]
        #expect(try controls.postReadEntry() == LDAPEntry(dn: "cn=a", attributes: [LDAPAttribute("x", [LDAPValue("1"), LDAPValue([0x00, 0x32])])]))
    }

    @Test func anEntryChangeNotificationSaysWhatHappened() throws {
        let entry = LDAPEntry(dn: "cn=new", attributes: [])
        let renamed = [LDAPControl(oid: LDAPOID.entryChangeNotification, isCritical: false,
                                   value: [0x30, 0x0B, 0x0A, 0x01, 0x08, 0x04, 0x06, 0x63, 0x6E, 0x3D, 0x6F, 0x6C, 0x64])]
        #expect(try LDAPPersistentChange.decode(entry, renamed) == LDAPPersistentChange(kind: .rename, entry: entry, previousDN: "cn=old"))
        #expect(try LDAPPersistentChange.decode(entry, []) == nil)
        let deleted = try #require(try LDAPPersistentChange.decode(entry, [LDAPControl(oid: LDAPOID.entryChangeNotification, isCritical: false,
                                                                                       value: [0x30, 0x03, 0x0A, 0x01, 0x02])]))
        #expect(LDAPChangeFeed.change(deleted) == .deleted(nil, dn: "cn=new"))
    }
}
