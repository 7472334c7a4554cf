import Testing
@testable import RosterCore
@testable import RosterStore

@Suite("Query parser")
struct QueryParserTests {
    static func conditions(_ text: String) throws -> [QueryCondition] {
        try QueryParser.parse(text).terms.map(\.condition)
    }

    static func error(_ text: String) -> QueryError? {
        do {
            _ = try QueryParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("plain terms, all of which must match, with their places")
    func plainTerms() throws {
        let query = try QueryParser.parse("  abbott   beta ")
        #expect(query.terms == [QueryTerm(.text(.anywhere, "abbott"), range: 2..<8), QueryTerm(.text(.anywhere, "beta"), range: 11..<15)])
        #expect(try QueryParser.parse("").terms.isEmpty)
        #expect(try QueryParser.parse("   ").terms.isEmpty)
    }

    @Test("at most 256 terms: the 257th is the error, at its place, whatever kind it is")
    func termLimit() throws {
        let terms = (0..<256).map { $0 % 2 == 0 ? "w\($0)" : "-company:c\($0)" }
        #expect(try QueryParser.parse(terms.joined(separator: " ")).terms.count == 256)
        let text = (terms + ["-age>3", "more"]).joined(separator: " ")
        let error = try #require(Self.error(text))
        #expect(error.message == "a search holds at most 256 terms")
        #expect(String(Array(text)[error.range]) == "-age>3")
        #expect(error.describe(in: text).hasPrefix("'-age>3' (column "))
    }

    @Test("every text field, with aliases, names ignoring case")
    func textFields() throws {
        let expected: [(String, TextScope)] = [
            ("name", .name), ("first", .firstName), ("firstname", .firstName), ("last", .lastName), ("lastName", .lastName),
            ("company", .company), ("COMPANY", .company), ("email", .email), ("phone", .phone), ("address", .address),
            ("street", .street), ("city", .city), ("state", .state), ("zip", .zip), ("eye", .text(.eyeColor)), ("eyeColor", .text(.eyeColor)),
            ("fruit", .text(.favoriteFruit)), ("favoriteFruit", .text(.favoriteFruit)), ("id", .id), ("guid", .guid),
        ]
        for (name, scope) in expected {
            #expect(try Self.conditions("\(name):Acme") == [.text(scope, "Acme")], "\(name)")
        }
        #expect(try Self.conditions("email:@acme.") == [.text(.email, "@acme.")])
    }

    @Test("phrases, alone and as a field's value; an open quote runs to the end")
    func phrases() throws {
        #expect(try Self.conditions("\"two words\" x") == [.text(.anywhere, "two words"), .text(.anywhere, "x")])
        #expect(try Self.conditions("company:\"two words\"") == [.text(.company, "two words")])
        #expect(try Self.conditions("\"two wo") == [.text(.anywhere, "two wo")])
        #expect(try Self.conditions("\"\" a") == [.text(.anywhere, "a")])
        #expect(try QueryParser.parse("x \"a b\"").terms[1].range == 2..<7)
    }

    @Test("a word that does not start with a field name is text")
    func textWithColons() throws {
        #expect(try Self.conditions("10:30") == [.text(.anywhere, "10:30")])
        #expect(try Self.conditions("@acme.") == [.text(.anywhere, "@acme.")])
        #expect(try Self.conditions("\"foo:bar\"") == [.text(.anywhere, "foo:bar")])
        #expect(try Self.conditions("é:x") == [.text(.anywhere, "é:x")])
    }

    @Test("negation, of text, fields and numbers; a lone - asks nothing")
    func negation() throws {
        let query = try QueryParser.parse("-term -company:acme -age>40 -")
        #expect(query.terms.map(\.isNegated) == [true, true, true])
        #expect(query.terms.map(\.condition) == [.text(.anywhere, "term"), .text(.company, "acme"), .number(.age, .greater(40))])
        #expect(query.terms[1].range == 6..<19)
        #expect(try Self.conditions("-\"two words\"") == [.text(.anywhere, "two words")])
    }

    @Test("age: comparisons, equality and ranges")
    func age() throws {
        #expect(try Self.conditions("age>40") == [.number(.age, .greater(40))])
        #expect(try Self.conditions("age>=40") == [.number(.age, .greaterOrEqual(40))])
        #expect(try Self.conditions("age<25") == [.number(.age, .less(25))])
        #expect(try Self.conditions("age<=25") == [.number(.age, .lessOrEqual(25))])
        #expect(try Self.conditions("age=33 AGE:33") == [.number(.age, .equal(33)), .number(.age, .equal(33))])
        #expect(try Self.conditions("age:30-39 age:30..39") == [.number(.age, .between(30, 39)), .number(.age, .between(30, 39))])
    }

    @Test("balance in exact cents, in the file's own notation")
    func balance() throws {
        #expect(try Self.conditions("balance>2500") == [.number(.balance, .greater(250_000))])
        #expect(try Self.conditions("balance<$1,000.50") == [.number(.balance, .less(100_050))])
        #expect(try Self.conditions("balance:1000-2000.5") == [.number(.balance, .between(100_000, 200_050))])
        #expect(try Self.conditions("balance<-12") == [.number(.balance, .less(-1200))])
        #expect(try Self.conditions("balance:-$5..-$1") == [.number(.balance, .between(-500, -100))])
        #expect(try Self.conditions("balance:-5-10") == [.number(.balance, .between(-500, 1000))])
    }

    @Test("active: yes, no, true, false")
    func active() throws {
        #expect(try Self.conditions("active:yes active:NO active=true isActive:false active:y")
                == [.active(true), .active(false), .active(true), .active(false), .active(true)])
    }

    @Test("bounds are exact over whole numbers")
    func bounds() {
        #expect(NumberComparison.greater(40).bounds == 41...Int64.max)
        #expect(NumberComparison.less(25).bounds == Int64.min...24)
        #expect(NumberComparison.between(30, 39).bounds == 30...39)
        #expect(NumberComparison.equal(7).bounds == 7...7)
    }

    @Test("errors say what is wrong and where (in characters)")
    func errors() {
        #expect(Self.error("abc agee>3")?.range == 4..<8)
        #expect(Self.error("abc agee>3")?.message.hasPrefix("unknown field 'agee'") == true)
        #expect(Self.error("age>x") == QueryError("age is a whole number of years, not 'x'", at: 4..<5))
        #expect(Self.error("age>40.5")?.range == 4..<8)
        #expect(Self.error("age>-3")?.message == "age is a whole number of years, not '-3'")
        #expect(Self.error("balance>abc") == QueryError("balance is an amount like 2500 or $1,000.50, not 'abc'", at: 8..<11))
        #expect(Self.error("balance>$1.234")?.range == 8..<14)
        #expect(Self.error("balance>99999999999999999999")?.message.contains("too large") == true)
        #expect(Self.error("age:39-30")?.message.contains("empty range") == true)
        #expect(Self.error("x company:") == QueryError("company: needs a value (company= finds people without one)", at: 2..<10))
        #expect(Self.error("age>") == QueryError("age> needs a value", at: 0..<4))
        #expect(Self.error("company>3")?.range == 7..<8)
        #expect(Self.error("active:maybe") == QueryError("active takes yes or no (or true, false), not 'maybe'", at: 7..<12))
        #expect(Self.error("active>1")?.range == 6..<7)
        #expect(Self.error("é x agee:1")?.range == 4..<8)
        #expect(Self.error("-foo:bar")?.range == 1..<4)
    }

    @Test("field=value is the whole value, for every text field and alias; negated; quoted; as typed")
    func exactTerms() throws {
        for (names, field) in QueryParser.fieldNames {
            guard case .text(let scope) = field else { continue }
            for name in names + [names[0].uppercased()] {
                #expect(try Self.conditions("\(name)=Kansas") == [.exact(scope, "Kansas")], "\(name)")
            }
        }
        #expect(try Self.conditions("city=\"New York\" x") == [.exact(.city, "New York"), .text(.anywhere, "x")])
        #expect(try Self.conditions("city=\"New Yo") == [.exact(.city, "New Yo")])
        #expect(try Self.conditions("eye=a=b") == [.exact(.text(.eyeColor), "a=b")])
        #expect(try Self.conditions("city=O\"Hare") == [.exact(.city, "O\"Hare")])
        let query = try QueryParser.parse("a -eye=blue")
        #expect(query.terms[1] == QueryTerm(.exact(.text(.eyeColor), "blue"), isNegated: true, range: 2..<11))
        // Numbers and activity keep their meaning of = .
        #expect(try Self.conditions("age=33 active=no") == [.number(.age, .equal(33)), .active(false)])
    }

    @Test("field= (or field=\"\") with nothing is 'has no value', for every field; field: with nothing stays an error")
    func noValueTerms() throws {
        #expect(try Self.conditions("city= eye=\"\" company=") == [.exact(.city, ""), .exact(.text(.eyeColor), ""), .exact(.company, "")])
        #expect(try Self.conditions("age= balance= active= isactive=\"\"")
                == [.unrecorded(.age), .unrecorded(.balance), .unrecorded(.active), .unrecorded(.active)])
        let query = try QueryParser.parse("-city= x")
        #expect(query.terms[0] == QueryTerm(.exact(.city, ""), isNegated: true, range: 0..<6))
        #expect(query.terms[1].condition == .text(.anywhere, "x"))
        #expect(try QueryParser.parse("state=").terms[0].range == 0..<6)
        #expect(try QueryParser.parse("state=\"\"").terms[0].range == 0..<8)
        #expect(Self.error("city:") == QueryError("city: needs a value (city= finds people without one)", at: 0..<5))
        #expect(Self.error("age<") == QueryError("age< needs a value", at: 0..<4))
    }

