import Foundation
#if !ROSTER_FUZZ
import RosterCore
#endif

/// Turns the bytes of a JSON array of people into a `PeopleSegment`.
///
/// It is fed the input one buffer at a time (`parse`), never needs the
/// whole file, and builds no intermediate tree: text goes straight from the
/// input into the segment's arena. An element cut by the end of a buffer is
/// given back (the returned count stops before it) and parsed again from its
/// start once more input has arrived. Syntax errors stop the load; elements
/// that are good JSON but not people are skipped and recorded.
struct PeopleParser {
    enum Phase {
        case beforeArray, firstElement, element, afterElement, afterArray
    }

    /// Why a record without a name (a reader would see) is skipped.
    static let noName = "no name (needs name.first or name.last)"

    let segment = PeopleSegmentBuilder()
    private(set) var skipped: [SkippedRecord] = []
    private(set) var phase: Phase
    /// Elements seen so far, people and skipped alike.
    private(set) var elementCount = 0
    private(set) var line = 1
    private(set) var lineStart = 0
    /// Absolute offset of an element start where this parser stops (the
    /// next parser took over from there); `nil` to parse to the end.
    private let boundary: Int?
    private(set) var reachedBoundary = false

    private var record = RecordScratch()
    /// The known keys in the order most files list them, quoted, as words
    /// to compare at the cursor (`QuotedKeyWords`).
    private let expectedWords: [QuotedKeyWords] = RecordValue.jsonOrder.map { value in
        QuotedKeyWords(Array("\"\(value.jsonKey)\"".utf8), PersonKey(value))
    }
    private let keyBytes = ByteArena()
    /// Keeps only each record's `_id` and where it starts, passing over
    /// every other value (`PeopleLoader.locatesOnly`).
    private let locatesOnly: Bool

    init(startingInside: Bool = false, boundary: Int? = nil, expectedPeople: Int = 0, startOffset: Int = 0, locatesOnly: Bool = false) {
        self.locatesOnly = locatesOnly
        phase = startingInside ? .element : .beforeArray
        self.boundary = boundary
        lineStart = startOffset
        segment.reserve(people: expectedPeople)
    }

    /// The people parsed, with their company table attached.
    func finishedSegment() -> PeopleSegment {
        segment.freeze()
    }

