#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// CSV with a header row (RFC 4180) into a `PeopleSegment`.
///
/// Quoted cells may hold commas, doubled quotes and line breaks; records end
/// with CRLF, LF or a lone CR (old Mac files), as RFC 4180 readers take
/// them; a UTF-8 byte order mark before the header is passed
/// over. The header names the columns (`PersonColumn`: matched ignoring
/// case, unknown ones ignored, missing ones missing; one of them must give
/// a name). An empty cell is a missing value. A text cell that
/// `--export csv` neutralised (`'=1+2`) loses that one added quote again.
///
/// Bad records are skipped with their line and reason, as JSON's are: a
/// record with more or fewer cells than the header, a wrong-typed value
/// (age `abc`), text after a closing quote. Only what leaves the rest
/// unreadable stops the load: a quote that never closes, a header without
/// a name column. A quote inside an unquoted cell (`5" disk`) is text.
struct CSVParser: ChunkParser {
    let segment = PeopleSegmentBuilder()
    private(set) var skipped: [SkippedRecord] = []
    /// Records after the header, people and skipped alike (blank lines are none).
    private(set) var elementCount = 0
    private(set) var line = 1
    /// Absolute offset where `line` starts (for columns in messages).
    private var lineStart = 0
    private let boundary: Int?
    private(set) var reachedBoundary = false
    /// What each header cell names; nil until the header is read.
    private(set) var columns: [PersonColumn?]?
    /// Stop once the header is read (finding the columns for a second core).
    private let headerOnly: Bool
    private var record = RecordScratch()
    /// A quoted cell with doubled quotes, decoded.
    private let decoded = ByteArena(capacity: 256)
    private var headerCells: [String] = []
    /// Where this record's balance came from: `balance_text` wins over `balance`.
    private var balanceFromText = false
    /// Passing over a record longer than the limit, up to its line end.
    private var skippingRecord = false
    /// Other programs' columns (`PersonColumnAliases`), read until the record ends.
    private var aliases = CSVAliasScratch()
    /// Notes before the header passed over (LinkedIn's), up to ten.
    private var preambleRows = 0

    /// A parser that reads the header itself (from the start of the input),
    /// or, given `columns`, one that starts on a record at `startOffset`.
    init(columns: [PersonColumn?]? = nil, boundary: Int? = nil, expectedPeople: Int = 0, startOffset: Int = 0, headerOnly: Bool = false) {
        self.columns = columns
        aliases.isUsed = columns?.contains { $0?.isAliasLike == true } ?? false
        self.boundary = boundary
        self.headerOnly = headerOnly
        lineStart = startOffset
        segment.reserve(people: expectedPeople)
    }

    func finishedSegment() -> PeopleSegment {
        segment.freeze()
    }

