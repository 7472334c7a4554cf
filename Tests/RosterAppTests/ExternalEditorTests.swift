import Testing
@testable import RosterApp

@Suite("v: the user's editor")
struct ExternalEditorTests {
    @Test("VISUAL, else EDITOR, else vi; a failure in the shell's words, saying where the editor came from")
    func choiceAndFailure() {
        let visual = ExternalEditor.choice(["VISUAL": "code --wait", "EDITOR": "nano"])
        #expect(visual == ExternalEditor.Choice(command: "code --wait", variable: "VISUAL"))
        #expect(visual.program == "code")
        let editor = ExternalEditor.choice(["VISUAL": "  ", "EDITOR": "nano"])
        #expect(ExternalEditor.failure(status: 127, of: editor) == "nano: command not found (from $EDITOR; set VISUAL or EDITOR)")
        #expect(ExternalEditor.failure(status: 126, of: visual) == "code: not executable (from $VISUAL; set VISUAL or EDITOR)")
        let none = ExternalEditor.choice([:])
        #expect(ExternalEditor.failure(status: 127, of: none) == "vi: command not found (neither VISUAL nor EDITOR is set, so vi; set one)")
        #expect(ExternalEditor.failure(status: 3, of: editor) == "nano exited with status 3; nothing saved")
        #expect(ExternalEditor.failure(status: 130, of: editor) == "nano was ended by signal 2; nothing saved")
        #expect(ExternalEditor.failure(status: -1, of: editor).hasPrefix("nano could not be started (from $EDITOR"))
    }
}
