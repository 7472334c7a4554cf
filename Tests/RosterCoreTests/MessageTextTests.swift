import Testing
@testable import RosterCore

@Suite("Messages: the reason first, the target shortened")
struct MessageTextTests {
    static let connection = "postgres://postgres@:54800/staff?host=/srv/pg/run"

    @Test("a target is shortened from its middle: its start, then its telling end (a path's last part, a connection's database)")
    func shortenedFromTheMiddle() {
        #expect(MessageText.shortened("/home/ann/projects/data/people.json", columns: 80) == "/home/ann/projects/data/people.json")
        #expect(MessageText.shortened("/home/ann/projects/data/people.json", columns: 23) == "/home/ann/…/people.json")
        #expect(MessageText.shortened(Self.connection, columns: 27) == "postgres://postgres@…/staff")
        #expect(MessageText.shortened(Self.connection, columns: 7) == "…/staff")
        #expect(MessageText.shortened(Self.connection, columns: 4) == "…aff")
        #expect(MessageText.shortened(Self.connection, columns: 1) == "…")
        #expect(MessageText.shortened(Self.connection, columns: 0) == "")
        // The database and its start fit: the settings after it go.
        #expect(MessageText.shortened(Self.connection, columns: 40) == "postgres://postgres@:54800/staff?host=/…")
        // A bare name keeps its start and its end.
        #expect(MessageText.shortened("a-very-long-file-name-for-people.json", columns: 15) == "a-very-…le.json")
        for columns in 1...60 {
            #expect(DisplayText.width(MessageText.shortened(Self.connection, columns: columns)) <= columns)
        }
    }

    @Test("a message that leads with its target says its reason first and the target last")
    func reasonFirst() {
        #expect(MessageText.reasonFirst("not saved: people.json: no record has _id 7; nothing written", target: "people.json")
            == "not saved: no record has _id 7; nothing written — people.json")
        #expect(MessageText.reasonFirst("people.json, line 3, column 4: a quote never closes", target: "people.json")
            == "line 3, column 4: a quote never closes — people.json")
        #expect(MessageText.reasonFirst("saved to people.json", target: "people.json") == "saved to people.json")
        #expect(MessageText.reasonFirst("nothing saved", target: "") == "nothing saved")
        #expect(MessageText.reason("staff: connection lost", target: "staff") == "connection lost")
    }

    @Test("fitting a message shortens its target before its reason; a reason that fits beside the place is said whole")
    func fitting() {
        let message = "changed, but could not be read again: connection lost; the list shows it as it was — \(Self.connection)"
        let fitted = MessageText.fit(message, columns: 100, target: Self.connection)
        #expect(fitted == "changed, but could not be read again: connection lost; the list shows it as it was — postgres…/staff")
        #expect(DisplayText.width(fitted) == 100)
        #expect(MessageText.fits(message, columns: 100, target: Self.connection))
        #expect(!MessageText.fits(message, columns: 60, target: Self.connection))
        #expect(MessageText.fit(message, columns: 60, target: Self.connection).hasPrefix("changed, but could not be read again: connection lost; the"))
    }

    @Test("people are named as many as fit, the rest counted, and never nobody")
    func peopleNames() {
        let names = ["Ada Lovelace", "Bob Smith", "Grace Hopper"]
        #expect(PeopleNames.list(names, columns: 80) == "Ada Lovelace, Bob Smith and Grace Hopper")
        #expect(PeopleNames.list(names, columns: 35) == "Ada Lovelace, Bob Smith and 1 more")
        #expect(PeopleNames.list(names, columns: 25) == "Ada Lovelace and 2 more")
        #expect(PeopleNames.list(names, columns: 12) == "Ada… and 2 more" || DisplayText.width(PeopleNames.list(names, columns: 12)) <= 16)
        #expect(PeopleNames.list(Array(repeating: "Ada Lovelace", count: 100_000), columns: 40) == "Ada Lovelace and 99,999 more")
        let question = DeletionQuestion(names: names)
        #expect(question.text(columns: 78) == "Delete 3 people: Ada Lovelace, Bob Smith and Grace Hopper? (y/n)")
        #expect(question.text(columns: 58) == "Delete 3 people: Ada Lovelace, Bob Smith and 1 more? (y/n)")
        #expect(DeletionQuestion(names: ["Ada Lovelace"]).text(columns: 40) == "Delete Ada Lovelace? (y/n)")
    }

    @Test("the names a mistyped one most likely meant: near enough, and never a guess from a word half wrong")
    func didYouMean() {
        let fields = [["phone"], ["email"], ["age"], ["balance"], ["first", "firstname"]]
        #expect(EditDistance.nearest(to: "phnoe", among: fields) == "phone")
        #expect(EditDistance.nearest(to: "balanc", among: fields) == "balance")
        #expect(EditDistance.nearest(to: "FIRSTNAM", among: fields) == "first")
        #expect(EditDistance.nearest(to: "agee", among: fields) == "age")
        #expect(EditDistance.nearest(to: "shoe", among: fields) == nil, "two edits of four letters is another word")
        #expect(EditDistance.nearest(to: "colour", among: fields) == nil)
    }
}
