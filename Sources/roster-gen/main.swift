// roster-gen: writes a deterministic people directory in the seed's shape.
//
//     roster-gen --people 400 --seed 1 > Resources/people.json
//
//     roster-gen --people 100000 --seed 42 --format vcf > people.vcf
//
// `--format vcf` writes the same people as vCard 4.0 cards (for the
// format benchmarks). The same arguments always give the same bytes, so the bundled data can be
// regenerated and the benchmarks' 10k/100k/1M files need not be committed.
// Companies follow a Zipf-like spread (a few large, many tiny), some names
// carry accents, CJK or emoji, and a few people have no company.
//
//     roster-gen --people 1000000 --seed 1 --managers id > org.json
//
// --managers id|email|name adds a hierarchy: every person but the first gets
// a "manager" key naming an earlier person by their _id, email or full name
// (a name or an email several people share is ambiguous, as in real data).
// Each manager has 2 to 12 reports (7 on average), so a million people are
// 8 levels deep. The hierarchy draws from its own generator: without the
// option, and apart from the "manager" lines with it, the bytes are the same.
// With --format vcf the manager is a card's RELATED;TYPE=manager, as Roster
// reads it: the manager's UID (urn:uuid:…), a mailto: URI of their email, or
// their full name as text (RELATED;TYPE=manager;VALUE=text:…).
#if canImport(Glibc)
import Glibc
#endif

/// SplitMix64: tiny, fast, and identical on every platform.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A name as shown, and the ASCII it becomes in an email address.
typealias Name = (shown: String, ascii: String)

let firstNames: [Name] = [
    "Bertha", "Norton", "Zamora", "Barnes", "Vanessa", "Lorene", "Alice", "Oscar", "Marisol", "Kent",
    "Hattie", "Duncan", "Imelda", "Brock", "Celia", "Dorsey", "Esther", "Frank", "Gale", "Holly",
    "Ivan", "Janine", "Kirk", "Lydia", "Manuel", "Nell", "Orr", "Patrice", "Quinn", "Rosa",
    "Sheppard", "Tammy", "Ulla", "Vince", "Wanda", "Xavier", "Yolanda", "Zachary", "Agnes", "Boyd",
].map { ($0, $0.lowercased()) } + [
    ("José", "jose"), ("Zoë", "zoe"), ("Renée", "renee"), ("Ågot", "agot"), ("Łukasz", "lukasz"),
    ("Søren", "soren"), ("Chloé", "chloe"), ("İlkay", "ilkay"), ("芳", "fang"), ("娜", "na"),
    ("Sunny ☀️", "sunny"), ("Ada 🚀", "ada"),
]

let lastNames: [Name] = [
    "Irwin", "Curtis", "Weber", "Pickett", "Sanchez", "Mcdowell", "Holloway", "Bray", "Cobb", "Dale",
    "Estes", "Fry", "Gould", "Hess", "Ingram", "Joyner", "Kline", "Lott", "Mays", "Noble",
    "Oneal", "Pace", "Quick", "Rowe", "Sharp", "Tate", "Underwood", "Vega", "Wall", "York",
    "abbott", "Baxter", "Carver", "Dillon", "Ewing", "Finch", "Garza", "Hurst", "Jarvis", "Kemp",
].map { ($0, $0.lowercased()) } + [
    ("Núñez", "nunez"), ("Ølberg", "olberg"), ("Èvora", "evora"), ("Đorđević", "djordjevic"),
    ("王", "wang"), ("李", "li"), ("佐藤", "sato"), ("Åström", "astrom"),
]

let syllables = ["com", "star", "re", "cri", "sys", "per", "ma", "dyne", "zen", "tro", "nix", "qua",
                 "lux", "cor", "ex", "vo", "plex", "ult", "ra", "gen", "tek", "iso", "lo", "gy"]
let tlds = ["com", "net", "biz", "info", "tv", "io", "co.uk", "org"]
let streets = ["Vermont Street", "Bliss Terrace", "Crystal Street", "Milton Street", "Norfolk Street",
               "Lefferts Avenue", "Kingsway Place", "Harbor Lane", "Ocean Parkway", "Elm Court"]
let cities = ["Concho", "Vandiver", "Williston", "Nadine", "Bawcomville", "Navarre", "Riverton", "Oakdale",
              "Fairview", "Greenwood", "Malmö", "São Paulo"]