    /// One cell as scanned: its bytes (quotes removed, doubled quotes
    /// decoded) and whether it was quoted.
    private struct Cell {
        var bytes: UnsafeBufferPointer<UInt8>
        var quoted: Bool
    }

    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, isFinal: Bool) throws(ParseError) -> Int {
        var position = 0
        let mark = InputFormat.byteOrderMark
        if base == 0, columns == nil, InputFormat.startsWithByteOrderMark(bytes) {
            position = mark.count
        } else if base == 0, columns == nil, bytes.count < mark.count, !isFinal, bytes.starts(with: mark.prefix(bytes.count)) {
            return 0
        }
        while position < bytes.count {
            if columns != nil, headerOnly { return position }
            if let boundary, base + position == boundary {
                reachedBoundary = true
                return position
            }
            if skippingRecord {
                position = passLongRecord(bytes, from: position, base: base, isFinal: isFinal)
                if skippingRecord { return position }  // the rest of it comes with more input
                continue
            }
            guard let next = try parseRecord(bytes, from: position, base: base, isFinal: isFinal) else { return position }
            position = next
        }
        if isFinal, columns == nil {
            throw .invalid("no header row: expected one naming the columns (first_name,last_name,company,…)", location: nil)
        }
        return position
    }

    /// Parses the record starting at `start`; returns where the next one
    /// starts, or nil when the buffer ends inside this one.
    private mutating func parseRecord(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, base: Int, isFinal: Bool) throws(ParseError) -> Int? {
        let count = bytes.count
        var position = start
        var cellIndex = 0
        var lines = 0
        var lastLineStart = lineStart
        var problem: String?
        var isBlank = true
        beginRecord()
        while true {
            // One cell.
            var cell: Cell
            var cellEnd: Int
            if position < count, bytes[position] == UInt8(ascii: "\"") {
                isBlank = false
                guard let quoted = try quotedCell(bytes, at: position, base: base, isFinal: isFinal, lines: &lines,
                                                  lastLineStart: &lastLineStart) else { return nil }
                cell = quoted.cell
                position = quoted.end
                cellEnd = Self.endOfCell(bytes, from: position)
                if cellEnd > position, problem == nil {
                    problem = "text after the closing quote of column \(cellIndex + 1)"
                }
            } else {
                cellEnd = Self.endOfCell(bytes, from: position)
                cell = Cell(bytes: UnsafeBufferPointer(rebasing: bytes[position..<cellEnd]), quoted: false)
                if cellEnd > position { isBlank = false }
            }
            // What ends it: a comma, a line break, or the end of the input.
            var separator: UInt8 = 0x0A
            var next = cellEnd
            if cellEnd < count {
                separator = bytes[cellEnd]
                if separator == 0x0D {
                    guard cellEnd + 1 < count else {
                        if !isFinal { return nil }
                        apply(cell, at: cellIndex, problem: &problem)
                        cellIndex += 1
                        position = cellEnd + 1  // a CR ending the input ends the record
                        break
                    }
                    next = bytes[cellEnd + 1] == 0x0A ? cellEnd + 2 : cellEnd + 1  // CRLF, or a lone CR
                } else {
                    next = cellEnd + 1
                }
            } else if !isFinal {
                return nil
            }
            if separator == UInt8(ascii: ",") { isBlank = false }
            apply(cell, at: cellIndex, problem: &problem)
            cellIndex += 1
            position = next
            if separator != UInt8(ascii: ",") { break }
        }
        return try endRecord(at: position, cells: cellIndex, lines: lines, isBlank: isBlank, problem: problem,
                             bytes: bytes, start: start, base: base)
    }

    /// Empties what the last record (or the header) left.
    @inline(__always)
    private mutating func beginRecord() {
        if columns != nil {
            record.reset()
            balanceFromText = false
            if aliases.isUsed { aliases.reset() }
        } else {
            headerCells.removeAll(keepingCapacity: true)
        }
    }

    /// The record from `start` ended at `position` (after its line break,
    /// if any), with `cells` cells over `lines` more lines: the header
    /// read, the record kept, or skipped with why. Returns `position`.
    @inline(__always)
    private mutating func endRecord(at position: Int, cells: Int, lines: Int, isBlank: Bool, problem: String?,
                                    bytes: UnsafeBufferPointer<UInt8>, start: Int, base: Int) throws(ParseError) -> Int {
        let recordLine = line
        line += lines + 1
        lineStart = base + position
        if isBlank, cells == 1 { return position }  // a blank line is no record
        guard let columns else {
            try readHeader(line: recordLine, base: base, start: start, bytes: bytes)
            return position
        }
        elementCount += 1
        if aliases.isUsed { aliases.finish(&record) }
        var problem = problem
        if problem == nil, cells != columns.count {
            problem = "\(cells) \(cells == 1 ? "cell" : "cells") where the header has \(columns.count)"
        }
        if problem == nil, !record.hasUsableName { problem = "no name (needs first_name or last_name)" }
        if problem == nil, let scratchProblem = record.problem { problem = scratchProblem }
        if let problem {
            skipped.append(SkippedRecord(number: elementCount, line: recordLine, reason: problem))
        } else {
            record.commit(to: segment, fileOffset: base + start)
        }
        return position
    }

    /// The quoted cell opening at `opening`: its text (a doubled quote read
    /// as one) and where it ends, after the closing quote; nil when the
    /// buffer ends inside it. Line breaks inside are counted in `lines`.
    @inline(__always)
    private mutating func quotedCell(_ bytes: UnsafeBufferPointer<UInt8>, at opening: Int, base: Int, isFinal: Bool,
                                     lines: inout Int, lastLineStart: inout Int) throws(ParseError) -> (cell: Cell, end: Int)? {
        let count = bytes.count
        let (openingLine, openingLineStart) = (line + lines, lastLineStart)
        var position = opening + 1
        var contentStart = position
        var hasDoubled = false
        decoded.removeAll()
        while true {
            guard let quote = Self.find(UInt8(ascii: "\""), in: bytes, from: position) else {
                guard isFinal else { return nil }
                throw .invalid("a quote opened here never closes (is the file truncated?)",
                               location: location(of: base + opening, in: bytes, base: base, line: openingLine, lineStart: openingLineStart))
            }
            for index in position..<quote where Self.endsLine(bytes, at: index) {
                lines += 1
                lastLineStart = base + index + 1
            }
            if quote + 1 < count, bytes[quote + 1] == UInt8(ascii: "\"") {
                hasDoubled = true
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<(quote + 1)]))
                position = quote + 2
                contentStart = position
                continue
            }
            if quote + 1 == count, !isFinal { return nil }  // a doubled quote may follow
            guard hasDoubled else { return (Cell(bytes: UnsafeBufferPointer(rebasing: bytes[contentStart..<quote]), quoted: true), quote + 1) }
            decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<quote]))
            return (Cell(bytes: decoded.bytes(0..<decoded.count), quoted: true), quote + 1)
        }
    }

    /// A record longer than the limit is skipped when it has no quote (its
    /// line end is then its end); with one, a line break may be text, and
    /// the load stops. So does a header that long.
    mutating func skipLongRecord(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
        guard columns != nil, Self.find(UInt8(ascii: "\""), in: bytes, from: 0) == nil else { return false }
        elementCount += 1
        skipped.append(SkippedRecord(number: elementCount, line: line, reason: Self.tooLong(limit)))
        skippingRecord = true
        return true
    }

    /// Where the next record starts after the long one's line end; while
    /// `skippingRecord` stays set, how far the long one was passed over.
    private mutating func passLongRecord(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, base: Int, isFinal: Bool) -> Int {
        guard let end = bytes[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else {
            if isFinal { skippingRecord = false }
            return bytes.count
        }
        if bytes[end] == 0x0D, end + 1 == bytes.count, !isFinal { return end }  // an LF may follow
        let next = bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? end + 2 : end + 1
        skippingRecord = false
        line += 1
        lineStart = base + next
        return next
    }

    /// The offset of the first `,`, CR or LF at or after `start` in
    /// unquoted text, or the end of the buffer.
    @inline(__always)
    private static func endOfCell(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var position = start
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            if byte == UInt8(ascii: ",") || byte == 0x0A || byte == 0x0D { return position }
            position += 1
        }
        return position
    }

    /// Whether a line ends at `index`: an LF, or a CR not before an LF.
    @inline(__always)
    private static func endsLine(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A))
    }

    @inline(__always)
    private static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
              let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    // MARK: Cells

    private mutating func apply(_ cell: Cell, at index: Int, problem: inout String?) {
        guard let columns else {
            headerCells.append(String(decoding: cell.bytes, as: UTF8.self))
            return
        }
        guard index < columns.count, let column = columns[index], !cell.bytes.isEmpty else { return }
        switch column {
        case .text(let field):
            record.setText(field, Self.withoutAddedQuote(cell.bytes))
            if aliases.isUsed { aliases.noteExact(field) }
        case .alias, .fallbackName, .addressPart:
            aliases.take(Self.withoutAddedQuote(cell.bytes), as: column, into: &record)
        case .wholeName:
            record.setWholeName(Self.withoutAddedQuote(cell.bytes))
        case .balanceText:
            record.setText(.balance, Self.withoutAddedQuote(cell.bytes))
            balanceFromText = true
        case .balanceNumber:
            if !balanceFromText { record.setText(.balance, cell.bytes) }
        case .age, .index:
            let value = PeopleParser.wholeNumber(Self.trimmed(cell.bytes))
            switch (column, value) {
            case (.age, .some(let age)) where age >= Int(Int32.min) + 1 && age <= Int(Int32.max):
                record.age = Int32(age)
            case (.index, .some(let index)) where index != Int.min:
                record.index = index
            default:
                // As JSON says it: 2147483648 is whole but too large; 3.5 and abc are no whole numbers.
                let whole = !cell.bytes.isEmpty && Self.trimmed(cell.bytes).allSatisfy { $0 == UInt8(ascii: "-") || $0 &- UInt8(ascii: "0") < 10 }
                let reason = whole ? "is out of range" : "should be a whole number"
                if problem == nil { problem = "'\(column.name)' \(reason), found \(Self.quoted(cell.bytes))" }
            }
        case .active:
            switch String(decoding: Self.trimmed(cell.bytes), as: UTF8.self).lowercased() {
            case "true", "yes", "1": record.active = 1
            case "false", "no", "0": record.active = 0
            default: if problem == nil { problem = "'active' should be true or false, found \(Self.quoted(cell.bytes))" }
            }
        }
    }

    // MARK: The header

    private mutating func readHeader(line: Int, base: Int, start: Int, bytes: UnsafeBufferPointer<UInt8>) throws(ParseError) {
        if preambleRows < 10, PersonColumn.isPreamble(headerCells) {
            preambleRows += 1
            return
        }
        let found = headerCells.map { PersonColumn(header: $0) }
        guard found.contains(where: { $0?.isName == true }) else {
            let shown = headerCells.prefix(4).joined(separator: ",") + (headerCells.count > 4 ? ",…" : "")
            throw .invalid("the CSV header names no first_name, last_name or name column (it reads \(Self.quoted(shown)))",
                           location: ParseLocation(line: line, column: 1, offset: base + start))
        }
        columns = found
        aliases.isUsed = found.contains { $0?.isAliasLike == true }
    }

    private static func quoted(_ text: String) -> String {
        "'" + (text.count > 60 ? text.prefix(60) + "…" : text) + "'"
    }

    /// Line and column (in characters) of `offset`, counted from the line's
    /// start when that is in the buffer (else in bytes).
    private func location(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>, base: Int, line: Int, lineStart: Int) -> ParseLocation {
        var column = offset - lineStart + 1
        let from = lineStart - base
        let to = offset - base
        if from >= 0, to <= bytes.count, from <= to {
            column = 1 + bytes[from..<to].reduce(0) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) }
        }
        return ParseLocation(line: line, column: column, offset: offset)
    }

    // MARK: Two cores

    /// Just after a line feed near `middle`. Only a guess: inside a quoted
    /// cell a line feed is text, so the first half verifies it by arriving
    /// there exactly at a record's start (`PeopleLoader.loadHalves`).
    static func findBoundary(in bytes: UnsafeBufferPointer<UInt8>, startingAt offset: Int) -> Int? {
        JSONLinesParser.findBoundary(in: bytes, startingAt: offset)
    }
}
