#if canImport(Glibc)
import Glibc
#endif

/// How wide the C library says each character is, in any UTF-8 locale.
///
/// ncurses places characters by the C library's `wcwidth`, and so does a
/// terminal like tmux: when Roster's own idea of a width differs, every cell
/// after it on the row shifts. So widths come from the C library itself,
/// read once (under `C.UTF-8`, whatever the process's locale) into a table.
/// A character it doesn't know (an emoji newer than its tables), or one it
/// gives no width though it is neither a mark nor a format character
/// (Hangul vowel and final jamo standing alone), is shown as `�` instead:
/// terminals disagree about those, and a disagreement moves the balance.
enum CharacterWidths {
    /// 0, 1 or 2 columns, or `unknown`, for scalars below `tableEnd`.
    static let unknown: UInt8 = 0xFF
    static let tableEnd: UInt32 = 0x40000

    static let table: [UInt8] = {
        var table = [UInt8](repeating: unknown, count: Int(tableEnd))
        guard let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) else { return table }
        let previous = uselocale(utf8)
        for value in 0..<tableEnd where !(0xD800...0xDFFF).contains(value) {
            let width = c_wcwidth(wchar_t(bitPattern: value))
            if width >= 0 { table[Int(value)] = UInt8(min(width, 2)) }
        }
        uselocale(previous)
        freelocale(utf8)
        return table
    }()

    /// The C library's width of `scalar`, or nil when it doesn't know it.
    static func libraryWidth(of scalar: Unicode.Scalar) -> Int? {
        let value = scalar.value
        if value >= 0xE0000 && value < 0xE1000 { return 0 }  // tags and variation selectors: invisible
        guard value < tableEnd else { return nil }
        let width = table[Int(value)]
        return width == unknown ? nil : Int(width)
    }

    /// Whether terminals may draw `scalar` with another width than ncurses
    /// expects: shown as `�` instead.
    static func needsStandIn(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return false }
        guard let width = libraryWidth(of: scalar) else { return true }
        if width > 0 { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark, .format: return false
        default: return true
        }
    }
}

/// `wcwidth(3)`: Glibc's Swift module leaves it out (it is declared only
/// under `_XOPEN_SOURCE`), and this target has no C shim of its own.
@_silgen_name("wcwidth")
private func c_wcwidth(_ character: wchar_t) -> Int32
