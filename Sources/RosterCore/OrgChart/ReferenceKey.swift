/// The bytes two spellings of one identifier share, per kind: what the
/// reference tables hash and compare.
///
/// - id: as written, less spaces at either end (ids are exact).
/// - DN: the RFC 4514 normal form (`DistinguishedName`).
/// - email: ASCII letters lowercased, a `mailto:` prefix dropped (vCard's
///   `RELATED` writes one).
/// - name: folded for case and accents as Roster folds everywhere
///   (`TextFolding`), runs of spaces one space.
///
/// One maker per thread: it keeps the last key and what folding names has
/// taught it.
struct ReferenceKey {
    /// The last key made.
    private(set) var bytes: [UInt8] = []
    /// Words of names that only Foundation folds (CJK, Greek, emoji…),
    /// folded once each: names repeat their words (given and family names).
    private var foldedWords: [[UInt8]: [UInt8]] = [:]
    private var folded: [UInt8] = []
    private var latin: [UInt8] = []

    /// How many distinct words are remembered at most.
    private static let rememberedWords = 65_536

    /// Makes `bytes` the normal form of `text` as a `kind`; false when
    /// `text` is no such identifier (empty, or not a DN).
    mutating func make(_ kind: PersonReferenceKind, of text: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.removeAll(keepingCapacity: true)
        let trimmed = Self.trimmingSpaces(text)
        guard !trimmed.isEmpty else { return false }
        switch kind {
        case .id:
            bytes.append(contentsOf: trimmed)
        case .distinguishedName:
            return DistinguishedName.normalise(trimmed, into: &bytes)
        case .email:
            let address = trimmed.count > Self.mailto.count
                && zip(trimmed, Self.mailto).allSatisfy({ TextFolding.lowercasedASCII($0) == $1 })
                ? UnsafeBufferPointer(rebasing: trimmed[(trimmed.startIndex + Self.mailto.count)...]) : trimmed
            bytes.append(contentsOf: address.lazy.map(TextFolding.lowercasedASCII))
        case .name:
            if trimmed.allSatisfy({ $0 < 0x80 }) {
                Self.appendCollapsingSpaces(trimmed.lazy.map(TextFolding.lowercasedASCII), to: &bytes)
            } else {
                foldName(trimmed)
                Self.appendCollapsingSpaces(folded, to: &bytes)
            }
        }
        return !bytes.isEmpty
    }

    private static let mailto = Array("mailto:".utf8)

    /// Folds a name that is not all ASCII into `folded`, a word at a time:
    /// Latin letters with accents by `LatinFolding` (which agrees with
    /// `TextFolding` on each), other words by Foundation, remembered.
    private mutating func foldName(_ name: UnsafeBufferPointer<UInt8>) {
        folded.removeAll(keepingCapacity: true)
        var start = name.startIndex
        while start < name.endIndex {
            var end = start
            while end < name.endIndex, name[end] != 0x20, name[end] != 0x09 { end += 1 }
            let word = UnsafeBufferPointer(rebasing: name[start..<end])
            LatinFolding.fold(word, into: &latin)
            if latin.allSatisfy({ $0 < 0x80 }) {
                folded.append(contentsOf: latin)
            } else {
                folded.append(contentsOf: foldedWord(word))
            }
            if end < name.endIndex { folded.append(0x20) }
            start = end + 1
        }
    }

    private mutating func foldedWord(_ word: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let key = Array(word)
        if let known = foldedWords[key] { return known }
        let result = TextFolding.foldedBytes(String(decoding: word, as: UTF8.self))
        if foldedWords.count < Self.rememberedWords { foldedWords[key] = result }
        return result
    }

    private static func appendCollapsingSpaces(_ folded: some Sequence<UInt8>, to key: inout [UInt8]) {
        var pendingSpace = false
        var afterC2 = false
        for byte in folded {
            if afterC2 {
                afterC2 = false
                if byte == 0xA0 {
                    pendingSpace = !key.isEmpty
                    continue
                }
                appendWord(0xC2, to: &key, pendingSpace: &pendingSpace)
            }
            if byte == 0xC2 {
                afterC2 = true
            } else if byte == 0x20 || byte == 0x09 {
                pendingSpace = !key.isEmpty
            } else {
                appendWord(byte, to: &key, pendingSpace: &pendingSpace)
            }
        }
        if afterC2 { appendWord(0xC2, to: &key, pendingSpace: &pendingSpace) }
    }

    /// A byte of a word, after the one space that separates it from the last.
    private static func appendWord(_ byte: UInt8, to key: inout [UInt8], pendingSpace: inout Bool) {
        if pendingSpace { key.append(0x20) }
        pendingSpace = false
        key.append(byte)
    }

    private static func trimmingSpaces(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = text.startIndex
        var end = text.endIndex
        while start < end, isSpace(text[start]) { start += 1 }
        while end > start, isSpace(text[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: text[start..<end])
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
