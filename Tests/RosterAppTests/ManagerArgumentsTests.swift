import Testing
@testable import RosterApp

/// `roster update TARGET ID manager=…`: the manager is its own change.
@Suite struct ManagerArgumentsTests {
    @Test func managerIsTakenApartFromTheFields() throws {
        let parsed = try EditCommand.parse(.update, ["org.db", "ada", "Manager=Grace Hopper"])
        #expect(parsed.manager == "Grace Hopper" && parsed.changes.isEmpty && parsed.ids == ["ada"])
        #expect(try EditCommand.parse(.update, ["org.db", "ada", "manager="]).manager == "")
        #expect(try EditCommand.parse(.update, ["org.db", "ada", "phone=1"]).manager == nil)
    }

    @Test func managerWithOtherFieldsOrOnAnAddIsRefused() {
        for arguments in [["org.db", "ada", "manager=g", "phone=1"], ["org.db", "ada", "manager=g", "manager=h"]] {
            #expect(throws: Options.UsageError(message: "manager= is saved on its own: give the other fields in another update")) {
                try EditCommand.parse(.update, arguments)
            }
        }
        #expect(throws: Options.UsageError.self) { try EditCommand.parse(.add, ["org.db", "name=Ada Lovelace", "manager=g"]) }
    }
}
