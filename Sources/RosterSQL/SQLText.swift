/// The two ways user text may enter a statement other than as a bound
/// parameter: as a quoted identifier (`--table NAME`) or inside a pattern
/// that is itself bound (a search term in `LIKE`).
public enum SQLText {
    /// `name` as a double-quoted SQL identifier, inner quotes doubled:
    /// `my "table"` → `"my ""table"""`. Both PostgreSQL and SQLite read it
    /// as exactly that name, case kept, whatever it contains.
    public static func identifier(_ name: String) -> String {
        doublingQuotes(name)
    }

    /// A `LIKE … ESCAPE '\'` pattern matching any text that contains `text`:
    /// `%`, `_` and `\` in it match only themselves. Bind the result as a
    /// parameter; it is never spliced into SQL.
    public static func containsPattern(_ text: String) -> String {
        var pattern = "%"
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// An FTS5 query matching `text` as one phrase (the trigram tokenizer
    /// then finds it anywhere): quotes doubled, so operators such as `OR`,
    /// `NEAR` or `*` in what the user typed stay plain text. Bind it.
    public static func ftsPhrase(_ text: String) -> String {
        doublingQuotes(text)
    }

    /// `text` in double quotes, each quote inside doubled.
    private static func doublingQuotes(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            if character == "\"" { quoted.append("\"") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
