import Foundation
#if !ROSTER_FUZZ
import RosterCore
#endif

/// A company name as one loader thread saw it first, with its folded key.
struct CompanyName: Sendable {
    var display: String
    var key: [UInt8]
}

extension CompanyName {
    init(bytes: UnsafeBufferPointer<UInt8>) {
        let display = Self.trimmed(String(decoding: bytes, as: UTF8.self))
        let key = TextFolding.foldedBytes(display)
        // A name of invisible characters only is no company at all.
        self.init(display: key.isEmpty ? "" : display, key: key)
    }

    /// `text` without white space at either end, looking only at the ends
    /// (Foundation's `trimmingCharacters` walks all of it: seconds for a
    /// 50 MB company name).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}

/// Numbers companies by folded name: "Comstar", "COMSTAR" and " comstar "
/// are one company, shown with the spelling seen first.
///
/// A spelling already seen is found in a `SpellingTable` without allocating;
/// only a new spelling is folded (`TextFolding`) and looked up by key.
struct CompanyTable {
    private var spellings = SpellingTable()
    private var idOfSpelling: [UInt32] = []
    /// Folded keys, numbered as the companies are.
    private var keys = SpellingTable()
    private(set) var names: [CompanyName] = []
    private(set) var headcounts: [Int] = []

    /// The id of the company spelled `bytes`, numbering it if new.
    mutating func id(forSpelling bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let (number, isNew) = spellings.number(of: bytes)
        if !isNew { return idOfSpelling[number] }
        let id = id(for: CompanyName(bytes: bytes))
        idOfSpelling.append(id)
        return id
    }

    /// The id for a company already folded (used when merging segments).
    mutating func id(for name: CompanyName) -> UInt32 {
        let (number, isNew) = name.key.withUnsafeBufferPointer { keys.number(of: $0) }
        if isNew {
            names.append(name)
            headcounts.append(0)
        }
        return UInt32(number)
    }

    /// See `SpellingTable.touch`.
    func touch(_ spelling: UnsafeBufferPointer<UInt8>) -> UInt64 {
        spellings.touch(spelling)
    }

    mutating func addHeadcount(_ people: Int, to id: UInt32) {
        headcounts[Int(id)] += people
    }

    func companies() -> [Company] {
        zip(names, headcounts).map { Company(name: $0.display, key: $0.key, headcount: $1) }
    }
}

