#if !ROSTER_FUZZ
import RosterCore
#endif

/// The name of a JSON record, edited: either half changes and the other
/// is kept, in whichever form the record gives the name.
extension JSONRecordText {
    /// A half of the name set to a text, or (nil) taken out.
    typealias NameChange = (field: TextField, text: String?)

    /// The record's `name` value with `changes` made; nil when there are none.
    ///
    /// - An object (`{"first": …, "last": …}`) keeps its other members,
    ///   their order and spacing.
    /// - One text (`"Ada Lovelace"`) is written again whole, the other half
    ///   as it read (`WholeName`), when the new text reads back as both
    ///   halves; when it would not (a last name of two words, a first name
    ///   without a last), as an object of both, the one form that holds them.
    /// - No name (or `null`): an object of the halves set (none: as it was).
    static func editedName(of record: Object, _ bytes: UnsafeBufferPointer<UInt8>, _ changes: [NameChange],
                           cursor: inout JSONCursor, oneLine: Bool) throws(ScanFailure) -> [UInt8]? {
        guard !changes.isEmpty else { return nil }
        let settings: [Setting] = changes.map { ($0.field.jsonKey, $0.text.map(jsonText)) }
        // Nothing to take out of a name the record does not have.
        let fresh = settings.contains { $0.value != nil } ? newObject(settings, style: nil, oneLine: true) : nil
        guard let name = record.members.last(where: { $0.key == "name" }) else { return fresh }
        switch bytes[name.value.lowerBound] {
        case UInt8(ascii: "{"):
            cursor.position = name.value.lowerBound
            return rewritten(try object(&cursor), bytes, settings, oneLine: oneLine)
        case UInt8(ascii: "\""):
            cursor.position = name.value.lowerBound
            let whole = CollectingSink()
            try cursor.scanString(into: whole)
            var (first, last) = WholeName.halves(of: String(decoding: whole.bytes, as: UTF8.self))
            for change in changes {
                if change.field == .firstName { first = change.text ?? "" } else { last = change.text ?? "" }
            }
            if let text = WholeName.text(first: first, last: last) { return jsonText(text) }
            let halves: [Setting] = [("first", first), ("last", last)].map { key, text in (key, text.isEmpty ? nil : jsonText(text)) }
            return newObject(halves, style: nil, oneLine: true)
        default:
            return fresh
        }
    }
}