    @Test("errors for = say where: unknown fields, bad numbers, < and > on text")
    func exactErrors() {
        #expect(Self.error("x stat=Kansas") == QueryError("unknown field 'stat': did you mean state? (fields: \(QueryParser.fieldList))", at: 2..<6))
        #expect(Self.error("age=abc") == QueryError("age is a whole number of years, not 'abc'", at: 4..<7))
        #expect(Self.error("active=maybe")?.range == 7..<12)
        let less = Self.error("ab city<x")
        #expect(less?.range == 7..<8)
        #expect(less?.message == "city is text: write city:x (contains) or city=x (whole value)")
        #expect(Self.error("-eye>=blue")?.range == 4..<6)
    }

    @Test("the field names, made from the table of fields, keep the order help and messages show them in; aliases read alike")
    func fieldNamesFromTheTable() throws {
        #expect(QueryParser.fieldList
            == "name, first, last, company, email, phone, address, street, city, state, zip, eye, fruit, id, guid, age, balance, active, reports-to, under, depth")
        #expect(try Self.conditions("favoritefruit:apple") == Self.conditions("fruit:apple"))
        #expect(try Self.conditions("fruit:apple") == [.text(.text(.favoriteFruit), "apple")])
        #expect(try Self.conditions("firstname=Ada") == [.exact(.firstName, "Ada")])
        // As --sort spells them, and in British English.
        #expect(try Self.conditions("eye-color:blue eye_color=blue eyecolour:blue favourite_fruit:fig") == [
            .text(.text(.eyeColor), "blue"), .exact(.text(.eyeColor), "blue"), .text(.text(.eyeColor), "blue"),
            .text(.text(.favoriteFruit), "fig"),
        ])
        #expect(try Self.conditions("x-ray well_known") == [.text(.anywhere, "x-ray"), .text(.anywhere, "well_known")])
    }

    @Test("a mistyped field name says which one it likely meant, before the list; none when nothing is close")
    func nearestFieldName() {
        #expect(Self.error("agee:3")?.message.hasPrefix("unknown field 'agee': did you mean age? (fields: name,") == true)
        #expect(Self.error("emial:x")?.message.hasPrefix("unknown field 'emial': did you mean email?") == true)
        #expect(Self.error("compnay:x")?.message.hasPrefix("unknown field 'compnay': did you mean company?") == true)
        #expect(Self.error("xy:1")?.message.hasPrefix("unknown field 'xy' (fields:") == true)
        #expect(Self.error("shoesize:9")?.message.hasPrefix("unknown field 'shoesize' (fields:") == true)
        #expect(EditDistance.between(Array("abc"), Array("abc")) == 0)
        #expect(EditDistance.between(Array(""), Array("ab")) == 2)
        #expect(EditDistance.between(Array("ab"), Array("ba")) == 1)
        #expect(EditDistance.between(Array("kitten"), Array("sitting")) == 3)
    }

    @Test("every field named in the help")
    func grammarNamesFields() {
        let help = QueryGrammar.examples.map { $0.example + " " + $0.meaning }.joined(separator: " ")
        for (names, _) in QueryParser.fieldNames {
            #expect(help.contains(names[0]), "\(names[0])")
        }
    }
}
