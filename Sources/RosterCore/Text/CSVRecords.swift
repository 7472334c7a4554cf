/// Splits RFC 4180 text into records of fields: quoted fields may hold
/// commas, doubled quotes and line breaks; records end with CRLF or LF.
///
/// Small on purpose: it reads back what `DirectoryExporter` writes (its
/// round trip is fuzzed), and is where a CSV input reader starts.
public enum CSVRecords {
    public enum Failure: Error, Equatable, Sendable {
        /// A quote opened at this record (1-based) never closes.
        case unclosedQuote(record: Int)
        /// Text right after a closing quote, in this record.
        case textAfterQuote(record: Int)
    }

    public static func parse(_ text: String) throws(Failure) -> [[String]] {
        var records: [[String]] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var inQuotes = false
        var afterQuote = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        func endField() {
            fields.append(String(field))
            field.removeAll()
            afterQuote = false
        }
        while let scalar = pending {
            pending = scalars.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.append("\"")
                        pending = scalars.next()
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                endField()
            case "\r" where pending == "\n":
                continue  // the LF ends the record
            case "\n":
                endField()
                records.append(fields)
                fields = []
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
            default:
                if afterQuote { throw .textAfterQuote(record: records.count + 1) }
                field.append(scalar)
            }
        }
        if inQuotes { throw .unclosedQuote(record: records.count + 1) }
        if !field.isEmpty || !fields.isEmpty || afterQuote {
            endField()
            records.append(fields)
        }
        return records
    }
}
