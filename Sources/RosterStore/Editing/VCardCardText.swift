#if !ROSTER_FUZZ
import RosterCore
#endif

/// One change to one card.
public enum VCardEdit: Equatable, Sendable {
    /// The first property `name` (any case) gets these values, its group
    /// and other parameters kept; a new line when the card has none.
    case set(name: String, components: [[String]])
    /// The property `name` read from line `line` of the card gets these
    /// values where it stands, its group and parameters kept; refused when
    /// no such property is there.
    case rewrite(name: String, line: Int, components: [[String]])
    /// A new property, after the last of its name (else before `END`).
    case add(name: String, parameters: [String], components: [[String]])
    /// Every property `name` whose value reads as `value` goes, with its
    /// group's `X-ABLabel` when nothing else is left in the group.
    case remove(name: String, value: String)
    /// The property `name` read from line `line` of the card goes (as
    /// `remove` takes one), others of that value staying.
    case removeLine(name: String, line: Int)
    /// The property `name` whose value reads as `value` becomes the
    /// preferred one (`PREF=1`, `TYPE=pref` or `PREF` by version); no
    /// other of that name stays marked.
    case prefer(name: String, value: String)
    /// `N`'s family and given names (its other parts kept) and `FN`, together.
    case name(family: String, given: String, formatted: String)
}

/// A card's text, edited in place: the lines an edit touches are written
/// anew (folded at 75 octets, in the card's line ends and version), every
/// other byte stays: other properties, their order, groups, parameters,
/// folds, blank lines, `VERSION`.
public enum VCardCardText {
    /// One line of the card: its bytes (from its first byte to past its
    /// line break) and the property read from it (nil: BEGIN, END, or no property).
    struct CardLine {
        var bytes: ArraySlice<UInt8>
        var field: RecordField?
        var rawParameters: String
    }

    /// `card` (one card, `BEGIN:VCARD` to `END:VCARD` and its line end)
    /// with `edits` made.
    public static func edited(_ card: [UInt8], _ edits: [VCardEdit]) throws(EditFailure) -> [UInt8] {
        var lines = try cardLines(card)
        let lineEnd: [UInt8] = card.firstIndex(of: 0x0A).map { $0 > 0 && card[$0 - 1] == 0x0D } == true ? [0x0D, 0x0A] : [0x0A]
        let version = VCardVersion(lines.compactMap(\.field).first { $0.name.uppercased() == "VERSION" }?.text)
        var writer = CardWriter(lines: lines, version: version, lineEnd: lineEnd)
        for edit in edits { try writer.apply(edit) }
        lines = writer.lines
        return Array(lines.map(\.bytes).joined())
    }

    /// The card's lines, each with the property read from it.
    static func cardLines(_ card: [UInt8]) throws(EditFailure) -> [CardLine] {
        let reader = VCardCardReader()
        let scanned = card.withUnsafeBufferPointer { reader.scan($0, from: 0, line: 1, isFinal: true) }
        guard case .complete(let next, _) = scanned,
              card.withUnsafeBufferPointer({ VCardCardReader.isMarker(UnsafeBufferPointer(rebasing: $0[..<(FieldBytes.newline(in: $0, from: 0) ?? $0.count)]), "BEGIN:VCARD") }) else {
            throw EditFailure(.unreadable, "the card is not readable as one vCard (BEGIN:VCARD to END:VCARD); nothing written")
        }
        var sink = ArraySink()
        card.withUnsafeBufferPointer { reader.emit($0, base: 0, card: 0..<next, line: 1, into: &sink) }
        let fields = sink.records.first?.fields ?? []
        var lines: [CardLine] = []
        // BEGIN, each property with its folds and line break, what lies between (blank lines), END.
        var position = 0
        for logical in reader.lines {
            if logical.start > position { lines.append(CardLine(bytes: card[position..<logical.start], field: nil, rawParameters: "")) }
            var end = logical.end
            if end < card.count, card[end] == 0x0D { end += 1 }
            if end < card.count, card[end] == 0x0A { end += 1 }
            let field = fields.first { $0.line == logical.line }
            let raw = field.map { rawParameters(card, logical.start..<logical.end, group: $0.group, name: $0.name) } ?? ""
            lines.append(CardLine(bytes: card[logical.start..<end], field: field, rawParameters: raw))
            position = end
        }
        let endLine = max(position, lastLineStart(card, before: next))
        if endLine > position { lines.append(CardLine(bytes: card[position..<endLine], field: nil, rawParameters: "")) }
        lines.append(CardLine(bytes: card[endLine...], field: nil, rawParameters: ""))
        return lines
    }

    /// Where the END line before `next` starts.
    private static func lastLineStart(_ card: [UInt8], before next: Int) -> Int {
        var index = next - 1
        if index >= 0, card[index] == 0x0A { index -= 1 }
        while index >= 0, card[index] != 0x0A { index -= 1 }
        return index + 1
    }

    /// The parameters' text as written (between the name and the `:`, unfolded).
    private static func rawParameters(_ card: [UInt8], _ range: Range<Int>, group: String, name: String) -> String {
        let text = card.withUnsafeBufferPointer { bytes in
            let arena = ByteArena(capacity: range.count)
            return arena.string(FieldBytes.unfold(range, of: bytes, into: arena))
        }
        let header = text.prefix { $0 != ":" }
        guard let semicolon = header.firstIndex(of: ";") else { return "" }
        var quoted = false
        var end = text.index(after: semicolon)
        while end < text.endIndex, quoted || text[end] != ":" {
            if text[end] == "\"" { quoted.toggle() }
            end = text.index(after: end)
        }
        return String(text[text.index(after: semicolon)..<end])
    }
}

