#if !ROSTER_FUZZ
import RosterCore
#endif

/// Reading a scanned card's lines into properties, and handing each
/// property's values to the sink.
extension VCardCardReader {
    /// The card at `card` (offsets in `bytes`, at file offset `base`),
    /// scanned by `scan`, read into `sink` as one record.
    func emit<Sink: FieldRecordSink>(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, card: Range<Int>, line: Int, into sink: inout Sink) {
        sink.beginRecord(fileOffset: base + card.lowerBound, line: line)
        unfolded.removeAll()
        contents.removeAll(keepingCapacity: true)
        var hasLabels = false
        for logical in lines {
            guard let content = contentLine(logical, in: bytes, sink: &sink) else { continue }
            hasLabels = hasLabels || content.isLabel
            contents.append(content)
        }
        var kind = RecordKind.individual
        let unfoldedBytes = unfolded.allBytes
        for index in contents.indices {
            let content = contents[index]
            let header = content.headerUnfolded ? unfoldedBytes : bytes
            var field = SourceField(group: UnsafeBufferPointer(rebasing: header[content.group]),
                                    name: UnsafeBufferPointer(rebasing: header[content.name]),
                                    parameters: FieldParameters(raw: UnsafeBufferPointer(rebasing: header[content.parameters])),
                                    groupLabel: FieldBytes.none, value: FieldBytes.none, kind: .text,
                                    property: index, component: 0, item: 0, line: content.line)
            if hasLabels, !field.group.isEmpty { field.groupLabel = groupLabel(field.group, in: bytes) }
            emit(content, as: &field, in: bytes, base: base, into: &sink)
            Self.noteKind(of: field, in: &kind)
        }
        sink.endRecord(RecordEnd(kind: kind, byteRange: (base + card.lowerBound)..<(base + card.upperBound), fieldCount: contents.count))
    }

    /// `KIND:org` (and Apple's `X-ABShowAs:COMPANY`, its server's
    /// `X-ADDRESSBOOKSERVER-KIND:group`) say what the card is about.
    private static func noteKind(of field: SourceField, in kind: inout RecordKind) {
        let name = field.name
        guard name.count == 4 || name.count == 10 || name.count == 24 else { return }
        let value = FieldBytes.trimmed(field.value)
        if FieldBytes.equalsIgnoringCase(name, "KIND") || FieldBytes.equalsIgnoringCase(name, "X-ADDRESSBOOKSERVER-KIND") {
            if FieldBytes.equalsIgnoringCase(value, "ORG") || FieldBytes.equalsIgnoringCase(value, "ORGANIZATION") {
                kind = .organization
            } else if FieldBytes.equalsIgnoringCase(value, "GROUP") {
                kind = .group
            } else if FieldBytes.equalsIgnoringCase(value, "LOCATION") {
                kind = .location
            } else if !FieldBytes.equalsIgnoringCase(value, "INDIVIDUAL") {
                kind = .other
            }
        } else if FieldBytes.equalsIgnoringCase(name, "X-ABSHOWAS"), FieldBytes.equalsIgnoringCase(value, "COMPANY") {
            kind = .organization
        }
    }

