import RosterCore
import RosterTUI

/// The sort menu (`o`, `O`) and the command line (`:`), each over the list.
extension ListScreenWireframe: CommandLineOutput {
    func showSortMenu(descending: Bool) {
        guard let listView else { return }
        root.push(SortMenuView(descending: descending, background: listView, onChoose: { [weak self] order, flat in
            self?.root.pop()
            self?.presenter?.order(by: order, flat: flat)
        }, onCancel: { [weak root] in root?.pop() }))
    }

    func showCommandLine() {
        guard let listView else { return }
        let writer = FileExportWriter()
        root.pushCommandLine(over: listView, history: history, output: self, fileNames: { writer.fileNames(in: $0) })
    }

    public func commandEntered(_ command: ListCommand) {
        root.pop()
        if command == .help { listView?.openHelp() } else { presenter?.run(command) }
    }

    public func commandLineClosed() {
        root.pop()
    }
}
