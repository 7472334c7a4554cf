#if !ROSTER_FUZZ
import RosterCore
#endif

/// Who a card names as a person's manager (or another relation): RFC
/// 6350's `RELATED;TYPE=manager`, however the type is spelled, or Apple's
/// labelled related name.
extension FieldRecord {
    /// The card's first `RELATED` whose types include `type` — a list of
    /// them quoted or not (`TYPE="manager,work"`, `TYPE=work,manager`),
    /// repeated (`TYPE=work;TYPE=manager`), in any case — else the first
    /// related name Apple labels so (`item1.X-ABRELATEDNAMES:Ann Lee` with
    /// `item1.X-ABLabel:_$!<Manager>!$_`, or a label the user typed,
    /// `Manager`). A `RELATED` of other types names no such relation.
    /// Nil when the card has none.
    public func relatedField(ofType type: String) -> RecordField? {
        if let related = fields(named: "RELATED").first(where: { $0.hasType(type) }) { return related }
        return fields(named: "X-ABRELATEDNAMES").first { $0.hasType(type) || Self.label($0.groupLabel, is: type) }
    }

    /// Whether an `X-ABLabel`'s text, Apple's wrapping taken off, is `type` (any case).
    private static func label(_ label: String, is type: String) -> Bool {
        guard !label.isEmpty else { return false }
        var label = label
        let name = label.withUTF8 { String(decoding: FieldBytes.appleLabelName($0), as: UTF8.self) }
        return name.lowercased() == type.lowercased()
    }
}
