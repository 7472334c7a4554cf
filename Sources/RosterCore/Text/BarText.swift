/// A bar whose length shows a count against the largest (VisiData's
/// frequency histogram), in eighths of a cell: `█` whole cells and one of
/// `▉▊▋▌▍▎▏` at the end. The screen draws these as `#` (and `▏` as `|`)
/// where the terminal cannot show them (a C locale).
public enum BarText {
    static let partials: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The bar for `count` out of `largest` in at most `cells` cells:
    /// rounded to the nearest eighth (half up), and never empty for a
    /// count above zero.
    public static func bar(count: Int, largest: Int, cells: Int) -> String {
        let eighths = eighths(count: count, largest: largest, cells: cells)
        var bar = String(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { bar.append(partials[eighths % 8 - 1]) }
        return bar
    }

    /// The bar's length in eighths of a cell.
    public static func eighths(count: Int, largest: Int, cells: Int) -> Int {
        guard count > 0, largest > 0, cells > 0 else { return 0 }
        let full = Int128(cells) * 8
        let rounded = (Int128(min(count, largest)) * full * 2 + Int128(largest)) / (Int128(largest) * 2)
        return max(1, Int(rounded))
    }
}
