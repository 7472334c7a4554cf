/// Which CSV text cells a spreadsheet would run, for the leading `'` that
/// stops it (OWASP's CSV injection advice).
///
/// A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is
/// read as a formula, except one that is plainly a phone number or a
/// number or amount of money: those are made of digits and a few
/// separators only, so no formula in them can call a function, reach
/// another cell or start a program, and a `'` would only spoil them for
/// the people who open the file. The patterns are strict:
///
/// - a phone number: an optional `+`, then 7 to 15 digits with spaces,
///   dots, hyphens and at most one pair of parentheses (digits only
///   inside), starting with a digit or `(` and ending with a digit
///   (`+1 (575) 919-9368`, `+44 20 7946 0958`);
/// - a number or amount: an optional `-` or `+`, an optional currency sign
///   (`$ € £ ¥`), digits (in groups of three after commas, or plain), and
///   an optional decimal part (`-$2,989.99`, `-12.5`, `+3`).
///
/// Anything else that starts that way keeps the `'`: `=1+1`, `-2+3`,
/// `@SUM(A1)`, `+1+cmd|' /C calc'!A0`.
public enum SpreadsheetCell {
    /// What makes a spreadsheet read a cell as a formula.
    public static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` as every CSV text cell Roster writes it (an export's, unless
    /// `--csv-verbatim`, and an edit's): with a leading `'` when a
    /// spreadsheet would run it, and one more when it already starts with
    /// quotes before a formula's first character (`'=x`, `'+1 555…`), so
    /// that reading it back, which takes exactly one off (`unguarded`,
    /// `CSVParser.withoutAddedQuote`), gives the text as it was.
    public static func guarded(_ text: String) -> String {
        let unquoted = text.drop { $0 == "'" }
        guard let first = unquoted.unicodeScalars.first, formulaStarts.contains(first),
              unquoted.count < text.count || wouldRun(unquoted) else { return text }
        return "'" + text
    }

    /// A CSV cell's text as Roster reads it: the one `'` that `guarded`
    /// adds taken off (`'=1+2` is `=1+2`, `''=x` is `'=x`); any other
    /// text as it is (`'tis`).
    public static func unguarded(_ text: String) -> String {
        let unquoted = text.drop { $0 == "'" }
        guard unquoted.count < text.count, let first = unquoted.unicodeScalars.first, formulaStarts.contains(first) else { return text }
        return String(text.dropFirst())
    }

    /// Whether a spreadsheet would run `text` as a formula.
    public static func wouldRun(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, formulaStarts.contains(first) else { return false }
        return !isPhoneNumber(text) && !isAmount(text)
    }

    static func isPhoneNumber(_ text: Substring) -> Bool {
        var rest = Array(text.unicodeScalars)
        if rest.first == "+" { rest.removeFirst() }
        guard let first = rest.first, let last = rest.last, isDigit(first) || first == "(", isDigit(last) else { return false }
        var digits = 0
        var opened = false, closed = false
        for scalar in rest {
            switch scalar {
            case _ where isDigit(scalar): digits += 1
            case " ", ".", "-": guard !opened || closed else { return false }
            case "(": guard !opened else { return false }; opened = true
            case ")": guard opened, !closed else { return false }; closed = true
            default: return false
            }
        }
        return (7...15).contains(digits) && opened == closed
    }

    static func isAmount(_ text: Substring) -> Bool {
        var rest = Array(text.unicodeScalars)[...]
        if let sign = rest.first, sign == "-" || sign == "+" { rest.removeFirst() }
        if let currency = rest.first, ["$", "€", "£", "¥"].contains(currency) { rest.removeFirst() }
        let whole = rest.prefix { isDigit($0) || $0 == "," }
        rest.removeFirst(whole.count)
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard let lead = groups.first, !lead.isEmpty,
              groups.count == 1 || (lead.count <= 3 && groups.dropFirst().allSatisfy { $0.count == 3 }) else { return false }
        if rest.first == "." {
            rest.removeFirst()
            guard !rest.isEmpty, rest.allSatisfy(isDigit) else { return false }
            return true
        }
        return rest.isEmpty
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
