#if !ROSTER_FUZZ
import RosterCore
#endif

/// What each column of a CSV file's header holds (nil: a column Roster
/// does not read, kept as it is).
struct CSVColumns: Sendable {
    let columns: [PersonColumn?]

    /// The columns an edit of `column` writes: its own; for a text field
    /// without one, the alias the reader reads first (Google's `E-mail 1 -
    /// Value`), never the others (its `E-mail 2 - Value` stays as it is).
    func indices(of column: PersonColumn) -> [Int] {
        let exact = columns.indices.filter { columns[$0] == column }
        guard exact.isEmpty, case .text(let field) = column else { return exact }
        let aliases = columns.indices.compactMap { index -> (rank: Int, index: Int)? in
            guard case .alias(field, let rank)? = columns[index] else { return nil }
            return (rank, index)
        }
        return aliases.min { $0.rank < $1.rank }.map { [$0.index] } ?? []
    }
}

/// A CSV record's text, edited cell by cell: the cells an edit sets are
/// written anew (quoted only when they must be, and a text a spreadsheet
/// would run guarded as `--export csv` guards it), every other cell keeps
/// its bytes, quotes and all.
enum CSVRecordText {
    /// A record's cells as byte ranges (quotes included).
    static func cells(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (cells: [Range<Int>], end: Int, next: Int)? {
        var cells: [Range<Int>] = []
        var position = start
        var cellStart = start
        var inQuotes = false
        while position < bytes.count {
            let byte = bytes[position]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "\"") { position += 1 } else { inQuotes = false }
                }
            } else if byte == UInt8(ascii: "\"") {
                inQuotes = true
            } else if byte == UInt8(ascii: ",") {
                cells.append(cellStart..<position)
                cellStart = position + 1
            } else if byte == 0x0A || byte == 0x0D {
                // A record ends at LF, CRLF or a lone CR, as the loader reads them.
                let next = byte == 0x0D && position + 1 < bytes.count && bytes[position + 1] == 0x0A ? position + 2 : position + 1
                cells.append(cellStart..<position)
                return (cells, position, next)
            }
            position += 1
        }
        if inQuotes { return nil }
        cells.append(cellStart..<position)
        return (cells, position, position)
    }

    /// How many lines end in `bytes`: at each LF, and each CR not before one.
    static func lineEnds(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) {
            count += 1
        }
        return count
    }

    /// A cell's text: unquoted, doubled quotes made single.
    static func text(of cell: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        var slice = bytes[cell]
        guard slice.first == UInt8(ascii: "\""), slice.count >= 2, slice.last == UInt8(ascii: "\"") else {
            return String(decoding: slice, as: UTF8.self)
        }
        slice = slice.dropFirst().dropLast()
        var result: [UInt8] = []
        var skipNext = false
        for (offset, byte) in zip(slice.indices, slice) {
            if skipNext {
                skipNext = false
                continue
            }
            result.append(byte)
            if byte == UInt8(ascii: "\""), offset + 1 < slice.endIndex, slice[offset + 1] == UInt8(ascii: "\"") { skipNext = true }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether the header of CSV text `bytes` (its start is enough) names
    /// an `_id` column; nil when no whole header is in it.
    static func headerNamesID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let header = headerRow(bytes, from: InputFormat.startsWithByteOrderMark(bytes) ? InputFormat.byteOrderMark.count : 0),
              header.next < bytes.count else { return nil }
        return !CSVColumns(columns: header.cells.map { PersonColumn(header: text(of: $0, in: bytes)) }).indices(of: .text(.id)).isEmpty
    }

    /// The header and the records after it, each with its `_id` (the
    /// `id` column's cell) when the header has one.
    static func layout(_ bytes: UnsafeBufferPointer<UInt8>, sourceName: String) throws(EditFailure) -> RecordLayout {
        let start = InputFormat.startsWithByteOrderMark(bytes) ? InputFormat.byteOrderMark.count : 0
        guard let header = headerRow(bytes, from: start) else {
            throw EditFailure(.unreadable, "\(sourceName), line 1: a quote in the header never closes; nothing written")
        }
        let columns = CSVColumns(columns: header.cells.map { PersonColumn(header: text(of: $0, in: bytes)) })
        let idColumn = columns.indices(of: .text(.id)).first
        var records: [RecordFile.RecordSpan] = []
        var position = header.next
        var line = 1 + lineEnds(in: UnsafeBufferPointer(rebasing: bytes[start..<header.next]))
        while position < bytes.count {
            guard let record = cells(bytes, from: position) else {
                let (line, column) = JSONRecordText.lineAndColumn(of: position, in: bytes)
                throw EditFailure(.unreadable, "\(sourceName), line \(line), column \(column): a quote never closes; nothing written")
            }
            let isBlank = record.end == position
            if !isBlank {
                let id = idColumn.flatMap { $0 < record.cells.count ? text(of: record.cells[$0], in: bytes) : nil }
                records.append(RecordFile.RecordSpan(span: position..<record.end, id: id?.isEmpty == false ? id : nil, line: line))
            }
            line += lineEnds(in: UnsafeBufferPointer(rebasing: bytes[position..<record.next]))
            position = record.next
        }
        return RecordLayout(records: records, start: records.first?.span.lowerBound ?? header.next,
                            end: records.last?.span.upperBound ?? header.next, columns: columns)
    }

    /// The header row: the first, or the first after notes before it (as
    /// the reader passes them over: `PersonColumn.isPreamble`) and blank lines.
    private static func headerRow(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (cells: [Range<Int>], end: Int, next: Int)? {
        var row = cells(bytes, from: start)
        var rowStart = start
        var notes = 0
        while let found = row, found.next < bytes.count, notes < 10 {
            let isBlank = found.end == rowStart
            guard isBlank || PersonColumn.isPreamble(found.cells.map { text(of: $0, in: bytes) }) else { break }
            if !isBlank { notes += 1 }
            rowStart = found.next
            row = cells(bytes, from: rowStart)
        }
        return row
    }

    /// The record at `span` with `changes` made.
    static func edited(_ bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>, _ changes: [FieldChange], columns: CSVColumns,
                       sourceName: String) throws(EditFailure) -> [UInt8] {
        guard let record = cells(UnsafeBufferPointer(rebasing: bytes[..<span.upperBound]), from: span.lowerBound) else {
            throw EditFailure(.unreadable, "\(sourceName): the record is not readable CSV")
        }
        var texts = record.cells.map { Array(bytes[$0]) }
        let old = { (index: Int) -> String in
            index < record.cells.count ? SpreadsheetCell.unguarded(text(of: record.cells[index], in: bytes)) : ""
        }
        for (index, cell) in try cellTexts(changes, columns: columns, old: old, sourceName: sourceName) {
            guard index < texts.count else {
                throw EditFailure(.failed, "\(sourceName): the record has fewer cells than the header; nothing written")
            }
            texts[index] = Array(DirectoryExporter.csvField(written(cell, in: columns.columns[index])).utf8)
        }
        return Array(texts.joined(separator: [UInt8(ascii: ",")]))
    }

    /// The record at `span` with the cell of `column` (one Roster reads no
    /// field from: a manager's) set to `text`, guarded as text cells are.
    static func setting(column: Int, to text: String, in bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>,
                        sourceName: String) throws(EditFailure) -> [UInt8] {
        guard let record = cells(UnsafeBufferPointer(rebasing: bytes[..<span.upperBound]), from: span.lowerBound) else {
            throw EditFailure(.unreadable, "\(sourceName): the record is not readable CSV; nothing written")
        }
        var texts = record.cells.map { Array(bytes[$0]) }
        // A short row (a spreadsheet drops empty cells at its end) gets the cells up to the column.
        while texts.count <= column { texts.append([]) }
        texts[column] = Array(DirectoryExporter.csvField(SpreadsheetCell.guarded(text)).utf8)
        return Array(texts.joined(separator: [UInt8(ascii: ",")]))
    }

    /// A new row: the `_id` in the id column, the changes in theirs, every other cell empty.
    static func new(id: String, changes: [FieldChange], columns: CSVColumns, sourceName: String) throws(EditFailure) -> [UInt8] {
        guard let idColumn = columns.indices(of: .text(.id)).first else {
            throw EditFailure(.failed, "\(sourceName) has no id column, so a new person could not be found again; nothing written")
        }
        var texts = [String](repeating: "", count: columns.columns.count)
        texts[idColumn] = id
        for (index, cell) in try cellTexts(changes, columns: columns, old: { _ in "" }, sourceName: sourceName) {
            texts[index] = written(cell, in: columns.columns[index])
        }
        return Array(texts.map(DirectoryExporter.csvField).joined(separator: ",").utf8)
    }

    /// A cell's text as an edit writes it: in a column read as text, with
    /// the `'` that keeps a spreadsheet from running it (as `--export csv`
    /// writes it; the reader takes it off again); a number as it is.
    private static func written(_ text: String, in column: PersonColumn?) -> String {
        switch column {
        case .text?, .wholeName?, .balanceText?, .alias?, .fallbackName?, .addressPart?: SpreadsheetCell.guarded(text)
        case .balanceNumber?, .index?, .age?, .active?, nil: text
        }
    }

    /// Each change as the cells it writes: (column, text).
    private static func cellTexts(_ changes: [FieldChange], columns: CSVColumns, old: (Int) -> String,
                                  sourceName: String) throws(EditFailure) -> [(Int, String)] {
        var cells: [(Int, String)] = []
        var nameChanges: [(field: TextField, text: String)] = []
        for change in changes {
            var written: [(Int, String)] = []
            switch change.value {
            case .text, .absent:
                guard case .text(let field) = change.field else { continue }
                // A CSV row has every column: an absent field is an empty cell.
                let text = if case .text(let text) = change.value { text } else { "" }
                written = columns.indices(of: .text(field)).map { ($0, text) }
                if field == .firstName || field == .lastName {
                    nameChanges.append((field, text))
                    if written.isEmpty, !columns.indices(of: .wholeName).isEmpty { continue }  // the whole name's cells say it
                }
            case .age(let age):
                written = columns.indices(of: .age).map { ($0, age.map(String.init) ?? "") }
            case .balance(let cents):
                written = columns.indices(of: .balanceText).map { ($0, cents.map { Balance.format(cents: $0) } ?? "") }
                    + columns.indices(of: .balanceNumber).map { ($0, cents.map(DirectoryExporter.plainAmount) ?? "") }
            case .active(let active):
                written = columns.indices(of: .active).map { index in (index, active.map { activeText($0, like: old(index)) } ?? "") }
            }
            guard !written.isEmpty else {
                throw EditFailure(.failed, "\(sourceName) has no column for \(change.field.name); nothing written")
            }
            cells += written
        }
        return cells + (try wholeNameCells(nameChanges, columns: columns, old: old, sourceName: sourceName))
    }

    /// The whole-name cells (a `name` column) with the name's halves
    /// changed, the other half kept as the cell read (`WholeName`). A cell
    /// that says nothing is left so where first and last name columns say
    /// the changed halves. A name the cell cannot hold (a last name of two
    /// words, a first name without a last) is refused: it would read back
    /// as another.
    private static func wholeNameCells(_ changes: [(field: TextField, text: String)], columns: CSVColumns, old: (Int) -> String,
                                       sourceName: String) throws(EditFailure) -> [(Int, String)] {
        guard !changes.isEmpty else { return [] }
        let halvesHaveColumns = changes.allSatisfy { !columns.indices(of: .text($0.field)).isEmpty }
        var cells: [(Int, String)] = []
        for index in columns.indices(of: .wholeName) where !(halvesHaveColumns && old(index).isEmpty) {
            var (first, last) = WholeName.halves(of: old(index))
            for change in changes {
                if change.field == .firstName { first = change.text } else { last = change.text }
            }
            guard let text = WholeName.text(first: first, last: last) else {
                throw EditFailure(.failed, "\(sourceName): its name column holds the whole name and reads its last word as the last name, "
                                  + "so first '\(DisplayText.sanitized(first))', last '\(DisplayText.sanitized(last))' would not read back as given; "
                                  + "nothing written")
            }
            cells.append((index, text))
        }
        return cells
    }

    /// Yes or no in the spelling the cell had (`yes`, `1`, `true`…).
    static func activeText(_ active: Bool, like old: String) -> String {
        switch old.lowercased() {
        case "yes", "no": return active ? "yes" : "no"
        case "y", "n": return active ? "y" : "n"
        case "1", "0": return active ? "1" : "0"
        default: return active ? "true" : "false"
        }
    }
}
