@testable import RosterApp
import RosterCore
import RosterLDAP
import Testing

/// Which attributes a save writes, worked out with no server.
struct LDAPDirectoryEditingTests {
    static let base = Person(id: "p1", firstName: "Ada", lastName: "Lovelace", email: "ada@example.org",
                             address: "12 St James's Square, London, LND, SW1Y 4JH")

    static func modifications(_ changes: [FieldChange]) throws(EditFailure) -> [LDAPModification] {
        try LDAPDirectoryEditing.modifications(base.applying(changes), changes: changes)
    }

    @Test func eachNameFieldIsItsOwnAttribute() throws {
        let written = try Self.modifications([FieldChange(field: .text(.lastName), value: .text("King")),
                                              FieldChange(field: .text(.email), value: .text("ada@king.example"))])
        #expect(written == [.replace("sn", with: ["King"]), .replace("mail", with: ["ada@king.example"])])
    }

    @Test func theAddressIsWrittenAsItsFourParts() throws {
        let written = try Self.modifications([FieldChange(field: .text(.address), value: .text("1 Main St, Springfield, IL, 62701"))])
        #expect(written == [.replace("street", with: ["1 Main St"]), .replace("l", with: ["Springfield"]),
                            .replace("st", with: ["IL"]), .replace("postalCode", with: ["62701"])])
    }

    @Test func anEmptiedFieldRemovesTheAttribute() throws {
        #expect(try Self.modifications([FieldChange(field: .text(.email), value: .text(""))]) == [.replace("mail", with: [])])
    }

    @Test func aFieldNoEntryHasIsRefusedInWords() {
        #expect(throws: EditFailure.self) { try Self.modifications([FieldChange(field: .age, value: .age(40))]) }
    }
}