    /// Parses as much of `bytes` as forms whole elements; returns how many
    /// bytes were used. The caller passes the rest again with more input.
    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, isFinal: Bool) throws(ParseError) -> Int {
        var cursor = JSONCursor(bytes: bytes, base: base, isFinal: isFinal, line: line, lineStart: lineStart)
        defer {
            line = cursor.line
            lineStart = cursor.lineStart
        }
        do {
            try parseElements(&cursor)
        } catch {
            switch error {
            case .needMore:
                break  // Wait for more input; whole elements parsed so far are kept.
            case .syntax(let message, let offset):
                throw .syntax(message, location: location(ofOffset: offset, in: cursor))
            case .notAList(let found):
                throw .notAnArray(found: found, location: location(ofOffset: cursor.absolutePosition, in: cursor))
            case .empty:
                throw .empty
            }
        }
        return cursor.position
    }

    /// Parses whole elements until the input, or this parser's part, ends.
    private mutating func parseElements(_ cursor: inout JSONCursor) throws(ScanFailure) {
        while !reachedBoundary {
            switch phase {
            case .beforeArray:
                cursor.skipWhitespace()
                if cursor.isAtEnd {
                    if cursor.isFinal { throw .empty }
                    return
                }
                // A UTF-8 byte-order mark at the very start is allowed (RFC 8259 §8.1).
                if cursor.absolutePosition == 0, cursor.startsWith(InputFormat.byteOrderMark) {
                    cursor.position += InputFormat.byteOrderMark.count
                    continue
                }
                let first = cursor.bytes[cursor.position]
                guard first == UInt8(ascii: "[") else { try rejectOtherDocument(&cursor) }
                cursor.position += 1
                phase = .firstElement
            case .firstElement:
                if try cursor.nextToken() == UInt8(ascii: "]") {
                    cursor.position += 1
                    phase = .afterArray
                } else {
                    phase = .element
                }
            case .element:
                cursor.skipWhitespace()
                if let boundary, cursor.absolutePosition == boundary {
                    reachedBoundary = true
                    return
                }
                let saved = (cursor.position, cursor.line, cursor.lineStart)
                do {
                    try parseElement(&cursor)
                } catch .needMore {
                    // Parse this element again from its start with more input.
                    (cursor.position, cursor.line, cursor.lineStart) = saved
                    throw .needMore
                }
                phase = .afterElement
            case .afterElement:
                let separator = try cursor.nextToken()
                if separator == UInt8(ascii: ",") {
                    phase = .element
                } else if separator == UInt8(ascii: "]") {
                    phase = .afterArray
                } else {
                    throw cursor.failure("expected ',' or ']' after a record, found \(cursor.describeByte(separator))")
                }
                cursor.position += 1
            case .afterArray:
                cursor.skipWhitespace()
                if cursor.isAtEnd { return }
                throw cursor.failure("found \(cursor.describeByte(cursor.bytes[cursor.position])) after the end of the list of people")
            }
        }
    }


    private func location(ofOffset offset: Int, in cursor: JSONCursor) -> ParseLocation {
        // Columns count characters, not bytes, when the line is at hand.
        var column = offset - cursor.lineStart + 1
        let lineStartInBuffer = cursor.lineStart - cursor.base
        let end = offset - cursor.base
        if lineStartInBuffer >= 0, end <= cursor.bytes.count, lineStartInBuffer <= end {
            column = 1 + cursor.bytes[lineStartInBuffer..<end].reduce(0) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) }
        }
        return ParseLocation(line: cursor.line, column: column, offset: offset)
    }

    /// The document is not a list: is it JSON at all? Something that cannot
    /// start a value is "not JSON"; a whole valid value is "not a list";
    /// anything else is the syntax error a conforming parser would report.
    private func rejectOtherDocument(_ cursor: inout JSONCursor) throws(ScanFailure) -> Never {
        let start = cursor.position
        let first = cursor.bytes[start]
        let found = cursor.describeByte(first)
        let startsValue = first == UInt8(ascii: "{") || first == UInt8(ascii: "\"") || first == UInt8(ascii: "-")
            || first &- UInt8(ascii: "0") < 10 || first == UInt8(ascii: "t") || first == UInt8(ascii: "f") || first == UInt8(ascii: "n")
        let raw = (0x21...0x7E).contains(first) ? "'\(Character(Unicode.Scalar(first)))'" : found
        let notJSON = ScanFailure.syntax("expected '[' to start a list of people, found \(raw) (is this a JSON file?)",
                                         offset: cursor.absolutePosition)
        guard startsValue else { throw notJSON }
        do {
            try cursor.skipValue()
        } catch {
            switch error {
            case .needMore:
                cursor.position = start
                throw .needMore
            case .syntax(_, let offset) where offset == cursor.base + start:
                throw notJSON  // "name,email": not even a first token
            default:
                throw error
            }
        }
        cursor.skipWhitespace()
        if !cursor.isAtEnd {
            throw cursor.failure("found \(cursor.describeByte(cursor.bytes[cursor.position])) after the end of the document")
        }
        guard cursor.isFinal else {
            cursor.position = start
            throw .needMore
        }
        throw .notAList(found: found)
    }

    // MARK: One element

    /// JSON Lines: one record that `cursor` holds alone (one line); text
    /// after the object skips the record rather than stopping the load.
    mutating func parseRecord(onItsOwnLine cursor: inout JSONCursor) throws(ScanFailure) {
        try parseElement(&cursor, aloneInCursor: true)
    }

    /// A record that is not even JSON (JSON Lines: one bad line), counted and listed.
    mutating func skipRecord(line: Int, reason: String) {
        elementCount += 1
        skipped.append(SkippedRecord(number: elementCount, line: line, reason: reason))
    }

    private mutating func parseElement(_ cursor: inout JSONCursor, aloneInCursor: Bool = false) throws(ScanFailure) {
        let number = elementCount + 1
        let line = cursor.line
        let first = try cursor.peek()
        guard first == UInt8(ascii: "{") else {
            let found = cursor.describeByte(first)
            try cursor.skipValue()
            elementCount += 1
            skipped.append(SkippedRecord(number: number, line: line, reason: "expected a person (an object), found \(found)"))
            return
        }
        let start = cursor.absolutePosition
        cursor.position += 1
        record.reset()
        if try cursor.nextToken() == UInt8(ascii: "}") {
            cursor.position += 1
        } else {
            var guess = 0
            while true {
                let key = try readKey(&cursor, guess: &guess)
                try cursor.expect(UInt8(ascii: ":"), "':' after a name")
                _ = try cursor.nextToken()
                try parseField(key, &cursor)
                let separator = try cursor.nextToken()
                cursor.position += 1
                if separator == UInt8(ascii: "}") { break }
                guard separator == UInt8(ascii: ",") else {
                    cursor.position -= 1
                    throw cursor.failure("expected ',' or '}' in a record, found \(cursor.describeByte(separator))")
                }
            }
        }
        if aloneInCursor {
            cursor.skipWhitespace()
            if !cursor.isAtEnd { record.noteProblem("text after the record on its line") }
        }
        elementCount += 1
        if record.problem == nil, !locatesOnly, !record.hasUsableName {
            record.problem = Self.noName
        }
        if let problem = record.problem {
            skipped.append(SkippedRecord(number: number, line: line, reason: problem))
        } else {
            record.commit(to: segment, fileOffset: start)
        }
    }

    /// The member name at the cursor, read past; nil for a name Roster
    /// does not know. `guess`: where the name is expected among the keys
    /// in the order most files list them (the one after the last).
    @inline(__always)
    private mutating func readKey(_ cursor: inout JSONCursor, guess: inout Int) throws(ScanFailure) -> PersonKey? {
        let quote = try cursor.nextToken()
        guard quote == UInt8(ascii: "\"") else {
            throw cursor.failure("expected a name in quotes, found \(cursor.describeByte(quote))")
        }
        if guess < expectedWords.count {
            // Most files list keys in the same order: no need to decode them.
            let expected = expectedWords[guess]
            if cursor.startsWith(expected) {
                guess += 1
                cursor.position += expected.count
                return expected.key
            }
        }
        keyBytes.removeAll()
        try cursor.scanString(into: keyBytes)
        let key = PersonKey(bytes: keyBytes.bytes(0..<keyBytes.count))
        if let key, let known = expectedWords.firstIndex(where: { $0.key == key }) { guess = known + 1 }
        return key
    }

    private mutating func parseField(_ key: PersonKey?, _ cursor: inout JSONCursor) throws(ScanFailure) {
        guard let key, !locatesOnly || key == .text(.id) else {
            try cursor.skipValue()
            return
        }
        let byte = cursor.bytes[cursor.position]
        switch key {
        case .text(let field):
            if byte == UInt8(ascii: "\"") {
                try record.scanText(field, from: &cursor)
            } else if byte == UInt8(ascii: "n"), try cursor.scanLiteral() == UInt8(ascii: "n") {
                record.clear(field)
            } else if field == .balance, byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 {
                let range = try cursor.scanNumber()
                record.setBalance(number: UnsafeBufferPointer(rebasing: cursor.bytes[range]))
            } else {
                try wrongType(key, found: byte, &cursor)
            }
        case .index, .age:
            if byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 {
                let range = try cursor.scanNumber()
                let value = Self.wholeNumber(UnsafeBufferPointer(rebasing: cursor.bytes[range]))
                switch (key, value) {
                case (.age, .some(let age)) where age >= Int(Int32.min) + 1 && age <= Int(Int32.max):
                    record.age = Int32(age)
                case (.index, .some(let index)) where index != Int.min:
                    record.index = index
                default:
                    // Say which: 35.5 is no whole number; 2147483648 is whole but too large.
                    let whole = cursor.bytes[range].allSatisfy { $0 == UInt8(ascii: "-") || $0 &- UInt8(ascii: "0") < 10 }
                    record.noteProblem(whole ? "'\(key.name)' is out of range" : "'\(key.name)' is not a whole number in range")
                }
            } else if byte == UInt8(ascii: "n"), try cursor.scanLiteral() == UInt8(ascii: "n") {
                if key == .age { record.age = PeopleSegment.missingAge } else { record.index = PeopleSegment.missingInt }
            } else {
                try wrongType(key, found: byte, &cursor)
            }
        case .isActive:
            if byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n") {
                let literal = try cursor.scanLiteral()
                record.active = literal == UInt8(ascii: "t") ? 1 : literal == UInt8(ascii: "f") ? 0 : 2
            } else {
                try wrongType(key, found: byte, &cursor)
            }
        case .name:
            if byte == UInt8(ascii: "{") {
                try parseName(&cursor)
            } else if byte == UInt8(ascii: "\"") {
                try record.scanWholeName(from: &cursor)
            } else if byte == UInt8(ascii: "n"), try cursor.scanLiteral() == UInt8(ascii: "n") {
                record.clear(.firstName)
                record.clear(.lastName)
            } else {
                try wrongType(key, found: byte, &cursor)
            }
        }
    }

    /// `"name": {"first": "…", "last": "…"}`; other keys are ignored.
    private mutating func parseName(_ cursor: inout JSONCursor) throws(ScanFailure) {
        cursor.position += 1
        if try cursor.nextToken() == UInt8(ascii: "}") {
            cursor.position += 1
            return
        }
        while true {
            let quote = try cursor.nextToken()
            guard quote == UInt8(ascii: "\"") else {
                throw cursor.failure("expected a name in quotes, found \(cursor.describeByte(quote))")
            }
            keyBytes.removeAll()
            try cursor.scanString(into: keyBytes)
            try cursor.expect(UInt8(ascii: ":"), "':' after a name")
            let byte = try cursor.nextToken()
            let field = PersonKey.nameField(keyBytes.bytes(0..<keyBytes.count))
            if let field, byte == UInt8(ascii: "\"") {
                try record.scanText(field, from: &cursor)
            } else if let field, byte == UInt8(ascii: "n"), try cursor.scanLiteral() == UInt8(ascii: "n") {
                record.clear(field)
            } else if let field {
                record.noteProblem("'name.\(field == .firstName ? "first" : "last")' should be text, found \(cursor.describeByte(byte))")
                try cursor.skipValue()
            } else {
                try cursor.skipValue()
            }
            let separator = try cursor.nextToken()
            cursor.position += 1
            if separator == UInt8(ascii: "}") { return }
            guard separator == UInt8(ascii: ",") else {
                cursor.position -= 1
                throw cursor.failure("expected ',' or '}' in an object, found \(cursor.describeByte(separator))")
            }
        }
    }

    private mutating func wrongType(_ key: PersonKey, found byte: UInt8, _ cursor: inout JSONCursor) throws(ScanFailure) {
        let expected: String
        switch key {
        case .text: expected = "text"
        case .index, .age: expected = "a number"
        case .isActive: expected = "true or false"
        case .name: expected = "an object with first and last"
        }
        // A literal that is not even true/false/null is a syntax error.
        record.noteProblem("'\(key.name)' should be \(expected), found \(cursor.describeByte(byte))")
        try cursor.skipValue()
    }
}
