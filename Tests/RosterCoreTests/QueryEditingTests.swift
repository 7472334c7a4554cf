import Testing
@testable import RosterCore

@Suite("Editing a query's text")
struct QueryEditingTests {
    @Test("a term comes out wherever it stands, however it is spaced or quoted; the rest stays as typed")
    func removingLast() {
        #expect(QueryEditing.removingLast(#"state="Kansas""#, from: #"state="Kansas" -age>40"#) == "-age>40")
        #expect(QueryEditing.removingLast(#"state="Kansas""#, from: #"state="Kansas"  -age>40"#) == "-age>40")
        #expect(QueryEditing.removingLast(#"state="Kansas""#, from: #"state="Kansas"-age>40"#) == "-age>40")
        #expect(QueryEditing.removingLast(#"state="Kansas""#, from: #"acme state=Kansas  age<30"#) == "acme age<30")
        #expect(QueryEditing.removingLast(#"state="Kansas""#, from: #"state="Kansas""#) == "")
        #expect(QueryEditing.removingLast("age:30-39", from: "age:30-39 age:30-39 x") == "age:30-39 x")  // the last only
        #expect(QueryEditing.removingLast("city=", from: "cohen city=") == "cohen")
    }

    @Test("no such term, or no query: nothing to remove")
    func removingNothing() {
        #expect(QueryEditing.removingLast(#"state="Kansas""#, from: "-age>40") == nil)
        #expect(QueryEditing.removingLast(#"state="Kansas""#, from: #"-state="Kansas""#) == nil)
        #expect(QueryEditing.removingLast(#"state="Kansas""#, from: #"state="Arkansas""#) == nil)
        #expect(QueryEditing.removingLast(#"state="Kansas""#, from: #"state="Kansas" age>x"#) == nil)
    }

    @Test("the prompt opens with a space after a finished field term or phrase, not after a word being refined")
    func promptText() {
        #expect(QueryEditing.promptText(editing: #"state="Kansas""#) == #"state="Kansas" "#)
        #expect(QueryEditing.promptText(editing: "state=Kansas") == "state=Kansas ")
        #expect(QueryEditing.promptText(editing: "eye:blue") == "eye:blue ")
        #expect(QueryEditing.promptText(editing: "city=") == "city= ")
        #expect(QueryEditing.promptText(editing: "acme age:30-39") == "acme age:30-39 ")
        #expect(QueryEditing.promptText(editing: #""two words""#) == #""two words" "#)
        #expect(QueryEditing.promptText(editing: "cohe") == "cohe")
        #expect(QueryEditing.promptText(editing: "age>40 cohe") == "age>40 cohe")
        #expect(QueryEditing.promptText(editing: #"company:"two wo"#) == #"company:"two wo"#)  // a phrase still open
        #expect(QueryEditing.promptText(editing: "eye:blue ") == "eye:blue ")
        #expect(QueryEditing.promptText(editing: "") == "")
        #expect(QueryEditing.promptText(editing: "age>x") == "age>x")  // not a query
    }
}
