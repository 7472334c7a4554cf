import Testing
@testable import RosterTUI

@Suite("Escape delay")
struct EscapeDelayTests {
    @Test("a lone Esc acts within 25 ms, not ncurses' default second")
    func short() {
        #expect(escapeDelay(userSetting: nil) == 25)
    }

    @Test("the user's ESCDELAY is left alone")
    func userSetting() {
        #expect(escapeDelay(userSetting: "300") == nil)
        #expect(escapeDelay(userSetting: "") == nil)
    }
}
