// Compiled into the fuzzers too, where RosterCore's sources are part of the
// same module (`make fuzz` passes -D ROSTER_FUZZ).
#if !ROSTER_FUZZ
import RosterCore
import RosterStore
#endif

/// The writers' fuzzing property, shared by `make fuzz` (Tests/Fuzz) and
/// the replay of its kept inputs in the tests: a person made from arbitrary
/// bytes must survive every export format.
public enum FuzzedPerson {
    /// A person whose text fields are `bytes` split at NUL bytes.
    public static func person(from bytes: [UInt8]) -> Person {
        var parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        while parts.count < 9 { parts.append("") }
        return Person(id: parts[0], balance: Balance(text: parts[1]), firstName: parts[2], lastName: parts[3], company: parts[4],
                      email: parts[5], phone: parts[6], address: parts[7], favoriteFruit: parts[8])
    }

    /// Why `person` did not survive an export, or nil when it did.
    public static func roundTripProblem(_ person: Person) -> String? {
        for neutralises in [false, true] {
            let exporter = DirectoryExporter(format: .csv, options: ExportOptions(neutralisesFormulas: neutralises))
            let text = String(decoding: exporter.export([person]), as: UTF8.self)
            guard let records = try? CSVRecords.parse(text), records.count == 2, records[1].count == DirectoryExporter.csvHeader.count
            else { return "CSV does not read back as one record" }
            let fields = records[1]
            let expected = [person.firstName, person.lastName, person.company, person.email]
            for (field, original) in zip(fields, expected) {
                // Quotes before a formula character get one more (`'=x` → `''=x`).
                // A phone number or an amount is no formula, unless quotes come first.
                let unquoted = original.drop { $0 == "'" }
                let startsFormula = unquoted.unicodeScalars.first.map { SpreadsheetCell.formulaStarts.contains($0) } == true
                    && (unquoted.count < original.count || SpreadsheetCell.wouldRun(unquoted))
                let written = neutralises && startsFormula ? "'" + original : original
                if field != written { return "CSV changed \(original.debugDescription) to \(field.debugDescription)" }
            }
        }
        let json = String(decoding: DirectoryExporter(format: .json).export([person]), as: UTF8.self)
        guard let loaded = try? PeopleLoader().load(bytes: Array(json.utf8), sourceName: "fuzz") else { return "JSON does not load" }
        if loaded.store.count == 1, loaded.store[0].email != person.email { return "JSON changed the email" }
        let card = String(decoding: DirectoryExporter(format: .vcard).export([person]), as: UTF8.self)
        for line in card.components(separatedBy: "\r\n").dropLast() {
            if line.utf8.count > 75 { return "a vCard line is over 75 octets" }
            if line.contains("\n") || line.contains("\r") { return "a bare line break inside a vCard line" }
        }
        return nil
    }
}
