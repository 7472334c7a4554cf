#if !ROSTER_FUZZ
import RosterCore
#endif

/// One vCard's or LDIF entry's values for a person, collected while its
/// fields arrive in any order, then written to the record in the store's
/// (`apply`).
struct PersonFieldValues {
    /// One value a person holds, with which field gave it and how preferred
    /// that field is: a field of a lower rank replaces it; the rest of the
    /// same field's values (`N`'s items, `ADR`'s street lines) join it.
    struct Slot {
        var bytes: [UInt8] = []
        var rank = Int.max
        var property = -1

        mutating func reset() {
            bytes.removeAll(keepingCapacity: true)
            rank = Int.max
            property = -1
        }

        var isEmpty: Bool { bytes.isEmpty }

        /// Not blank (no-break spaces, zero-width characters: see `TextFolding`).
        var hasVisibleText: Bool { bytes.withUnsafeBufferPointer { TextFolding.hasVisibleText($0) } }

        /// `value` of field `property`: joined to this field's value, or
        /// instead of another's when it is preferred to it.
        mutating func offer(_ value: UnsafeBufferPointer<UInt8>, rank: Int, property: Int) {
            if property == self.property {
                guard !value.isEmpty else { return }
                if !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
            } else if rank < self.rank {
                bytes.removeAll(keepingCapacity: true)
                self.rank = rank
                self.property = property
            } else {
                return
            }
            // A line break in a value (a street's two lines: CRLF, CR or LF, or a run of them) is one space in a person's one-line text.
            var isInBreak = false
            for byte in value {
                let isBreak = byte == 0x0A || byte == 0x0D
                if !isBreak || !isInBreak { bytes.append(isBreak ? UInt8(ascii: " ") : byte) }
                isInBreak = isBreak
            }
        }
    }

    /// A field's items as a person shows them (joined and made one line
    /// as `Slot.offer` does): how an edit finds the field a value came from.
    static func shownText(_ items: [String]) -> String {
        var slot = Slot()
        for item in items { Array(item.utf8).withUnsafeBufferPointer { slot.offer($0, rank: 0, property: 0) } }
        return String(decoding: slot.bytes, as: UTF8.self)
    }

    var id = Slot(), wholeName = Slot(), given = Slot(), family = Slot(), company = Slot()
    var email = Slot(), phone = Slot()
    var street = Slot(), city = Slot(), region = Slot(), postalCode = Slot()

    mutating func reset() {
        id.reset(); wholeName.reset(); given.reset(); family.reset(); company.reset()
        email.reset(); phone.reset(); street.reset(); city.reset(); region.reset(); postalCode.reset()
    }

    /// One value of a field whose role is `role`.
    mutating func take(_ field: SourceField, as role: PersonFieldRole) {
        let value = field.value
        let property = field.property
        let preference = field.parameters.isEmpty ? Int.max - 1 : field.parameters.preference ?? Int.max - 1
        switch role {
        case .id: id.offer(value, rank: 0, property: property)
        case .wholeName(let rank): wholeName.offer(value, rank: rank, property: property)
        case .givenName: given.offer(value, rank: 0, property: property)
        case .familyName: family.offer(value, rank: 0, property: property)
        case .nameParts:
            if field.component == 0 { family.offer(value, rank: 0, property: property) }
            if field.component == 1 { given.offer(value, rank: 0, property: property) }
        case .company:
            if field.component == 0, field.item == 0 { company.offer(value, rank: 0, property: property) }
        case .email(let rank): email.offer(value, rank: rank == 0 ? preference : rank, property: property)
        case .phone(let rank): phone.offer(Self.withoutTelScheme(value), rank: rank == 0 ? preference : rank, property: property)
        case .addressParts:
            switch field.component {
            case 2: street.offer(value, rank: preference, property: property)
            case 3: city.offer(value, rank: preference, property: property)
            case 4: region.offer(value, rank: preference, property: property)
            case 5: postalCode.offer(value, rank: preference, property: property)
            default: break
            }
        case .street: street.offer(value, rank: 0, property: property)
        case .city: city.offer(value, rank: 0, property: property)
        case .region: region.offer(value, rank: 0, property: property)
        case .postalCode: postalCode.offer(value, rank: 0, property: property)
        }
    }

    /// `tel:+1-555-0100` (vCard 4.0's `VALUE=uri`) → `+1-555-0100`.
    private static func withoutTelScheme(_ value: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        FieldBytes.hasPrefixIgnoringCase(value, "tel:") ? UnsafeBufferPointer(rebasing: value[4...]) : value
    }

    /// The values into `record`: the name's parts when the source gave
    /// either, else the whole name split; the address as Roster writes
    /// one (`street, city, state, zip`: see `AddressPart`).
    func apply(to record: inout RecordScratch) {
        set(.id, id, on: &record)
        applyName(to: &record)
        set(.company, company, on: &record)
        set(.email, email, on: &record)
        set(.phone, phone, on: &record)
        let address = Self.address(street: street.bytes, city: city.bytes, region: region.bytes, postalCode: postalCode.bytes)
        if !address.isEmpty { address.withUnsafeBufferPointer { record.setText(.address, $0) } }
    }

    /// Both parts when the source gave both; else the whole name, its
    /// last word the last name, or (LDIF's `cn: Rob van Dijk` with `sn: van
    /// Dijk`, no `givenName`) what comes before the family name given;
    /// else whichever part there is.
    private func applyName(to record: inout RecordScratch) {
        let hasBoth = given.hasVisibleText && family.hasVisibleText
        guard !hasBoth, wholeName.hasVisibleText else {
            set(.firstName, given, on: &record)
            set(.lastName, family, on: &record)
            return
        }
        let whole = wholeName.bytes, last = family.bytes
        if family.hasVisibleText, whole.count > last.count + 1, whole.suffix(last.count).elementsEqual(last),
           whole[whole.count - last.count - 1] == UInt8(ascii: " ") {
            var first = Slot()
            first.offer(whole.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[..<(whole.count - last.count - 1)]) },
                        rank: 0, property: 0)
            set(.firstName, first, on: &record)
            set(.lastName, family, on: &record)
        } else {
            whole.withUnsafeBufferPointer { record.setWholeName($0) }
        }
    }

    private func set(_ field: TextField, _ slot: Slot, on record: inout RecordScratch) {
        guard !slot.isEmpty else { return }
        slot.bytes.withUnsafeBufferPointer { record.setText(field, $0) }
    }

    /// The parts joined by `, ` up to the last one given; an empty part
    /// before it stays (empty), so that the city is always the second.
    /// A comma inside a part would move the parts after it, so it goes
    /// (but in a street followed by all three: the street is then all
    /// before the last three).
    static func address(street: [UInt8], city: [UInt8], region: [UInt8], postalCode: [UInt8]) -> [UInt8] {
        var parts = [street, city, region, postalCode]
        guard let last = parts.lastIndex(where: { !$0.isEmpty }) else { return [] }
        for index in parts.indices where index > 0 || last < 3 { parts[index].removeAll { $0 == UInt8(ascii: ",") } }
        var joined: [UInt8] = []
        for index in 0...last {
            if index > 0 { joined += [UInt8(ascii: ","), UInt8(ascii: " ")] }
            joined += parts[index]
        }
        return joined
    }
}
