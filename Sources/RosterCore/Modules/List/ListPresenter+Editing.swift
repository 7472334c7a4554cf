/// `E`, `D`, `a`, `v` and `U`: changing people from the list.
extension ListPresenter: ListEditingInput {
    /// `D`: the marked people, else the selected one, are read whole and
    /// the list asks before deleting them.
    public func deleteMarkedOrSelected() {
        if let refusal = wireframe?.editingRefusal {
            message = refusal
            return render()
        }
        if session.marked.isEmpty, peopleCount > 0, saidFoldedHeading() { return }
        readPeopleToCopy { presenter, people in
            presenter.pendingDeletion = people
            presenter.render()
        }
    }

    /// "Delete Ada Lovelace? (y/n)", "Delete 3 people: Ada Lovelace, Bob
    /// Smith and 1 more? (y/n)" (the view fits the names to its width).
    static func deletionQuestion(_ people: [Person]) -> String {
        DeletionQuestion(people).text(columns: 200)
    }

    public func editSelected() {
        if waitForArrangement({ $0.editSelected() }) { return }
        guard peopleCount > 0, !saidFoldedHeading() else { return }
        wireframe?.navigate(to: .edit(shown: displayed, position: selection))
    }

    public func addPerson() {
        if waitForArrangement({ $0.addPerson() }) { return }
        wireframe?.navigate(to: .add(shown: displayed, position: peopleCount > 0 ? selection : nil))
    }

    public func editInEditor() {
        if waitForArrangement({ $0.editInEditor() }) { return }
        guard peopleCount > 0, !saidFoldedHeading() else { return }
        wireframe?.navigate(to: .edit(shown: displayed, position: selection, inEditor: true))
    }

    public func undo() {
        if waitForArrangement({ $0.undo() }) { return }
        wireframe?.navigate(to: .undo)
    }
}
