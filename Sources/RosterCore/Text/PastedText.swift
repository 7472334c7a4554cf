/// Text that arrives in one piece (a paste, or keys typed ahead) made fit
/// for a one-line prompt: the data may be hostile, so no control character
/// reaches the line raw.
public enum PastedText {
    /// The most characters one paste adds (about a megabyte of text); the
    /// rest is dropped, so a runaway paste cannot exhaust memory.
    public static let limit = 1_000_000

    /// `text` with line breaks and tabs turned into spaces (a pasted list
    /// of names becomes terms) and every other control character dropped.
    public static func cleaned(_ text: String) -> String {
        var cleaned = ""
        cleaned.reserveCapacity(text.utf8.count)
        for character in text {
            if character.unicodeScalars.contains(where: isControl) {
                if character.isWhitespace { cleaned.append(" ") }
                continue
            }
            cleaned.append(character)
        }
        return cleaned
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
