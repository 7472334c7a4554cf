/// Text made safe and measured for a terminal cell grid.
///
/// Every string from a data file passes through here before it reaches a
/// screen or `--list` on a terminal: control characters become visible
/// placeholders (content is never a terminal command), zero-width format
/// characters (bidi overrides, joiners) are dropped so nothing moves the
/// cursor outside its cells, and widths are counted in columns (CJK and
/// emoji take two, combining marks none).
public enum DisplayText {
    public static let ellipsis: Character = "…"

    /// `text` with every unsafe scalar replaced or removed.
    public static func sanitized(_ text: String) -> String {
        // Fast path: printable ASCII needs nothing.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var scalars = String.UnicodeScalarView()
        var hasBase = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x1B:
                scalars.append("\u{241B}")  // ␛
                hasBase = true
            case 0x00..<0x20:
                scalars.append(Unicode.Scalar(0x2400 + value)!)  // ␀ … ␟
                hasBase = true
            case 0x7F:
                scalars.append("\u{2421}")  // ␡
                hasBase = true
            case 0x80...0x9F:
                scalars.append("?")
                hasBase = true
            case 0xFE00...0xFE0F, 0xE0100...0xE01EF:
                continue  // variation selectors: terminals disagree on their width
            case _ where CharacterWidths.needsStandIn(scalar):
                scalars.append("\u{FFFD}")  // unknown to the C library, or widthless though not a mark
                hasBase = true
            default:
                switch scalar.properties.generalCategory {
                case .format, .lineSeparator, .paragraphSeparator:
                    continue  // zero-width joiners, bidi overrides: invisible, can move the cursor
                case .nonspacingMark, .enclosingMark, .spacingMark:
                    // A mark with nothing before it would land on a neighbour's cell.
                    if hasBase { scalars.append(scalar) }
                default:
                    scalars.append(scalar)
                    hasBase = true
                }
            }
        }
        return String(scalars)
    }

    /// `text` with only what can be pasted safely, and how many characters
    /// were removed: the control characters (C0 with ESC, DEL, C1: a
    /// newline in a pasted "email" runs the rest as a command), the line
    /// and paragraph separators (newlines to some programs), and the bidi
    /// controls (U+061C, U+200E–F, U+202A–E, U+2066–9), which reorder the
    /// text around them and so can make a pasted address read as another.
    /// Other format characters are part of the text, not commands, and
    /// stay: the zero width joiner and non-joiner (👩‍👩‍👧‍👦 is one emoji),
    /// variation selectors (❤️), the tags of a flag.
    public static func printable(_ text: String) -> (text: String, removed: Int) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return (text, 0) }
        var kept = String.UnicodeScalarView()
        var removed = 0
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .control || category == .lineSeparator || category == .paragraphSeparator
                || scalar.properties.isBidiControl {
                removed += 1
            } else {
                kept.append(scalar)
            }
        }
        return (String(kept), removed)
    }

    /// Columns a sanitized string takes.
    public static func width(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.reduce(0) { $0 + width(of: $1) }
    }

    /// Columns one character (grapheme cluster) takes: that of its base.
    public static func width(of character: Character) -> Int {
        guard let base = character.unicodeScalars.first else { return 0 }
        return width(of: base)
    }

    /// Columns `scalar` takes: as the C library (and so ncurses) counts
    /// them, so that nothing after it on the row moves.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (value >= 0x7F && value < 0xA0) ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if let width = CharacterWidths.libraryWidth(of: scalar) { return width }
        return isWide(value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth, and emoji shown as pictures.
    static func isWide(_ value: UInt32) -> Bool {
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F251, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
        0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0,
        0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5,
        0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF,
        0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0,
        0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// Sanitizes `text` and cuts it to at most `columns`, ending in `…` when cut.
    public static func fit(_ text: String, columns: Int) -> String {
        guard columns > 0 else { return "" }
        let clean = sanitized(text)
        if clean.utf8.count <= columns, clean.utf8.allSatisfy({ $0 < 0x80 }) { return clean }
        if width(clean) <= columns { return clean }
        var result = ""
        var used = 0
        for character in clean {
            let characterWidth = width(of: character)
            if used + characterWidth > columns - 1 { break }
            result.append(character)
            used += characterWidth
        }
        result.append(ellipsis)
        return result
    }

    /// Sanitizes `text` and breaks it into lines of at most `columns` cells:
    /// at the last space that fits (the space itself is dropped), else
    /// between two characters, so a wide character is never split. Never
    /// empty: an empty text is one empty line.
    public static func wrapped(_ text: String, columns: Int) -> [String] {
        let clean = sanitized(text)
        guard columns > 0, width(clean) > columns else { return [clean] }
        var lines: [String] = []
        var line: [(character: Character, width: Int)] = []
        var used = 0
        for character in clean {
            let characterWidth = width(of: character)
            if used + characterWidth > columns, !line.isEmpty {
                if character == " " {
                    lines.append(String(line.map(\.character)))
                    line = []
                    used = 0
                    continue
                }
                if let space = line.lastIndex(where: { $0.character == " " }), space > 0 {
                    lines.append(String(line[..<space].map(\.character)))
                    line = Array(line[(space + 1)...])
                } else {
                    lines.append(String(line.map(\.character)))
                    line = []
                }
                used = line.reduce(0) { $0 + $1.width }
            }
            line.append((character, characterWidth))
            used += characterWidth
        }
        if !line.isEmpty || lines.isEmpty { lines.append(String(line.map(\.character))) }
        return lines
    }

    /// `text` fitted to exactly `columns`: cut, then padded with spaces.
    public static func padded(_ text: String, columns: Int) -> String {
        let fitted = fit(text, columns: columns)
        let missing = columns - width(fitted)
        return missing > 0 ? fitted + String(repeating: " ", count: missing) : fitted
    }
}
