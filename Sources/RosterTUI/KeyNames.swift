import RosterCore

extension Key {
    /// How a message names the key, as the help writes keys: `x`, `Ctrl-X`,
    /// `F5`, `Space`, `PgDn`. A control character or an invisible one is
    /// named, never written raw (it could act on the terminal); nil for
    /// what is not a key pressed (a resize, a paste, the mouse, text typed ahead).
    public var spokenName: String? {
        switch self {
        case .character(" "): return "Space"
        case .character(let character): return Self.name(of: character)
        case .control(let letter): return "Ctrl-" + Self.name(of: Character(letter.uppercased()))
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .shiftUp: return "Shift-↑"
        case .shiftDown: return "Shift-↓"
        case .function(let number): return "F\(number)"
        case .unknown: return "that key"
        case .resize, .mouse, .paste, .typed: return nil
        }
    }

    /// A character as itself when it prints as itself; a C0 control as the
    /// Ctrl key that types it (`Ctrl-@`, `Ctrl-]`); anything else invisible
    /// or unsafe by its code points (`U+200B`).
    private static func name(of character: Character) -> String {
        let text = String(character)
        if DisplayText.sanitized(text) == text, DisplayText.width(of: character) > 0 { return text }
        let scalars = character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first, scalar.value < 0x20 {
            return "Ctrl-" + String(Character(Unicode.Scalar(UInt8(scalar.value + 0x40))))
        }
        return scalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(separator: " ")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
