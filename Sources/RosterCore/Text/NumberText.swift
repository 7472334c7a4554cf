/// Numbers as every screen and `--list` words them: thousands separators,
/// singular or plural. The one place for it, so that all screens agree.
public enum NumberText {
    /// "1,234,567".
    public static func grouped(_ value: Int) -> String {
        written { buffer, end in
            let start = writeGrouped(value.magnitude, endingAt: end, in: buffer)
            return value < 0 ? write(UInt8(ascii: "-"), before: start, in: buffer) : start
        }
    }

    /// `x` to one decimal, as `String(format: "%.1f", x)` words it ("38.5"),
    /// without its cost: the overview words an average age per company,
    /// 70,000 of them on a large directory. A tie is settled on the exact
    /// value, as printf settles it, so the two never disagree.
    public static func tenths(_ x: Double) -> String {
        guard x.isFinite, abs(x) < 1e14 else { return String(format: "%.1f", x) }
        let scaled = x * 10
        var rounded = scaled.rounded(.toNearestOrEven)
        if abs(scaled - rounded) == 0.5 {
            // A tie after the multiplication: printf rounds the exact value,
            // which the product's rounding error (exact, by a fused
            // multiply-add) puts above or below it; a true tie goes to even.
            let error = (-scaled).addingProduct(x, 10)
            if error > 0 { rounded = scaled.rounded(.up) } else if error < 0 { rounded = scaled.rounded(.down) }
        }
        let magnitude = UInt64(abs(rounded))
        return written { buffer, end in
            var start = write(UInt8(ascii: "0") + UInt8(magnitude % 10), before: end, in: buffer)
            start = write(UInt8(ascii: "."), before: start, in: buffer)
            start = writeGrouped(magnitude / 10, endingAt: start, in: buffer, separator: nil)
            return x.sign == .minus ? write(UInt8(ascii: "-"), before: start, in: buffer) : start
        }
    }

    // MARK: Writing digits without intermediate strings

    /// The text `fill` writes right to left, ending at the buffer's end
    /// (`fill` returns where it starts). Room for any 64-bit number grouped,
    /// with a sign, a currency symbol and two decimals.
    static func written(_ fill: (UnsafeMutableBufferPointer<UInt8>, Int) -> Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            let start = fill(buffer, buffer.count)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// `magnitude`'s digits, a comma between each group of three (none when
    /// `separator` is nil), ending before `end`; returns where they start.
    static func writeGrouped(_ magnitude: UInt, endingAt end: Int, in buffer: UnsafeMutableBufferPointer<UInt8>,
                             separator: UInt8? = UInt8(ascii: ",")) -> Int {
        writeGrouped(UInt64(magnitude), endingAt: end, in: buffer, separator: separator)
    }

    static func writeGrouped(_ magnitude: UInt64, endingAt end: Int, in buffer: UnsafeMutableBufferPointer<UInt8>,
                             separator: UInt8? = UInt8(ascii: ",")) -> Int {
        var (value, index, digits) = (magnitude, end, 0)
        repeat {
            if digits > 0, digits % 3 == 0, let separator { index = write(separator, before: index, in: buffer) }
            index = write(UInt8(ascii: "0") + UInt8(value % 10), before: index, in: buffer)
            value /= 10
            digits += 1
        } while value > 0
        return index
    }

    static func write(_ byte: UInt8, before index: Int, in buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        buffer[index - 1] = byte
        return index - 1
    }

    /// "1 person", "12 people", with thousands separators.
    public static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural)"
    }

    /// "400 people · 33 companies · 5 with no company", as the list's
    /// title says a whole directory: the people without a company are in
    /// none (their group is no company), and counted apart when there are any.
    public static func directoryFigures(people: Int, companies: Int, withoutCompany: Int) -> String {
        "\(count(people, "person", "people")) · \(count(companies, "company", "companies"))"
            + (withoutCompany > 0 ? " · \(grouped(withoutCompany)) with no company" : "")
    }

    /// "3 of 200 records skipped", or nil when nothing was.
    public static func skippedNotice(skipped: Int, loaded: Int) -> String? {
        guard skipped > 0 else { return nil }
        return "\(grouped(skipped)) of \(grouped(skipped + loaded)) records skipped"
    }
}
