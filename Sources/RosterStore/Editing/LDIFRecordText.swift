#if !ROSTER_FUZZ
import RosterCore
#endif

/// One change to one LDIF entry (`roster update file.ldif dn=… title=…`).
public enum LDIFEdit: Equatable, Sendable {
    /// `attribute` holds exactly `values` (none: it goes): its first line
    /// is written again where it stands, its other lines go, more values follow it.
    case set(attribute: String, values: [String])
    /// One more value, after the attribute's last line (else at the entry's end).
    case add(attribute: String, value: String)
    /// The lines of `attribute` holding `value` go.
    case remove(attribute: String, value: String)
}

/// An LDIF entry's text, edited in place: the lines an edit touches are
/// written anew (base64 where RFC 2849 requires it, folded at 76
/// columns), every other byte stays: the other attributes, their order,
/// options, continuations, comments, line ends.
public enum LDIFRecordText {
    struct EntryLine {
        var bytes: ArraySlice<UInt8>
        var field: RecordField?
    }

    /// `entry` (from its `dn:` to the end of its last line) with `edits` made.
    public static func edited(_ entry: [UInt8], _ edits: [LDIFEdit]) throws(EditFailure) -> [UInt8] {
        var lines = try entryLines(entry)
        let lineEnd: [UInt8] = entry.firstIndex(of: 0x0A).map { $0 > 0 && entry[$0 - 1] == 0x0D } == true ? [0x0D, 0x0A] : [0x0A]
        for edit in edits {
            let name = switch edit {
            case .set(let attribute, _), .add(let attribute, _), .remove(let attribute, _): attribute
            }
            guard name.lowercased() != "dn" else {
                throw EditFailure(.invalid, "an entry's dn is its name and cannot be changed here (that is a modrdn); nothing written")
            }
            apply(edit, to: &lines, lineEnd: lineEnd)
        }
        return Array(lines.map(\.bytes).joined())
    }

    private static func apply(_ edit: LDIFEdit, to lines: inout [EntryLine], lineEnd: [UInt8]) {
        func indices(_ name: String) -> [Int] {
            lines.indices.filter { lines[$0].field?.name.lowercased() == name.lowercased() }
        }
        func line(_ name: String, _ value: String) -> EntryLine {
            EntryLine(bytes: attributeLine(name, value, lineEnd: lineEnd)[...], field: nil)
        }
        switch edit {
        case .set(let name, let values):
            let existing = indices(name)
            let spelled = existing.first.flatMap { lines[$0].field?.name } ?? name
            let new = values.map { line(spelled, $0) }
            guard let first = existing.first else {
                lines.insert(contentsOf: new, at: endOfAttributes(lines))
                return
            }
            lines = lines.enumerated().flatMap { index, kept in
                index == first ? new : existing.contains(index) ? [] : [kept]
            }
        case .add(let name, let value):
            let after = indices(name).last.map { $0 + 1 } ?? endOfAttributes(lines)
            lines.insert(line(indices(name).last.flatMap { lines[$0].field?.name } ?? name, value), at: after)
        case .remove(let name, let value):
            let gone = Set(indices(name).filter { lines[$0].field?.text == value })
            lines = lines.enumerated().filter { !gone.contains($0.offset) }.map(\.element)
        }
    }

    /// Where a new attribute goes: after the last attribute line (before
    /// any blank line or comment that ends the entry).
    private static func endOfAttributes(_ lines: [EntryLine]) -> Int {
        (lines.lastIndex { $0.field != nil } ?? (lines.count - 1)) + 1
    }

    /// The entry's lines: each attribute line with its continuations and
    /// line break, and the comments and blank lines between them as lines of their own.
    static func entryLines(_ entry: [UInt8]) throws(EditFailure) -> [EntryLine] {
        let reader = LDIFEntryReader()
        _ = entry.withUnsafeBufferPointer { reader.scan($0, from: 0, line: 1, isFinal: true) }
        var sink = ArraySink()
        entry.withUnsafeBufferPointer { reader.emit($0, base: 0, entry: 0..<$0.count, line: 1, into: &sink) }
        guard let record = sink.records.first else {
            throw EditFailure(.unreadable, sink.skippedRecords.first.map { "the entry is not readable: \($0.reason)" } ?? "the entry is empty")
        }
        var lines: [EntryLine] = []
        var position = 0
        for logical in reader.lines {
            if logical.start > position { lines.append(EntryLine(bytes: entry[position..<logical.start], field: nil)) }
            var end = logical.end
            if end < entry.count, entry[end] == 0x0D { end += 1 }
            if end < entry.count, entry[end] == 0x0A { end += 1 }
            lines.append(EntryLine(bytes: entry[logical.start..<end], field: record.fields.first { $0.line == logical.line }))
            position = end
        }
        if position < entry.count { lines.append(EntryLine(bytes: entry[position...], field: nil)) }
        return lines
    }

    /// `name: value`, or `name:: base64` where RFC 2849 wants it: a value
    /// that starts with a space, `:` or `<`, ends with a space, or holds
    /// anything but printable ASCII. Folded at 76 columns.
    static func attributeLine(_ name: String, _ value: String, lineEnd: [UInt8]) -> [UInt8] {
        let bytes = Array(value.utf8)
        let isSafe = bytes.first.map { $0 != 0x20 && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "<") } ?? true
            && bytes.last != 0x20 && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        let line = isSafe ? Array((name + ": ").utf8) + bytes : Array((name + ":: " + base64(bytes)).utf8)
        var output: [UInt8] = []
        var start = 0
        var width = 76
        while line.count - start > width {
            output += line[start..<(start + width)] + lineEnd + [0x20]
            start += width
            width = 75
        }
        return output + line[start...] + lineEnd
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for position in 0..<4 {
                output.append(position <= chunk.count ? letters[Int(value >> (18 - 6 * UInt32(position)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
