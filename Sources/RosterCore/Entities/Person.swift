/// One person of the directory, with every field of the seed's records.
///
/// Missing text fields are empty strings; missing numbers are `nil`.
/// `Person` is materialised on demand from a `PeopleStore`, which keeps
/// the bytes of a million people compactly; nothing holds an array of these.
public struct Person: Sendable, Equatable {
    public var id: String
    public var index: Int?
    public var guid: String
    public var isActive: Bool?
    public var balance: Balance
    public var picture: String
    public var age: Int?
    public var eyeColor: String
    public var firstName: String
    public var lastName: String
    public var company: String
    public var email: String
    public var phone: String
    public var address: String
    public var favoriteFruit: String
    /// Which text fields the record had (`TextField.bit`; a missing field
    /// and an empty one read the same otherwise), and whether its balance
    /// was a JSON number (`TextField.balanceIsNumberBit`).
    public var presentTextFields: UInt16

    public init(
        id: String = "", index: Int? = nil, guid: String = "", isActive: Bool? = nil,
        balance: Balance = Balance(text: ""), picture: String = "", age: Int? = nil,
        eyeColor: String = "", firstName: String, lastName: String, company: String = "",
        email: String = "", phone: String = "", address: String = "", favoriteFruit: String = "",
        presentTextFields: UInt16? = nil
    ) {
        self.id = id
        self.index = index
        self.guid = guid
        self.isActive = isActive
        self.balance = balance
        self.picture = picture
        self.age = age
        self.eyeColor = eyeColor
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.email = email
        self.phone = phone
        self.address = address
        self.favoriteFruit = favoriteFruit
        self.presentTextFields = presentTextFields ?? 0
        if presentTextFields == nil {
            // Built by hand: a field is present when it has text.
            let person = self
            self.presentTextFields = TextField.allCases.reduce(0) { mask, field in
                person.text(field).isEmpty ? mask : mask | TextField.bit(field)
            }
        }
    }

    /// A person whose text fields `text` gives (the balance's text with
    /// `balanceCents`), as a store or a table row reads them.
    public init(index: Int?, isActive: Bool?, balanceCents: Int64?, age: Int?, presentTextFields: UInt16,
                text: (TextField) -> String) {
        self.init(index: index, isActive: isActive, age: age, firstName: "", lastName: "", presentTextFields: presentTextFields)
        for field in Self.plainTextFields { setText(field, text(field)) }
        balance = Balance(text: text(.balance), cents: balanceCents)
    }

    /// The text fields but the balance (whose text goes with its amount), made once.
    static let plainTextFields = TextField.allCases.filter { $0 != .balance }

    /// Sets the text of `field` (the balance's text keeps no amount).
    public mutating func setText(_ field: TextField, _ value: String) {
        switch field {
        case .id: id = value
        case .guid: guid = value
        case .balance: balance = Balance(text: value)
        case .picture: picture = value
        case .eyeColor: eyeColor = value
        case .firstName: firstName = value
        case .lastName: lastName = value
        case .company: company = value
        case .email: email = value
        case .phone: phone = value
        case .address: address = value
        case .favoriteFruit: favoriteFruit = value
        }
    }

    /// The text of `field` as the record has it.
    public func text(_ field: TextField) -> String {
        switch field {
        case .id: return id
        case .guid: return guid
        case .balance: return balance.text
        case .picture: return picture
        case .eyeColor: return eyeColor
        case .firstName: return firstName
        case .lastName: return lastName
        case .company: return company
        case .email: return email
        case .phone: return phone
        case .address: return address
        case .favoriteFruit: return favoriteFruit
        }
    }

    /// Whether the record had `field` (even if empty).
    public func has(_ field: TextField) -> Bool {
        presentTextFields & TextField.bit(field) != 0
    }

    /// "First Last", or whichever part exists.
    public var fullName: String {
        switch (firstName.isEmpty, lastName.isEmpty) {
        case (false, false): return firstName + " " + lastName
        case (true, _): return lastName
        case (_, true): return firstName
        }
    }
}

/// A balance as the file writes it (`"$2,107.15"`) plus its exact amount.
///
/// The text is kept for display; `cents` (exact, no floating point) is for
/// sorting and totals, and is `nil` when the text is not an amount.
public struct Balance: Sendable, Equatable {
    public var text: String
    public var cents: Int64?

    public init(text: String) {
        self.text = text
        self.cents = Balance.cents(fromUTF8: Array(text.utf8))
    }

    public init(text: String, cents: Int64?) {
        self.text = text
        self.cents = cents
    }

    /// What a balance's text holds: an amount, an amount too large to keep
    /// exactly, or something that is not an amount at all.
    public enum Amount: Equatable, Sendable {
        case cents(Int64)
        case tooLarge
        case notAnAmount
    }

    /// The largest magnitude kept, in cents: every balance fits in 64 bits,
    /// so that sums of any number of them fit exactly in 128.
    public static let largestCents: Int64 = Int64.max - 1

    /// Parses `$2,107.15`, `-$1,000`, `$-3.5`, `1234.56`, ` $ 7 ` into cents.
    ///
    /// One optional sign (before or after the `$`), digits with optional
    /// thousands commas, and at most two decimals. Anything else is `nil`
    /// rather than a guess: a balance that cannot be read sorts last.
    @inlinable
    public static func cents<Bytes: Collection>(fromUTF8 bytes: Bytes) -> Int64? where Bytes.Element == UInt8 {
        if case .cents(let cents) = amount(fromUTF8: bytes) { return cents }
        return nil
    }

    /// `123456` cents as `"$1,234.56"`, the file's own style; any width
    /// of integer, so that 128-bit sums print exactly too.
    public static func format<Cents: BinaryInteger>(cents: Cents) -> String {
        if let cents = Int64(exactly: cents) { return format(cents) }
        let magnitude = cents.magnitude
        let whole = String(magnitude / 100)
        var grouped = ""
        for (offset, character) in whole.enumerated() {
            if offset > 0, (whole.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        let fraction = magnitude % 100
        let sign = cents < 0 ? "-" : ""
        return "\(sign)$\(grouped).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The same for the amounts that fit 64 bits (all but sums past 92
    /// quadrillion dollars), written straight into bytes: the overview
    /// words two per company.
    private static func format(_ cents: Int64) -> String {
        NumberText.written { buffer, end in
            let magnitude = cents.magnitude
            var start = NumberText.write(UInt8(ascii: "0") + UInt8(magnitude % 10), before: end, in: buffer)
            start = NumberText.write(UInt8(ascii: "0") + UInt8(magnitude / 10 % 10), before: start, in: buffer)
            start = NumberText.write(UInt8(ascii: "."), before: start, in: buffer)
            start = NumberText.writeGrouped(magnitude / 100, endingAt: start, in: buffer)
            start = NumberText.write(UInt8(ascii: "$"), before: start, in: buffer)
            return cents < 0 ? NumberText.write(UInt8(ascii: "-"), before: start, in: buffer) : start
        }
    }

    /// `total / count` rounded half away from zero (`$2,440.545` → `$2,440.55`).
    public static func average(of total: Int128, count: Int) -> Int128 {
        precondition(count > 0, "an average of nothing")
        let divisor = Int128(count)
        let (quotient, remainder) = total.quotientAndRemainder(dividingBy: divisor)
        guard remainder.magnitude * 2 >= divisor.magnitude else { return quotient }
        return total < 0 ? quotient - 1 : quotient + 1
    }
}
