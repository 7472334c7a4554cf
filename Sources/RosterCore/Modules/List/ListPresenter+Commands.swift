/// `o`, `O` and `:`: the sort menu and the command line over the list,
/// and what their choices do here.
extension ListPresenter {
    public func chooseSortOrder(descending: Bool) {
        wireframe?.navigate(to: .sortMenu(descending: descending))
    }

    public func openCommandLine() {
        wireframe?.navigate(to: .commandLine)
    }

    /// Orders the list by `sort` (the sort menu, `:sort`), as one `flat`
    /// list or grouped as it is, keeping the selected person selected, as
    /// `s` does; the status bar names the order.
    public func order(by sort: SortOrder, flat: Bool = false) {
        let byCompany = isGroupedByCompany && !flat
        guard sort != sortOrder || byCompany != isGroupedByCompany else {
            message = "already sorted by \(sort.label)" + (byCompany ? "" : ", flat")
            return render()
        }
        rearrange(sort: sort, byCompany: byCompany)
    }

    /// Runs a command from the command line (`:help` is the view's: it
    /// opens the help screen itself).
    public func run(_ command: ListCommand) {
        switch command {
        case .sort(let sort, let flat): order(by: sort, flat: flat)
        case .filter(let query):
            // As if typed after `/`: its ↑ recalls it.
            if let query { history.record(query, for: .search) }
            applyFilter(query)
        case .export(let name):
            beginExport()
            guard exportFlow.line != nil else { return }
            editExportName(name)
            commitExport()
        case .columns: chooseColumns()
        case .quit: quit()
        case .goTo(let row): goTo(row: row)
        case .help: break
        }
    }

    /// `:N`: person N of the list (1 the first), a company folded with
    /// Space opening to show them; past the end, the last (as less goes).
    func goTo(row: Int) {
        if waitForArrangement({ $0.goTo(row: row) }) { return }
        guard peopleCount > 0 else {
            message = "nobody shown to go to"
            return render()
        }
        if row > peopleCount { message = "\(row): only \(NumberText.count(peopleCount, "person", "people")); at the last" }
        reveal(position: min(max(row, 1), peopleCount) - 1)
    }
}
