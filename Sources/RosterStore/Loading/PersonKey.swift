import Foundation
#if !ROSTER_FUZZ
import RosterCore
#endif

/// The keys of a person record that the store keeps.
enum PersonKey: Equatable {
    case text(TextField)
    case index, age, isActive, name

    init(_ value: RecordValue) {
        switch value {
        case .text(let field): self = .text(field)
        case .index: self = .index
        case .isActive: self = .isActive
        case .age: self = .age
        case .name: self = .name
        }
    }

    /// Every key of a record, as bytes, from the table of fields, by length
    /// (at most three share one), so that a lookup compares few.
    static let known: [[(bytes: [UInt8], key: PersonKey)]] = {
        let keys = RecordValue.jsonOrder.map { (bytes: Array($0.jsonKey.utf8), key: PersonKey($0)) }
        var byLength = Array(repeating: [(bytes: [UInt8], key: PersonKey)](), count: (keys.map(\.bytes.count).max() ?? 0) + 1)
        for key in keys { byLength[key.bytes.count].append(key) }
        return byLength
    }()

    /// The key spelled by `bytes`; nil for one the store does not keep.
    /// (The parser tries the key it expects next first: this is asked for
    /// the others, in a file whose records list them in another order.)
    init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count < Self.known.count, let base = bytes.baseAddress,
              let found = Self.known[bytes.count].first(where: { known in
                  known.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, bytes.count) == 0 }
              })
        else { return nil }
        self = found.key
    }

    /// `first` or `last` inside `name`.
    static func nameField(_ bytes: UnsafeBufferPointer<UInt8>) -> TextField? {
        if bytes.count == 5, memcmp("first", bytes.baseAddress!, 5) == 0 { return .firstName }
        if bytes.count == 4, memcmp("last", bytes.baseAddress!, 4) == 0 { return .lastName }
        return nil
    }

    var name: String {
        switch self {
        case .text(let field):
            switch field {
            case .id: return "_id"
            case .firstName: return "name.first"
            case .lastName: return "name.last"
            default: return "\(field)"
            }
        case .index: return "index"
        case .age: return "age"
        case .isActive: return "isActive"
        case .name: return "name"
        }
    }
}
