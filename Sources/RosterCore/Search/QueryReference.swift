import Foundation

/// What a query means, written plainly over a `Person`: the reference
/// that the store's fast matcher (`PeopleSearch`) is tested against on
/// generated people, and the meaning a database translation must keep.
///
/// Folding, as the store folds: names and the company are folded with
/// `TextFolding` (as the loader keys them; the company trimmed); the other
/// text fields lowercase ASCII and drop the accents of Latin letters
/// (`LatinFolding`). The query's text is folded with `TextFolding`, but
/// for an exact term (`state=Kansas`) it is folded as the field is, so that
/// every value equals itself.
extension PeopleQuery {
    public func matches(_ person: Person) -> Bool {
        terms.allSatisfy { $0.matches(person) }
    }
}

extension QueryTerm {
    public func matches(_ person: Person) -> Bool {
        // Text that folds to nothing (zero-width characters) asks nothing,
        // excluded or not.
        if case .text(_, let text) = condition, TextFolding.foldedBytes(text).isEmpty { return true }
        return condition.matches(person) != isNegated
    }
}

extension QueryCondition {
    public func matches(_ person: Person) -> Bool {
        switch self {
        case .active(let wanted):
            return person.isActive == wanted
        case .org, .depth:
            // A person alone does not say where they stand: the source's
            // chart answers these (`SearchQuery.resolved(in:)`).
            return false
        case .unrecorded(.age):
            return person.age == nil
        case .unrecorded(.balance):
            return person.balance.cents == nil
        case .unrecorded(.active):
            return person.isActive == nil
        case .exact(let scope, let text):
            let wanted = QueryCondition.exactNeedle(text, in: scope)
            let scopes: [TextScope] = scope == .anywhere ? TextScope.bareTermScopes : [scope]
            return scopes.contains { QueryCondition.foldedValue(of: $0, in: person) == wanted }
        case .number(let field, let comparison):
            let value: Int64?
            switch field {
            case .age: value = person.age.map(Int64.init)
            case .balance: value = person.balance.cents
            }
            return value.map { comparison.bounds.contains($0) } ?? false
        case .text(let scope, let text):
            let needle = TextFolding.foldedBytes(text)
            if needle.isEmpty { return true }
            func has(_ field: String) -> Bool { QueryCondition.latinFolded(field).contains(needle) }
            func first() -> [UInt8] { TextFolding.foldedBytes(person.firstName) }
            func last() -> [UInt8] { TextFolding.foldedBytes(person.lastName) }
            func name() -> Bool { (first() + [UInt8(ascii: " ")] + last()).contains(needle) }
            func company() -> Bool {
                TextFolding.foldedBytes(person.company.trimmingCharacters(in: .whitespacesAndNewlines)).contains(needle)
            }
            func phoneDigits() -> Bool {
                guard let digits = QueryCondition.phoneDigits(of: text) else { return false }
                return person.phone.utf8.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.contains(digits)
            }
            func matches(_ scope: TextScope) -> Bool {
                switch scope {
                case .anywhere: return TextScope.bareTermScopes.contains(where: matches)
                case .name: return name()
                case .firstName: return first().contains(needle)
                case .lastName: return last().contains(needle)
                case .company: return company()
                case .phone: return has(person.phone) || phoneDigits()
                case .street: return has(QueryCondition.addressParts(person.address).street)
                case .city: return has(QueryCondition.addressParts(person.address).city)
                case .state: return has(QueryCondition.addressParts(person.address).state)
                case .zip: return has(QueryCondition.addressParts(person.address).zip)
                default: return scope.recordField.map { has(person.text($0)) } ?? false
                }
            }
            return matches(scope)
        }
    }

    /// An exact term's text folded as `scope`'s values are: `TextFolding`
    /// for names and the company (trimmed, as the loader keys it),
    /// `LatinFolding` for the rest.
    public static func exactNeedle(_ text: String, in scope: TextScope) -> [UInt8] {
        guard scope.foldsAsKey else { return latinFolded(text) }
        return TextFolding.foldedBytes(scope == .company ? text.trimmingCharacters(in: .whitespacesAndNewlines) : text)
    }

    /// A person's whole value of a field, folded as `exactNeedle` folds:
    /// what `field=value` compares (empty: no value). A name is its
    /// non-empty parts, first then last, with a space between.
    static func foldedValue(of scope: TextScope, in person: Person) -> [UInt8] {
        let parts = addressParts(person.address)
        switch scope {
        case .anywhere: return []
        case .name:
            let nameParts = [TextFolding.foldedBytes(person.firstName), TextFolding.foldedBytes(person.lastName)].filter { !$0.isEmpty }
            return Array(nameParts.joined(separator: [UInt8(ascii: " ")]))
        case .firstName: return TextFolding.foldedBytes(person.firstName)
        case .lastName: return TextFolding.foldedBytes(person.lastName)
        case .company: return exactNeedle(person.company, in: .company)
        case .street: return latinFolded(parts.street)
        case .city: return latinFolded(parts.city)
        case .state: return latinFolded(parts.state)
        case .zip: return latinFolded(parts.zip)
        default: return scope.recordField.map { latinFolded(person.text($0)) } ?? []
        }
    }

    /// The digits of a term made only of digits and phone punctuation
    /// (`+ ( ) - .` and spaces), when it has enough of them to mean a
    /// phone number; nil otherwise.
    public static func phoneDigits(of text: String) -> [UInt8]? {
        var digits: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(byte)
            case UInt8(ascii: "+"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: " "): continue
            default: return nil
            }
        }
        return digits.count >= phoneDigitsMinimum ? digits : nil
    }

    /// "303 Vermont Street, Concho, Arizona, 1707" → its parts' text.
    public static func addressParts(_ address: String) -> (street: String, city: String, state: String, zip: String) {
        (AddressPart.text(0, of: address), AddressPart.text(1, of: address), AddressPart.text(2, of: address),
         AddressPart.text(3, of: address))
    }

    public static func latinFolded(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        Array(text.utf8).withUnsafeBufferPointer { LatinFolding.fold($0, into: &output) }
        return output
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes.
    func contains(_ needle: [UInt8]) -> Bool {
        withUnsafeBufferPointer { haystack in needle.withUnsafeBufferPointer { ByteSearch.contains(haystack, $0) } }
    }
}