let states = ["Arizona", "Mississippi", "Wisconsin", "Kansas", "Kentucky", "Tennessee", "Oregon", "Maine"]
let eyeColors = ["green", "brown", "blue"]
let fruits = ["banana", "strawberry", "apple"]

@MainActor func argument(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count, let parsed = Int(arguments[at + 1]) else {
        return value
    }
    return parsed
}

@MainActor func textArgument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
    return arguments[at + 1]
}

/// What it takes; anything it does not know is refused, not ignored (a
/// mistyped option would write the default 400 people where 1M were meant).
let usage = """
    Usage: roster-gen [--people N] [--seed N] [--format json|vcf] [--managers id|email|name]
    Writes N people (400) drawn from the seed (1) to standard output: the
    same arguments, the same bytes.

    """
let known: Set = ["--people", "--seed", "--format", "--managers"]
var rest = CommandLine.arguments.dropFirst()
while let first = rest.first {
    if first == "--help" || first == "-h" {
        _ = write(1, usage, usage.utf8.count)
        exit(0)
    }
    guard known.contains(first), rest.count > 1 else {
        let message = "roster-gen: \(known.contains(first) ? "\(first) needs a value" : "no option '\(first)'")\n" + usage
        _ = write(2, message, message.utf8.count)
        exit(2)
    }
    rest = rest.dropFirst(2)
}

let peopleCount = argument("--people", default: 400)
var random = SeededGenerator(state: UInt64(argument("--seed", default: 1)))

/// How a person's manager is named: by "id", "email" or "name"; nil for no hierarchy.
let managerKind = textArgument("--managers")
if let managerKind, !["id", "email", "name"].contains(managerKind) {
    let message = Array("roster-gen: --managers takes id, email or name\n".utf8)
    _ = write(2, message, message.count)
    exit(2)
}

/// Hands out managers breadth first: the first person's reports come next,
/// then each of theirs in turn, each manager taking 2 to 12 reports.
struct Hierarchy {
    var random: SeededGenerator
    var manager = 0
    var reportsLeft = 0
    /// How each person so far is named by their reports.
    var references: [String] = []

    mutating func managerReference(of person: Int) -> String? {
        guard person > 0 else { return nil }
        if person == 1 || reportsLeft == 0 {
            if person > 1 { manager += 1 }
            reportsLeft = 2 + Int(random.next() % 11)
        }
        reportsLeft -= 1
        return references[manager]
    }
}
var hierarchy = Hierarchy(random: SeededGenerator(state: UInt64(argument("--seed", default: 1)) ^ 0x6D61_6E61_6765_7273))

@MainActor func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
@MainActor func hex(_ count: Int) -> String {
    String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &random)! })
}

// Companies: about one per 12 people (at least 8), sizes Zipf-like.
let companyCount = max(8, peopleCount / 12)
var companyNames: [String] = []
var seenCompanies = Set<String>()
while companyNames.count < companyCount {
    let parts = 2 + Int(random.next() % 2)
    var name = (0..<parts).map { _ in pick(syllables) }.joined().uppercased()
    if seenCompanies.contains(name) { name += String(companyNames.count) }
    seenCompanies.insert(name)
    companyNames.append(name)
}
var cumulativeWeights: [Double] = []
var totalWeight = 0.0
for rank in 1...companyCount {
    totalWeight += 1.0 / Double(rank)
    cumulativeWeights.append(totalWeight)
}
@MainActor func pickCompany() -> String {
    if random.next() % 50 == 0 { return "" }
    let target = Double(random.next() % 1_000_000) / 1_000_000 * totalWeight
    var low = 0, high = companyCount - 1
    while low < high {
        let middle = (low + high) / 2
        if cumulativeWeights[middle] < target { low = middle + 1 } else { high = middle }
    }
    return companyNames[low]
}

@MainActor func balance() -> String {
    let cents = 1000_00 + Int(random.next() % 3000_00)
    let dollars = cents / 100
    let fraction = cents % 100
    let thousands = dollars / 1000
    let rest = dollars % 1000
    let restText = rest < 10 ? "00\(rest)" : rest < 100 ? "0\(rest)" : "\(rest)"
    return "$\(thousands),\(restText).\(fraction < 10 ? "0" : "")\(fraction)"
}

@MainActor func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(random.next() % 10)) }) }

var output: [UInt8] = []
output.reserveCapacity(1 << 22)
@MainActor func flush() {
    output.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { exit(1) }
            offset += written
        }
    }
    output.removeAll(keepingCapacity: true)
}

