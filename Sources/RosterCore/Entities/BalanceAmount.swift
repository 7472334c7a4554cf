extension Balance {
    /// As `cents(fromUTF8:)`, but tells an amount beyond ±`largestCents`
    /// (which the loader refuses) from text that is no amount at all.
    /// Inlinable: the loader (another module) calls it once per person, and
    /// unspecialised, a generic call there reads every byte through witness tables.
    @inlinable
    public static func amount<Bytes: Collection>(fromUTF8 bytes: Bytes) -> Amount where Bytes.Element == UInt8 {
        var scan = AmountScan()
        for byte in bytes {
            guard scan.read(byte) else { return .notAnAmount }
        }
        return scan.amount
    }

    /// A balance's text read a byte at a time: what `amount(fromUTF8:)`
    /// has seen so far.
    @usableFromInline
    struct AmountScan {
        @usableFromInline var negative = false
        @usableFromInline var sawSign = false
        @usableFromInline var sawDollar = false
        @usableFromInline var whole: Int64 = 0
        @usableFromInline var fraction: Int64 = 0
        @usableFromInline var fractionDigits = 0
        @usableFromInline var sawDigit = false
        @usableFromInline var inFraction = false
        @usableFromInline var lastWasComma = false
        /// Thousands commas must group by three (`1,234`): `3,9` is no amount
        /// (a decimal comma would otherwise silently read as 39).
        @usableFromInline var sawComma = false
        @usableFromInline var groupDigits = 0
        @usableFromInline var started = false
        @usableFromInline var trailingSpace = false
        @usableFromInline var overflowed = false

        @inlinable
        init() {}

        /// Takes the next byte; false when the text is no amount.
        @inlinable
        mutating func read(_ byte: UInt8) -> Bool {
            if trailingSpace { return byte == UInt8(ascii: " ") }
            switch byte {
            case UInt8(ascii: " ") where !started:
                return true
            case UInt8(ascii: " "):
                trailingSpace = true
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard !sawSign, !sawDigit else { return false }
                sawSign = true
                started = true
                negative = byte == UInt8(ascii: "-")
            case UInt8(ascii: "$"):
                guard !sawDollar, !sawDigit else { return false }
                sawDollar = true
                started = true
            case UInt8(ascii: ","):
                guard sawDigit, !inFraction, !lastWasComma, sawComma ? groupDigits == 3 : groupDigits <= 3 else { return false }
                lastWasComma = true
                sawComma = true
                groupDigits = 0
                return true
            case UInt8(ascii: "."):
                guard !inFraction, !lastWasComma, !sawComma || groupDigits == 3 else { return false }
                inFraction = true
                started = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard readDigit(Int64(byte - UInt8(ascii: "0"))) else { return false }
            default:
                return false
            }
            lastWasComma = false
            return true
        }

        @inlinable
        mutating func readDigit(_ digit: Int64) -> Bool {
            started = true
            sawDigit = true
            if inFraction {
                fractionDigits += 1
                guard fractionDigits <= 2 else { return false }
                fraction = fraction * 10 + digit
                return true
            }
            groupDigits += 1
            if !overflowed {
                let (times10, overflow1) = whole.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(digit)
                if overflow1 || overflow2 || sum > largestCents / 100 { overflowed = true } else { whole = sum }
            }
            return true
        }

        /// What the text read is, once it has ended.
        @inlinable
        var amount: Amount {
            guard sawDigit, !lastWasComma, inFraction || !sawComma || groupDigits == 3 else { return .notAnAmount }
            let fraction = fractionDigits == 1 ? self.fraction * 10 : self.fraction
            let (cents, overflow) = (whole * 100).addingReportingOverflow(fraction)
            guard !overflowed, !overflow, cents <= largestCents else { return .tooLarge }
            return .cents(negative ? -cents : cents)
        }
    }
}
