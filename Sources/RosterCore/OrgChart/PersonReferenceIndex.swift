/// Finds the person a reference names: by id, DN, email or name, in that
/// order, over one table per kind (`ReferenceTable`). Built once per
/// directory; resolving every manager and checking an edit both ask it.
///
/// A table costs a pass over everyone's identifiers of its kind, so an
/// index may hold only some kinds (`ManagerResolution.resolve` builds the
/// id table, then the others only if some reference is not an id) and be
/// completed later (`including`).
public struct PersonReferenceIndex<Source: PersonReferenceSource>: Sendable {
    /// The directory the tables index: a table holds person numbers only,
    /// and a candidate's identifiers are read from here to compare them.
    public let source: Source
    /// By kind; nil for a kind not indexed.
    private var tables: [ShardedReferenceTable?]

    /// What a reference names.
    public enum Lookup: Equatable, Sendable {
        /// One person, found by this kind of identifier.
        case found(person: Int, by: PersonReferenceKind)
        /// Several people share the identifier (two people of that name).
        case ambiguous(people: Int, by: PersonReferenceKind)
        /// Nobody here (among the kinds indexed).
        case missing
    }

    /// Indexes every identifier of `kinds` (by default all) of every person
    /// in `source`, each kind's table filled by the cores side by side.
    public init(_ source: Source, kinds: [PersonReferenceKind] = PersonReferenceKind.allCases) {
        self.init(source: source, tables: PersonReferenceKind.allCases.map { kinds.contains($0) ? $0 : nil })
    }

    private init(source: Source, tables kinds: [PersonReferenceKind?]) {
        self.source = source
        tables = kinds.map { kind in kind.map { ShardedReferenceTable($0, of: source) } }
    }

    /// The kinds indexed.
    public var kinds: [PersonReferenceKind] {
        PersonReferenceKind.allCases.filter { tables[Int($0.rawValue)] != nil }
    }

    /// This index with the tables of `kinds` too (those already there kept).
    public func including(_ kinds: [PersonReferenceKind]) -> Self {
        var index = Self(source: source, tables: PersonReferenceKind.allCases.map {
            kinds.contains($0) && tables[Int($0.rawValue)] == nil ? $0 : nil
        })
        for kind in PersonReferenceKind.allCases where tables[Int(kind.rawValue)] != nil {
            index.tables[Int(kind.rawValue)] = tables[Int(kind.rawValue)]
        }
        return index
    }

    /// The person `reference` names: the first kind under which anybody
    /// has it decides (an id beats a name that happens to read the same).
    public func lookup(_ reference: UnsafeBufferPointer<UInt8>) -> Lookup {
        var key = ReferenceKey()
        var candidateKey = ReferenceKey()
        return lookup(reference, key: &key, candidateKey: &candidateKey)
    }

    public func lookup(_ reference: String) -> Lookup {
        var reference = reference
        return reference.withUTF8 { lookup($0) }
    }

    /// `lookup(_:)` with the caller's scratch buffers, for a million lookups
    /// without an allocation each.
    func lookup(_ reference: UnsafeBufferPointer<UInt8>, key: inout ReferenceKey, candidateKey: inout ReferenceKey) -> Lookup {
        for kind in PersonReferenceKind.inOrder {
            guard let table = tables[Int(kind.rawValue)], table.count > 0, key.make(kind, of: reference) else { continue }
            // An email is only ever an address: a name is not looked for among them.
            if kind == .email, !key.bytes.contains(UInt8(ascii: "@")) { continue }
            let found = table.find(tag: ReferenceTable.tag(of: key.bytes)) { candidate in
                ShardedReferenceTable.has(candidate, kind, key.bytes, in: source, scratch: &candidateKey)
            }
            guard let found else { continue }
            return found.people == 1 ? .found(person: found.person, by: kind) : .ambiguous(people: found.people, by: kind)
        }
        return .missing
    }

    /// The bytes the tables take (the source's own bytes not counted).
    public var memoryBytes: Int { tables.reduce(0) { $0 + ($1?.memoryBytes ?? 0) } }
}
