import Foundation
import RosterCore
import RosterStore

/// Builds directories for tests from JSON text or from people.
public enum Fixtures {
    /// Loads `json` as the app would load a file named `name`.
    public static func directory(json: String, name: String = "test.json") throws -> LoadedDirectory {
        try PeopleLoader().load(bytes: Array(json.utf8), sourceName: name)
    }

    /// `json` loaded into an in-memory repository, and everyone arranged
    /// the list's default way.
    public static func repository(json: String, name: String = "test.json") throws
        -> (repository: InMemoryPeopleRepository, everyone: PeopleArrangement) {
        let repository = InMemoryPeopleRepository(try directory(json: json, name: name))
        return (repository, repository.arrange(sort: .byLastName, byCompany: true, company: nil))
    }

    /// One record in the seed's shape; pass nil to leave a field out.
    public static func record(
        first: String? = "Ada", last: String? = "Lovelace", company: String? = "ACME",
        email: String? = "ada@acme.test", balance: String? = "$1,000.00", index: Int = 0,
        extra: String = ""
    ) -> String {
        var fields: [String] = ["\"_id\": \"id\(index)\"", "\"index\": \(index)"]
        var name: [String] = []
        if let first { name.append("\"first\": \(quoted(first))") }
        if let last { name.append("\"last\": \(quoted(last))") }
        fields.append("\"name\": {\(name.joined(separator: ", "))}")
        if let company { fields.append("\"company\": \(quoted(company))") }
        if let email { fields.append("\"email\": \(quoted(email))") }
        if let balance { fields.append("\"balance\": \(quoted(balance))") }
        if !extra.isEmpty { fields.append(extra) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A JSON array of `records`, one per line.
    public static func array(_ records: [String]) -> String {
        "[\n" + records.joined(separator: ",\n") + "\n]\n"
    }

    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }

    /// A directory of people given as (first, last, company) triples.
    public static func directory(people: [(String, String, String)]) throws -> LoadedDirectory {
        let records = people.enumerated().map { index, person in
            record(first: person.0, last: person.1, company: person.2, index: index)
        }
        return try directory(json: array(records))
    }

    /// The seed app's six people, embedded so tests never need ../shared.
    public static let seedJSON = """
    [{"_id":"58f9a19680685a4e1e6d5016","index":0,"guid":"0b10fe86-a222-4ca5-a094-0082b7d4c1af","isActive":false,"balance":"$2,107.15","picture":"http://placehold.it/32x32","age":35,"eyeColor":"green","name":{"first":"Bertha","last":"Irwin"},"company":"COMSTAR","email":"bertha.irwin@comstar.net","phone":"+1 (806) 584-3949","address":"303 Vermont Street, Concho, Arizona, 1707","favoriteFruit":"banana"},
     {"_id":"58f9a196c020af14f6726d3a","index":1,"guid":"d1695e0f-2d05-465e-8e14-eca9ad64c426","isActive":false,"balance":"$1,194.79","picture":"http://placehold.it/32x32","age":30,"eyeColor":"green","name":{"first":"Norton","last":"Curtis"},"company":"RECRISYS","email":"norton.curtis@recrisys.tv","phone":"+1 (850) 571-3013","address":"106 Bliss Terrace, Vandiver, Mississippi, 9292","favoriteFruit":"strawberry"},
     {"_id":"58f9a196d46f3d10560759bd","index":2,"guid":"bf810ee3-3bc4-44e0-8056-3ac3815d2887","isActive":true,"balance":"$2,259.39","picture":"http://placehold.it/32x32","age":38,"eyeColor":"brown","name":{"first":"Zamora","last":"Weber"},"company":"PERMADYNE","email":"zamora.weber@permadyne.co.uk","phone":"+1 (929) 591-2437","address":"787 Crystal Street, Williston, Wisconsin, 6408","favoriteFruit":"strawberry"},
     {"_id":"58f9a196fe6014ff5fd07cb5","index":3,"guid":"e5cfcd2e-2911-4293-9a0f-3a53374ea1d9","isActive":true,"balance":"$3,019.42","picture":"http://placehold.it/32x32","age":25,"eyeColor":"blue","name":{"first":"Barnes","last":"Pickett"},"company":"RECRISYS","email":"barnes.pickett@RECRISYS.info","phone":"+1 (804) 532-3235","address":"500 Milton Street, Nadine, Kansas, 8781","favoriteFruit":"apple"},
     {"_id":"58f9a196361f66d65c9b39f8","index":4,"guid":"80ca8651-5edf-4d11-bb09-688f654ff3ad","isActive":true,"balance":"$3,334.51","picture":"http://placehold.it/32x32","age":33,"eyeColor":"brown","name":{"first":"Cohen","last":"James"},"company":"COMSTAR","email":"cohen.james@comvene.name","phone":"+1 (953) 454-3801","address":"230 Lefferts Avenue, Navarre, Tennessee, 3443","favoriteFruit":"strawberry"},
     {"_id":"58f9a19607f1cc3aafc21c5b","index":5,"guid":"df311b09-081c-4a31-b30f-a87700728244","isActive":false,"balance":"$2,046.56","picture":"http://placehold.it/32x32","age":32,"eyeColor":"green","name":{"first":"Vanessa","last":"Sanchez"},"company":"COMSTAR","email":"vanessa.sanchez@magmina.biz","phone":"+1 (877) 430-2487","address":"665 Norfolk Street, Bawcomville, Kentucky, 8056","favoriteFruit":"banana"}]
    """
}

extension LoadedDirectory {
    /// This directory as the app sees it: in an in-memory repository.
    public var repository: InMemoryPeopleRepository { InMemoryPeopleRepository(self) }
    /// Everyone, in the list's first order (by company, then last name).
    public var everyone: PeopleArrangement { repository.arrange(sort: .byLastName, byCompany: true, company: nil) }
}
