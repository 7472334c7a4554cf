extension ManagerResolution {
    /// One run of people resolved on one core.
    struct Part: Sendable {
        var people: ArraySlice<Int>
        var managers: [Int32] = []
        var codes: [UInt8] = []
        var problems: [Problem] = []
        /// People whose reference no table here matched, left for tables of
        /// other kinds (when deferring).
        var deferred: [Int] = []
        /// Whether a deferred reference has an `@` (an email table could match it).
        var deferredEmail = false
        /// Whether a deferred reference reads as a DN.
        var deferredDistinguishedName = false
    }

    /// `people` resolved in runs of at least 4,096 across the cores.
    static func resolveInParts<Source>(_ people: [Int], with index: PersonReferenceIndex<Source>,
                                       deferringMissing: Bool = false) -> [Part] {
        let partSize = max(4096, (people.count + 7) / 8)
        return Parallel.map((people.count + partSize - 1) / partSize) { part in
            resolve(people[(part * partSize)..<min(people.count, (part + 1) * partSize)], with: index,
                    deferringMissing: deferringMissing)
        }
    }

    private static func resolve<Source>(_ people: ArraySlice<Int>, with index: PersonReferenceIndex<Source>,
                                        deferringMissing: Bool) -> Part {
        var part = Part(people: people)
        part.managers.reserveCapacity(people.count)
        part.codes.reserveCapacity(people.count)
        var key = ReferenceKey()
        var candidateKey = ReferenceKey()
        for person in people {
            var lookup: PersonReferenceIndex<Source>.Lookup?
            var reference = ""
            index.source.withManagerReference(of: person) { bytes in
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return }
                let found = index.lookup(bytes, key: &key, candidateKey: &candidateKey)
                lookup = found
                switch found {
                case .found: break
                case .missing where deferringMissing: noteDeferred(person, bytes, in: &part, key: &key)
                default: reference = String(decoding: bytes, as: UTF8.self)
                }
            }
            let (manager, code, outcome) = Self.outcome(of: person, lookup, reference: reference)
            part.managers.append(manager)
            part.codes.append(code)
            if let outcome { part.problems.append(Problem(person: person, outcome: outcome)) }
        }
        return part
    }

    private static func noteDeferred(_ person: Int, _ reference: UnsafeBufferPointer<UInt8>, in part: inout Part,
                                     key: inout ReferenceKey) {
        part.deferred.append(person)
        if !part.deferredEmail, reference.contains(UInt8(ascii: "@")) { part.deferredEmail = true }
        if !part.deferredDistinguishedName, key.make(.distinguishedName, of: reference) {
            part.deferredDistinguishedName = true
        }
    }

    /// The manager, code and problem (if any) for `person`'s lookup; a
    /// deferred person's is replaced later.
    private static func outcome<Source>(of person: Int, _ lookup: PersonReferenceIndex<Source>.Lookup?,
                                        reference: String) -> (Int32, UInt8, Outcome?) {
        switch lookup {
        case nil:
            return (-1, 0, nil)
        case .found(let manager, _) where manager == person:
            return (-1, selfCode, .selfReference)
        case .found(let manager, let kind):
            return (Int32(manager), 1 + kind.rawValue, nil)
        case .ambiguous(let people, _):
            return (-1, ambiguousCode, .ambiguous(reference: reference, people: people))
        case .missing:
            // Deferred: no reference text was made; the later pass decides.
            guard !reference.isEmpty else { return (-1, 0, nil) }
            return (-1, missingCode, .missing(reference: reference))
        }
    }
}
