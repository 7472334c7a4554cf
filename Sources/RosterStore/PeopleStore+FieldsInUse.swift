#if !ROSTER_FUZZ
import RosterCore
#endif

extension PeopleStore {
    /// The fields anyone here has: one pass over each person's presence
    /// bits, age and activity (a few milliseconds at a million), made on
    /// first use and kept.
    public var fieldsInUse: FieldsInUse {
        fieldsInUseCache.withLock { cached in
            if let cached { return cached }
            let found = segments.reduce(FieldsInUse(textFields: 0, age: false, active: false, index: false)) { found, segment in
                segment.fieldsInUse(with: found)
            }
            cached = found
            return found
        }
    }
}

extension PeopleSegment {
    /// `found` with what this segment's people add to it.
    func fieldsInUse(with found: FieldsInUse) -> FieldsInUse {
        var textFields: UInt16 = found.textFields
        for present in presentFields { textFields |= present }
        return FieldsInUse(textFields: textFields & ~TextField.balanceIsNumberBit,
                           age: found.age || ages.contains { $0 != Self.missingAge },
                           active: found.active || activeFlags.contains { $0 != 2 },
                           index: found.index || indexValues.contains { $0 != Self.missingInt })
    }
}
