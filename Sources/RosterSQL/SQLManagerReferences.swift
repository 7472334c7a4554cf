import RosterCore

/// What the org chart reads of a people table: each person's row id (their
/// `PersonID`), `_id`, email, first and last name and manager reference,
/// the narrow columns only, packed in one byte buffer so that a million
/// people are held without a String each. The same `ManagerResolution`
/// and `OrgTree` as a file's then make the chart.
///
/// People are numbered in row id order (the chart's own numbers); a
/// table an import filled empty has its rows in the list's first order
/// (company, last name, first name), so the chart's teams come so too.
public struct SQLManagerReferences: PersonReferenceSource, OrgChartPeople, Sendable {
    /// The fields kept per person, in this order.
    enum Part: Int, CaseIterable {
        case id, email, firstName, lastName, manager
    }

    /// Each person's row id, ascending.
    let rowIDs: [Int]
    private let bytes: [UInt8]
    /// Where each person's parts end in `bytes` (`Part.allCases.count` a person).
    private let ends: [Int]
    /// Whether anyone has a manager reference.
    public let anyManager: Bool

    public var count: Int { rowIDs.count }

    /// Collects people one row at a time.
    struct Builder {
        private(set) var rowIDs: [Int] = []
        private var bytes: [UInt8] = []
        private var ends: [Int] = []
        private var anyManager = false

        /// Adds a person from a row of their row id, then their parts in
        /// `Part` order (NULL for none); returns their row id.
        @discardableResult
        mutating func append(_ row: SQLColumnText) -> Int {
            var rowID = 0
            row(0) { text in
                // An integer as the library writes it: digits, perhaps a minus.
                guard let text else { return }
                let negative = text.first == UInt8(ascii: "-")
                for digit in text.dropFirst(negative ? 1 : 0) { rowID = rowID &* 10 &+ Int(digit &- UInt8(ascii: "0")) }
                if negative { rowID = -rowID }
            }
            rowIDs.append(rowID)
            for part in Part.allCases {
                row(Int32(1 + part.rawValue)) { text in
                    guard let text else { return }
                    if part == .manager, !anyManager, text.contains(where: { !Self.isSpace($0) }) { anyManager = true }
                    bytes.append(contentsOf: text)
                }
                ends.append(bytes.count)
            }
            return rowID
        }

        private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        var references: SQLManagerReferences {
            SQLManagerReferences(rowIDs: rowIDs, bytes: bytes, ends: ends, anyManager: anyManager)
        }
    }

    private func withPart(_ part: Part, of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let index = person * Part.allCases.count + part.rawValue
        let start = index == 0 ? 0 : ends[index - 1]
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<ends[index]])) }
    }

    private func text(_ part: Part, of person: Int) -> String {
        var text = ""
        withPart(part, of: person) { text = String(decoding: $0, as: UTF8.self) }
        return text
    }

    // MARK: PersonReferenceSource

    public func forEachIdentifier(_ kind: PersonReferenceKind, of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        switch kind {
        case .id: withPart(.id, of: person) { if !$0.isEmpty { body($0) } }
        case .email: withPart(.email, of: person) { if !$0.isEmpty { body($0) } }
        case .name:
            var name = name(of: person)
            if !name.isEmpty { name.withUTF8(body) }
        case .distinguishedName:
            // An LDIF export's people keep their entry's DN as their `_id`.
            withPart(.id, of: person) { if $0.contains(UInt8(ascii: "=")) { body($0) } }
        }
    }

    public func withManagerReference(of person: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withPart(.manager, of: person) { if !$0.isEmpty { body($0) } }
    }

    // MARK: OrgChartPeople

    public func name(of person: Int) -> String {
        let first = text(.firstName, of: person)
        let last = text(.lastName, of: person)
        return first.isEmpty ? last : last.isEmpty ? first : first + " " + last
    }

    public func email(of person: Int) -> String { text(.email, of: person) }

    public func person(recordID: String) -> Int? {
        var wanted = recordID
        return wanted.withUTF8 { wanted -> Int? in
            var found: Int?
            for person in 0..<count {
                var same = false
                withPart(.id, of: person) { same = $0.elementsEqual(wanted) }
                guard same else { continue }
                if found != nil { return nil }
                found = person
            }
            return found
        }
    }

    public func personID(of person: Int) -> Int { rowIDs[person] }

    public func person(withID id: Int) -> Int? {
        var low = 0
        var high = rowIDs.count
        while low < high {
            let middle = (low + high) / 2
            if rowIDs[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < rowIDs.count && rowIDs[low] == id ? low : nil
    }
}

extension SQLManagerReferences: ManagerReferenceLookup {
    /// The reference of the row whose id is `person`'s (the chart numbers
    /// rows its own way), nil for none or a row read after the references.
    public func managerReference(of person: PersonID) -> String? {
        guard let row = self.person(withID: person.rawValue) else { return nil }
        var reference: String?
        withManagerReference(of: row) { reference = String(decoding: $0, as: UTF8.self) }
        return reference
    }
}