/// The edits made to a card's lines, one after another.
struct CardWriter {
    var lines: [VCardCardText.CardLine]
    let version: VCardVersion
    let lineEnd: [UInt8]

    mutating func apply(_ edit: VCardEdit) throws(EditFailure) {
        switch edit {
        case .set(let name, let components):
            try set(name, components)
        case .rewrite(let name, let line, let components):
            guard let index = indices(of: name).first(where: { lines[$0].field?.line == line }), let field = lines[index].field else {
                throw EditFailure(.failed, "the card's \(name) on its line \(line) is not found again; nothing written")
            }
            rewrite(index, field: field, parameters: VCardParameterList(raw: lines[index].rawParameters), components: components)
        case .add(let name, let parameters, let components):
            let line = VCardLineText.line(group: "", name: name, parameters: parameters, components: components, version: version, lineEnd: lineEnd)
            let after = lines.lastIndex { $0.field?.name.uppercased() == name.uppercased() }
                ?? lines.lastIndex { $0.field != nil } ?? lines.count - 2
            lines.insert(VCardCardText.CardLine(bytes: line[...], field: nil, rawParameters: ""), at: after + 1)
        case .remove(let name, let value):
            remove(name) { $0.text == value }
        case .removeLine(let name, let line):
            remove(name) { $0.line == line }
        case .prefer(let name, let value):
            prefer(name, value)
        case .name(let family, let given, let formatted):
            var parts = indices(of: "N").first.flatMap { lines[$0].field?.components } ?? []
            while parts.count < 5 { parts.append([""]) }
            parts[0] = [family]
            parts[1] = [given]
            try set("N", parts)
            try set("FN", [[formatted]])
        }
    }

    private func indices(of name: String) -> [Int] {
        lines.indices.filter { lines[$0].field?.name.uppercased() == name.uppercased() }
    }

    private mutating func set(_ name: String, _ components: [[String]]) throws(EditFailure) {
        guard let index = indices(of: name).first, let field = lines[index].field else {
            try apply(.add(name: name, parameters: [], components: components))
            return
        }
        rewrite(index, field: field, parameters: VCardParameterList(raw: lines[index].rawParameters), components: components)
    }

    private mutating func rewrite(_ index: Int, field: RecordField, parameters: VCardParameterList, components: [[String]]) {
        let bytes = VCardLineText.line(group: field.group, name: field.name, parameters: parameters.segments, components: components,
                                       version: version, lineEnd: lineEnd)
        var written = field
        written.components = components
        lines[index] = VCardCardText.CardLine(bytes: bytes[...], field: written, rawParameters: parameters.segments.joined(separator: ";"))
    }

    private mutating func remove(_ name: String, where matches: (RecordField) -> Bool) {
        let gone = indices(of: name).filter { lines[$0].field.map(matches) ?? false }
        let groups = Set(gone.compactMap { lines[$0].field?.group }.filter { !$0.isEmpty })
        lines = lines.enumerated().filter { !gone.contains($0.offset) }.map(\.element)
        for group in groups {
            let rest = lines.compactMap(\.field).filter { $0.group.lowercased() == group.lowercased() }
            if rest.allSatisfy({ $0.name.uppercased().hasPrefix("X-AB") }) {
                lines.removeAll { $0.field.map { $0.group.lowercased() == group.lowercased() } == true }
            }
        }
    }

    /// Only the lines whose mark must change are written again: the one
    /// to prefer, if it is not yet; any other that is.
    private mutating func prefer(_ name: String, _ value: String) {
        for index in indices(of: name) {
            guard let field = lines[index].field else { continue }
            if case .external = field.kind { continue }
            let isTarget = field.text == value
            let isPreferred = field.parameters.contains { $0.name.uppercased() == "PREF" || (($0.name.isEmpty || $0.name.uppercased() == "TYPE") && $0.value.lowercased() == "pref") }
            guard isTarget != isPreferred else { continue }
            var parameters = VCardParameterList(raw: lines[index].rawParameters)
            parameters.removePreference()
            if isTarget { parameters.addPreference(version: version) }
            let isQuotedPrintable = lines[index].rawParameters.uppercased().contains("QUOTED-PRINTABLE")
            guard !isQuotedPrintable, let value = Self.rawValue(of: lines[index].bytes) else {
                rewrite(index, field: field, parameters: parameters, components: field.components)
                continue
            }
            var header = Array(((field.group.isEmpty ? "" : field.group + ".") + field.name).utf8)
            for segment in parameters.segments { header += [UInt8(ascii: ";")] + Array(segment.utf8) }
            let bytes = VCardLineText.folded(header + [UInt8(ascii: ":")] + value, lineEnd: lineEnd)
            lines[index] = VCardCardText.CardLine(bytes: bytes[...], field: field, rawParameters: parameters.segments.joined(separator: ";"))
        }
    }

    /// A line's value as written (escapes in), its folds taken out.
    private static func rawValue(of line: ArraySlice<UInt8>) -> [UInt8]? {
        var end = line.endIndex
        while end > line.startIndex, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        let unfolded: [UInt8] = Array(line[line.startIndex..<end]).withUnsafeBufferPointer { bytes in
            let arena = ByteArena(capacity: bytes.count)
            return Array(arena.bytes(FieldBytes.unfold(0..<bytes.count, of: bytes, into: arena)))
        }
        var quoted = false
        for (index, byte) in unfolded.enumerated() {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ":"), !quoted { return Array(unfolded[(index + 1)...]) }
        }
        return nil
    }
}
