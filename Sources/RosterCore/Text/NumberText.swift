/// Numbers as every screen and `--list` words them: thousands separators,
/// singular or plural. The one place for it, so that all screens agree.
public enum NumberText {
    /// "1,234,567".
    public static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    /// "1 person", "12 people", with thousands separators.
    public static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural)"
    }

    /// "3 of 200 records skipped", or nil when nothing was.
    public static func skippedNotice(skipped: Int, loaded: Int) -> String? {
        guard skipped > 0 else { return nil }
        return "\(grouped(skipped)) of \(grouped(skipped + loaded)) records skipped"
    }
}
