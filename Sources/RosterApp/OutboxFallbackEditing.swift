import Foundation
import RosterCore
import RosterStore

/// The screens' edits of a source over a connection that can be lost: sent
/// to the source while the connection works, kept in the outbox while it
/// is lost (`OutboxEditing`, sent once it is back), chosen edit by edit by
/// the connection's state, never by the kind of source. The edit goes
/// against what the screen showed either way (`base`), so a form open
/// across a server restart saves whatever the connection does meanwhile.
///
/// An update or add whose connection breaks under it is kept in the outbox
/// under the id it was sent with: had the server committed it before the
/// reply was lost, the sending recognises it and nothing is applied twice.
/// A delete or an undone delete sent again finds its people gone (or
/// back) already and is refused, never made twice.
struct OutboxFallbackEditing: PeopleEditing {
    /// The source's own editing, which also sends an edit under an operation id.
    let live: any PeopleEditing & OutboxDestination
    let connection: any Reconnecting
    let offline: OutboxEditing
    /// Set after each save to whether it went to the outbox (saves from
    /// the screens are made one at a time: its landing reads it).
    let keptOffline: Locked<Bool>

    /// A manager is set on the source itself (its check reads everyone
    /// there), never kept offline: with the connection lost it is refused, saying so.
    var managers: (any ManagerEditing)? { live.managers }

    func update(recordID: String, changes: [FieldChange], base: Person) throws(EditFailure) {
        let operationID = UUID().uuidString
        try route(sent: { () throws(EditFailure) in
            _ = try live.send(.update(id: recordID, changes: changes), operationID: operationID, base: base, deleting: [])
        }, kept: { () throws(EditFailure) in
            try offline.update(recordID: recordID, changes: changes, base: base, as: operationID)
        })
    }

    func add(recordID: String, changes: [FieldChange]) throws(EditFailure) {
        let operationID = UUID().uuidString
        try route(sent: { () throws(EditFailure) in
            _ = try live.send(.add(id: recordID, changes: changes), operationID: operationID, base: nil, deleting: [])
        }, kept: { () throws(EditFailure) in
            try offline.add(recordID: recordID, changes: changes, as: operationID)
        })
    }

    func delete(_ people: [Person]) throws(EditFailure) {
        try route(sent: { () throws(EditFailure) in try live.delete(people) },
                  kept: { () throws(EditFailure) in try offline.delete(people) })
    }

    func restore(_ people: [Person]) throws(EditFailure) {
        try route(sent: { () throws(EditFailure) in try live.restore(people) },
                  kept: { () throws(EditFailure) in try offline.restore(people) })
    }

    var saveProgress: SaveProgress? { live.saveProgress }

    /// `sent` while the connection works; `kept` while it is lost, or once
    /// `sent` failed because it was (a refusal, a conflict, stays one).
    private func route(sent: () throws(EditFailure) -> Void, kept: () throws(EditFailure) -> Void) throws(EditFailure) {
        if !connection.isConnectionLost {
            do throws(EditFailure) {
                try sent()
                keptOffline.withLock { $0 = false }
                return
            } catch {
                guard error.kind == .failed, connection.isConnectionLost else { throw error }
            }
        }
        try kept()
        keptOffline.withLock { $0 = true }
    }
}
