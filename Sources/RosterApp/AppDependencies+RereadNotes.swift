import RosterCore

/// What the status line says as the source is read again, and which
/// message outlives which: the user's own save is said until a key, never
/// replaced by a note of the source's own (a directory's feed reading
/// everyone, a file or table changed by someone else) read with it.
extension AppDependencies {
    /// `note` and `recordID`, or the save's whose re-read is still in
    /// flight when `note` is someone else's change: the new re-read
    /// supersedes that one, and reads the save too, so it lands as the
    /// save (saying so, at the person saved) rather than dropping it.
    func carryingSaveInFlight(_ note: ListScreenWireframe.SavedNote, _ recordID: String?)
        -> (ListScreenWireframe.SavedNote, String?) {
        guard let inFlight = saveInFlight else { return (note, recordID) }
        switch note {
        case .toldByTheSource, .changedOnDisk: return (inFlight.note, inFlight.recordID)
        default: return (note, recordID)
        }
    }

    /// Whether what the last save said stays on screen over `note`: a
    /// source's own news (a directory's reading done) is in the rows, and
    /// the user's save is said until a key.
    func keepsSaveSaid(over note: ListScreenWireframe.SavedNote) -> Bool {
        guard case .toldByTheSource = note, let saveSaid else { return false }
        return listWireframe.listPresenter?.isStillSaying(saveSaid) == true
    }

    /// Says what a landed re-read found (`said`), or again what the save
    /// before it said (`keepingSave`), remembering a save's words.
    func say(_ said: String, after note: ListScreenWireframe.SavedNote, keepingSave: Bool) {
        if keepingSave, let saveSaid { return listWireframe.say(saveSaid) }
        let message = said + takeSendingNote(after: note)
        listWireframe.say(message)
        saveSaid = note.isSave ? message : nil
    }

    /// What the status line says once a re-read is shown.
    static func said(after note: ListScreenWireframe.SavedNote, in name: String, isOffline: Bool, unsent: UnsentEdits?,
                     isTable: Bool) -> String {
        switch note {
        case .saved, .savedFromDetail, .savedFromCompanyList:
            isOffline ? "saved offline" + unsentNote(unsent) : "saved to \(name)"
        case .deleted, .deletedFromCompanyList: isOffline ? "deleted offline" + unsentNote(unsent) : "deleted from \(name)"
        case .undone(let what): "undone: \(what)"
        case .reread: "nothing saved; read again with the change made meanwhile"
        case .changedOnDisk: isTable ? "changed in the database; read again" : "changed on disk; read again"
        case .refused(let why): why + "; read again"
        case .sent(let what), .reconnected(let what), .toldByTheSource(let what): what
        }
    }

    /// What the status line says when the connection was found lost as the
    /// source was read again: what happened first, then that it is read
    /// once the connection is back (the reconnect reads what the screen shows).
    static func lostBeforeRead(after note: ListScreenWireframe.SavedNote, in name: String) -> String {
        let later = "connection lost: read again once it is back"
        switch note {
        case .saved, .savedFromDetail, .savedFromCompanyList: return "saved to \(name); " + later
        case .deleted, .deletedFromCompanyList: return "deleted from \(name); " + later
        case .undone(let what): return "undone: \(what); " + later
        case .refused(let what), .sent(let what): return what + "; " + later
        case .reread, .changedOnDisk, .reconnected, .toldByTheSource: return later
        }
    }

    /// "; 2 edits unsent ⇡, sent once the server answers".
    static func unsentNote(_ unsent: UnsentEdits?) -> String {
        guard let count = unsent?.count, count > 0 else { return "" }
        return "; \(NumberText.count(count, "edit", "edits")) unsent ⇡, sent once the server answers"
    }
}
