/// Whole numbers as both readers (JSON and CSV) take them.
extension PeopleParser {
    /// A JSON number as an `Int` when it is whole and fits (`35`, `35.0`, `3.5e1`).
    static func wholeNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var value = 0
        var negative = false
        var simple = true
        for (offset, byte) in bytes.enumerated() {
            if offset == 0, byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard byte &- UInt8(ascii: "0") < 10 else {
                simple = false
                break
            }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        if simple { return negative ? -value : value }
        guard let double = Double(String(decoding: bytes, as: UTF8.self)),
              double.rounded() == double, abs(double) < 9.0e15 else { return nil }
        return Int(double)
    }
}
