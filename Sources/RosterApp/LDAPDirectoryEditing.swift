import RosterCore
import RosterLDAP

/// Where an entry is, and its version as it was read.
struct EntryPlace: Sendable {
    let dn: String
    let version: LDAPVersion?
}

/// Saves from the screens to a directory server: a modify of the
/// attributes the changed fields are read from (`LDAPPersonMapping`),
/// carrying the Assertion control (RFC 4528) on the entry's version as it
/// was read, and reading the entry back (Post-Read, RFC 4527). Someone
/// else's change to a field this edit changes is the conflict screen's,
/// never overwritten; their change to another field stays. Adding and
/// deleting people are not offered.
final class LDAPDirectoryEditing: PeopleEditing {
    let directory: LDAPDirectory

    init(directory: LDAPDirectory) {
        self.directory = directory
    }

    func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure) {
        let modifications = try Self.modifications(base.applying(changes), changes: changes)
        guard let held = directory.held(recordID: recordID) else {
            throw EditFailure(.notFound, "\(directory.name): nobody has the id \(recordID) any more")
        }
        var (now, place) = held
        // Once over: an entry changed since it was read is read again, and
        // written if what changed is none of this edit's fields.
        for attempt in 0..<2 {
            guard now.conflicts(with: changes, base: base).isEmpty else {
                throw EditFailure(.conflict, "\(directory.name): changed in the directory since you began", theirs: now,
                                  theirsNote: "changed in the directory by someone else")
            }
            switch directory.write(place, modifications) {
            case .success: return
            case .failure(let error) where error.kind == .assertionFailed && attempt == 0:
                guard let fresh = directory.reread(place.dn) else {
                    throw EditFailure(.notFound, "\(directory.name): \(DisplayText.sanitized(place.dn)) is no longer in the directory")
                }
                (now, place) = fresh
            case .failure(let error):
                throw EditFailure(error.kind == .assertionFailed ? .conflict : .failed, "\(directory.name): \(DisplayText.sanitized(error.message))")
            }
        }
    }

    func delete(_ people: [Person]) throws(EditFailure) {
        throw EditFailure(.readOnly, "\(directory.name): people are not deleted from a directory server by roster")
    }

    func add(recordID: String, changes: [FieldChange]) throws(EditFailure) {
        throw EditFailure(.readOnly, "\(directory.name): people are not added to a directory server by roster")
    }

    /// The attributes `changes` rewrite, with their values in `after`.
    static func modifications(_ after: Person, changes: [FieldChange]) throws(EditFailure) -> [LDAPModification] {
        var modifications: [LDAPModification] = []
        for change in changes {
            guard case .text(let field) = change.field, let attributes = attributes[field] else {
                throw EditFailure(.invalid, "a directory entry has no \(change.field) for roster to change")
            }
            let values = attributes.count == 1 ? [after.text(field)] : (0..<attributes.count).map { AddressPart.text($0, of: after.address) }
            for (attribute, value) in zip(attributes, values) {
                modifications.append(.replace(attribute, with: value.isEmpty ? [] : [LDAPValue(value)]))
            }
        }
        return modifications
    }

    /// The attributes each field is written to (the address's parts to four).
    static let attributes: [TextField: [String]] = [
        .firstName: ["givenName"], .lastName: ["sn"], .email: ["mail"], .phone: ["telephoneNumber"], .company: ["o"],
        .address: ["street", "l", "st", "postalCode"],
    ]
}

extension LDAPDirectory {
    /// The person whose record id is `recordID` as held, and where their entry is.
    func held(recordID: String) -> (Person, EntryPlace)? {
        state.withLock { state in
            guard let key = state.keyByRecordID[recordID], let person = state.people[key], let place = state.places[key] else { return nil }
            return (person, place)
        }
    }

    /// Modifies the entry at `place` if it is still at its version; the
    /// entry read back is held at once (the list read again shows it).
    func write(_ place: EntryPlace, _ modifications: [LDAPModification]) -> Result<Void, LDAPError> {
        let connection = connection
        let key = state.withLock { state in
            let key = state.keyByDN[place.dn]
            if let key { state.writing.insert(key) }
            return key
        }
        defer { if let key { state.withLock { _ = $0.writing.remove(key) } } }
        return wait { () async throws(LDAPError) -> LDAPEntry? in
            try await connection.modify(place.dn, modifications, ifVersion: place.version, readBack: LDAPPersonMapping.attributes)
        }.map { written in
            if let written { state.withLock { Self.put(written, key: Self.key(of: written), in: &$0) } }
        }
    }

    /// The entry at `dn` read again and held: the person and their place, nil when it is gone.
    func reread(_ dn: String) -> (Person, EntryPlace)? {
        let connection = connection, search = search
        guard case .success(let entry?) = wait({ () async throws(LDAPError) in
            try await connection.read(dn, attributes: search.attributes)
        }) else { return nil }
        state.withLock { Self.put(entry, key: Self.key(of: entry), in: &$0) }
        return (LDAPPersonMapping.person(entry), EntryPlace(dn: entry.dn, version: LDAPVersion(of: entry)))
    }
}