    /// One logical line as a property, or nil (said to the sink) when it is none.
    private func contentLine<Sink: FieldRecordSink>(_ logical: LogicalLine, in bytes: UnsafeBufferPointer<UInt8>,
                                                    sink: inout Sink) -> VCardContentLine? {
        guard let colon = Self.colon(in: bytes, logical.start..<logical.end) else {
            sink.skipLine(reason: "no ':' in \(FieldBytes.quoted(UnsafeBufferPointer(rebasing: bytes[logical.start..<logical.firstEnd]))), "
                          + "so it is no property; passed over", line: logical.line)
            return nil
        }
        let headerUnfolded = colon > logical.firstEnd
        let headerRange = headerUnfolded ? unfold(logical.start..<colon, of: bytes) : logical.start..<colon
        let header = headerUnfolded ? unfolded.allBytes : bytes
        let semicolon = header[headerRange].firstIndex(of: UInt8(ascii: ";")) ?? headerRange.upperBound
        var nameRange = headerRange.lowerBound..<semicolon
        while !nameRange.isEmpty, header[nameRange.lowerBound] == 0x20 || header[nameRange.lowerBound] == 0x09 { nameRange = nameRange.dropFirst() }
        while !nameRange.isEmpty, header[nameRange.upperBound - 1] == 0x20 || header[nameRange.upperBound - 1] == 0x09 { nameRange = nameRange.dropLast() }
        let dot = header[nameRange].lastIndex(of: UInt8(ascii: "."))
        let group = dot.map { nameRange.lowerBound..<$0 } ?? nameRange.lowerBound..<nameRange.lowerBound
        let name = dot.map { ($0 + 1)..<nameRange.upperBound } ?? nameRange
        guard FieldBytes.isName(UnsafeBufferPointer(rebasing: header[name])),
              group.isEmpty || FieldBytes.isName(UnsafeBufferPointer(rebasing: header[group])) else {
            sink.skipLine(reason: "\(FieldBytes.quoted(UnsafeBufferPointer(rebasing: header[nameRange]))) is no property name; passed over",
                          line: logical.line)
            return nil
        }
        let isLabel = !group.isEmpty && FieldBytes.equalsIgnoringCase(UnsafeBufferPointer(rebasing: header[name]), "X-ABLABEL")
        let parameters = min(semicolon + 1, headerRange.upperBound)..<headerRange.upperBound
        let form = VCardValueForm(FieldParameters(raw: UnsafeBufferPointer(rebasing: header[parameters])))
        let rawValue = (colon + 1)..<logical.end
        var value = rawValue
        let keptRaw = form.encoding != .plain || Self.isDataURI(UnsafeBufferPointer(rebasing: bytes[rawValue]))
        let valueUnfolded = !keptRaw && rawValue.upperBound > logical.firstEnd
        if valueUnfolded { value = unfold(rawValue, of: bytes) }  // `header` may have moved: not read after this
        return VCardContentLine(headerUnfolded: headerUnfolded, group: group, name: name, parameters: parameters,
                                valueUnfolded: valueUnfolded, value: value, rawValue: rawValue, form: form, line: logical.line,
                                isLabel: isLabel)
    }

    /// The header's end: the first `:` outside double quotes (or, where a
    /// quote never closes, the first `:` at all).
    private static func colon(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var quoted = false
        for index in range {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ":"), !quoted {
                return index
            }
        }
        return quoted ? bytes[range].firstIndex(of: UInt8(ascii: ":")) : nil
    }

    static func isDataURI(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        FieldBytes.hasPrefixIgnoringCase(value, "data:")
    }

    /// The decoded value of the `X-ABLabel` in `group`, or nothing.
    private func groupLabel(_ group: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let unfoldedBytes = unfolded.allBytes
        for content in contents where content.isLabel {
            let header = content.headerUnfolded ? unfoldedBytes : bytes
            guard UnsafeBufferPointer(rebasing: header[content.group]).elementsEqual(group, by: { $0 | 0x20 == $1 | 0x20 }) else { continue }
            label.removeAll()
            let text = decodedText(content, in: bytes)
            Self.unescape(text, into: label)
            return label.allBytes
        }
        return FieldBytes.none
    }

    /// A property's value as UTF-8 text: quoted-printable and charset
    /// decoded (escapes still in).
    func decodedText(_ content: VCardContentLine, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var text = UnsafeBufferPointer(rebasing: (content.valueUnfolded ? unfolded.allBytes : bytes)[content.value])
        if content.form.encoding == .quotedPrintable {
            decoded.removeAll()
            QuotedPrintableText.decode(text, into: decoded)
            text = decoded.allBytes
        }
        if content.form.charset != .utf8 || !TextCharset.isValidUTF8(text) {
            recoded.removeAll()
            TextCharset.appendUTF8(text, charset: content.form.charset, to: recoded)
            text = recoded.allBytes
        }
        return text
    }
}
