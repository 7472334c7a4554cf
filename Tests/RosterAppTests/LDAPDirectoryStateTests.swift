@testable import RosterApp
import RosterCore
import RosterLDAP
import Testing

/// The people a directory server's screens show, as the feed's changes and
/// a second reading of everyone change them (no server: entries by hand).
struct LDAPDirectoryStateTests {
    static let uuids = ["2039de48-8649-1041-8441-5f5c6fe2d14b", "2039de48-8649-1041-8441-5f5c6fe2d14c"]

    static func entry(_ number: Int, surname: String) -> LDAPEntry {
        LDAPEntry(dn: "uid=p\(number),ou=People,dc=example,dc=org", attributes: [
            LDAPAttribute("uid", [LDAPValue("p\(number)")]), LDAPAttribute("sn", [LDAPValue(surname)]),
            LDAPAttribute("entryUUID", [LDAPValue(uuids[number])]),
        ])
    }

    @Test func anEntryAtTheVersionHeldIsNoChange() {
        var state = LDAPDirectory.State()
        var entry = Self.entry(0, surname: "Abbott")
        entry.attributes.append(LDAPAttribute("entryCSN", [LDAPValue("20261207111500.000000Z#000000#000#000000")]))
        #expect(LDAPDirectory.take(.changed(entry, uuid: nil), in: &state))
        state.changedSinceShown = false
        // The feed telling of a save this Roster made, and read back already.
        #expect(!LDAPDirectory.take(.changed(entry, uuid: nil), in: &state))
        #expect(!state.changedSinceShown)
    }

    /// The feed can tell of a save of ours before the save's own answer
    /// (the read-back version) comes: the entry is held, but the status
    /// line does not call it someone else's change.
    @Test func anEntryToldWhileOurSaveOfItIsInFlightIsNotSaidAsAnotherChange() {
        var state = LDAPDirectory.State()
        let entry = Self.entry(0, surname: "Abbott")
        #expect(LDAPDirectory.take(.changed(entry, uuid: nil), in: &state))
        state.note = nil
        let key = LDAPDirectory.key(of: entry)
        state.writing.insert(key)
        var echoed = Self.entry(0, surname: "Abbot")
        echoed.attributes.append(LDAPAttribute("entryCSN", [LDAPValue("20261207121500.000000Z#000000#000#000000")]))
        #expect(LDAPDirectory.take(.changed(echoed, uuid: nil), in: &state))
        #expect(state.note == nil)
        #expect(Self.surnames(state) == ["Abbot"])
        state.writing.remove(key)
        var other = Self.entry(0, surname: "Abbe")
        other.attributes.append(LDAPAttribute("entryCSN", [LDAPValue("20261207121600.000000Z#000000#000#000000")]))
        #expect(LDAPDirectory.take(.changed(other, uuid: nil), in: &state))
        #expect(state.note == "changed in the directory; read again")
    }

    static func surnames(_ state: LDAPDirectory.State) -> [String] {
        state.order.compactMap { state.people[$0]?.lastName }
    }

    @Test func aChangedEntryTakesItsOwnPlaceAndADeletedOneLeaves() {
        var state = LDAPDirectory.State()
        #expect(LDAPDirectory.take(.changed(Self.entry(0, surname: "Abbott"), uuid: nil), in: &state))
        #expect(LDAPDirectory.take(.changed(Self.entry(1, surname: "Baker"), uuid: nil), in: &state))
        #expect(LDAPDirectory.take(.changed(Self.entry(0, surname: "Zebra"), uuid: LDAPEntryUUID(Self.uuids[0])), in: &state))
        #expect(Self.surnames(state) == ["Zebra", "Baker"])
        #expect(state.changedSinceShown)
        // By DN alone (a persistent search's deletion), then by id (content synchronisation's).
        #expect(LDAPDirectory.take(.deleted(nil, dn: "uid=p1,ou=People,dc=example,dc=org"), in: &state))
        #expect(Self.surnames(state) == ["Zebra"])
        #expect(LDAPDirectory.take(.deleted(LDAPEntryUUID(Self.uuids[0]), dn: nil), in: &state))
        #expect(Self.surnames(state).isEmpty)
        #expect(!LDAPDirectory.take(.deleted(LDAPEntryUUID(Self.uuids[0]), dn: nil), in: &state))
        // Back again: one place, not two.
        #expect(LDAPDirectory.take(.changed(Self.entry(0, surname: "Again"), uuid: nil), in: &state))
        #expect(Self.surnames(state) == ["Again"])
    }

    @Test func aReadingOfEveryoneKeepsTheChangesTheFeedToldWhileItRan() {
        var shown = LDAPDirectory.State()
        _ = LDAPDirectory.take(.changed(Self.entry(0, surname: "Abbott"), uuid: nil), in: &shown)
        // The reading read person 0 before another client renamed them.
        var read = LDAPDirectory.State()
        _ = LDAPDirectory.take(.changed(Self.entry(0, surname: "Abbott"), uuid: nil), in: &read)
        _ = LDAPDirectory.take(.changed(Self.entry(1, surname: "Baker"), uuid: nil), in: &read)
        let renamed = LDAPChange.changed(Self.entry(0, surname: "Renamed"), uuid: nil)
        shown.madeWhileReading = [renamed]
        _ = LDAPDirectory.take(renamed, in: &shown)
        shown.changedSinceShown = false
        LDAPDirectory.replace(&shown, by: read)
        #expect(Self.surnames(shown) == ["Renamed", "Baker"])
        #expect(shown.changedSinceShown)
    }
}
