/// `e`: the export prompt, its question, and what it writes.
extension ListPresenter: ListExportInput {
    public func beginExport() {
        if let writing = exportFlow.writing {
            message = "one export at a time: still writing \(writing.name)"
            return render()
        }
        exportFlow.begin(sourceName: interactor.sourceName, people: session.marked.isEmpty ? NumberText.count(displayed.count, "person", "people") : "\(NumberText.grouped(session.marked.count)) marked")
        message = nil
        render()
    }

    public func editExportName(_ name: String) {
        exportFlow.editName(name)
        render()
    }

    public func cancelExport() {
        exportFlow.cancel()
        render()
    }

    /// Enter on the file name: write, ask, or refuse, as `ExportDecision` rules.
    public func commitExport() {
        if waitForArrangement({ $0.commitExport() }) { return }
        if let said = exportFlow.commit({ exportContent }) { message = said }
        render()
    }

    public func confirmOverwrite(_ yes: Bool) {
        if let people = pendingDeletion {
            pendingDeletion = nil
            if yes {
                message = "deleting \(NumberText.count(people.count, "person", "people"))…"
                wireframe?.navigate(to: .delete(people))
            } else {
                message = "nobody deleted"
            }
            return render()
        }
        guard let said = exportFlow.confirm(yes, { exportContent }) else { return }
        message = said
        render()
    }

    /// What an export writes: what the list shows, or with marks the
    /// marked people (those a search hides too).
    var exportContent: ExportContent {
        interactor.exportContent(marked: session.marked, shown: displayed, orderedBy: everyone)
    }
}
