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

    init?(bytes: UnsafeBufferPointer<UInt8>) {
        func equals(_ word: StaticString) -> Bool {
            word.utf8CodeUnitCount == bytes.count && memcmp(word.utf8Start, bytes.baseAddress!, bytes.count) == 0
        }
        switch bytes.count {
        case 3: if equals("_id") { self = .text(.id) } else if equals("age") { self = .age } else { return nil }
        case 4: if equals("guid") { self = .text(.guid) } else if equals("name") { self = .name } else { return nil }
        case 5:
            if equals("index") { self = .index } else if equals("email") { self = .text(.email) }
            else if equals("phone") { self = .text(.phone) } else { return nil }
        case 7:
            if equals("balance") { self = .text(.balance) } else if equals("picture") { self = .text(.picture) }
            else if equals("company") { self = .text(.company) } else if equals("address") { self = .text(.address) }
            else { return nil }
        case 8: if equals("isActive") { self = .isActive } else if equals("eyeColor") { self = .text(.eyeColor) } else { return nil }
        case 13: if equals("favoriteFruit") { self = .text(.favoriteFruit) } else { return nil }
        default: return nil
        }
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