let writesCards = CommandLine.arguments.contains("vcf")

/// A person as a vCard 4.0 card, lines ended with CRLF, as programs write them;
/// `related` is their manager's RELATED line, if any.
func card(first: String, last: String, company: String, email: String, phone: String, address: String, id: String, age: UInt64,
          related: String?) -> String {
    let parts = address.split(separator: ",", omittingEmptySubsequences: false).map { String($0.drop { $0 == " " }) }
    return ["BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:\(id)", "FN:\(first) \(last)", "N:\(last);\(first);;;",
            company.isEmpty ? nil : "ORG:\(company)", "EMAIL;TYPE=work;PREF=1:\(email)", "TEL;TYPE=cell:\(phone)",
            "ADR;TYPE=home:;;\(parts[0]);\(parts[1]);\(parts[2]);\(parts[3]);", "BDAY:--0\(1 + age % 9)1\(age % 10)",
            "CATEGORIES:directory,\(company.isEmpty ? "none" : "staff")", related, "END:VCARD"].compactMap { $0 }.joined(separator: "\r\n") + "\r\n"
}

/// A card's RELATED naming its manager by `reference` (a URI as it is, a
/// name as text with RFC 6350's escapes).
func relatedLine(_ reference: String, isText: Bool) -> String {
    guard isText else { return "RELATED;TYPE=manager:" + reference }
    var escaped = ""
    for character in reference {
        if character == "\\" || character == "," || character == ";" { escaped.append("\\") }
        escaped.append(character)
    }
    return "RELATED;TYPE=manager;VALUE=text:" + escaped
}

if !writesCards { output.append(contentsOf: "[".utf8) }
for index in 0..<peopleCount {
    let first = pick(firstNames)
    let last = pick(lastNames)
    let company = pickCompany()
    let domain = company.isEmpty ? "example" : company.lowercased()
    let guid = "\(hex(8))-\(hex(4))-4\(hex(3))-\(pick(["8", "9", "a", "b"]))\(hex(3))-\(hex(12))"
    // Drawn in the order the record lists them, as they always were.
    let id = hex(24)
    let isActive = random.next() % 2 == 0
    let balanceText = balance()
    let age = 20 + random.next() % 45
    let eyeColor = pick(eyeColors)
    let email = "\(first.ascii).\(last.ascii)@\(domain).\(pick(tlds))"
    let phone = "+1 (\(digits(3))) \(digits(3))-\(digits(4))"
    let address = "\(100 + random.next() % 900) \(pick(streets)), \(pick(cities)), \(pick(states)), \(digits(4))"
    let fruit = pick(fruits)
    var managerLine = ""
    var relatedManager: String?
    if let managerKind {
        if let reference = hierarchy.managerReference(of: index) {
            managerLine = ",\n  \"manager\": \"\(reference)\""
            relatedManager = relatedLine(reference, isText: managerKind == "name")
        }
        // A card's id is its UID; an email is a URI as mailto:.
        let own: String
        switch managerKind {
        case "id": own = writesCards ? "urn:uuid:\(guid)" : id
        case "email": own = writesCards ? "mailto:\(email)" : email
        default: own = "\(first.shown) \(last.shown)"
        }
        hierarchy.references.append(own)
    }
    if writesCards {
        output.append(contentsOf: card(first: first.shown, last: last.shown, company: company, email: email, phone: phone, address: address,
                                       id: guid, age: age, related: relatedManager).utf8)
        if output.count > 1 << 21 { flush() }
        continue
    }
    let record = """
    \(index == 0 ? "" : ",\n "){
      "_id": "\(id)",
      "index": \(index),
      "guid": "\(guid)",
      "isActive": \(isActive),
      "balance": "\(balanceText)",
      "picture": "http://placehold.it/32x32",
      "age": \(age),
      "eyeColor": "\(eyeColor)",
      "name": {
       "first": "\(first.shown)",
       "last": "\(last.shown)"
      },
      "company": "\(company)",
      "email": "\(email)",
      "phone": "\(phone)",
      "address": "\(address)",
      "favoriteFruit": "\(fruit)"\(managerLine)
     }
    """
    output.append(contentsOf: record.utf8)
    if output.count > 1 << 21 { flush() }
}
if !writesCards { output.append(contentsOf: "\n]\n".utf8) }
flush()
