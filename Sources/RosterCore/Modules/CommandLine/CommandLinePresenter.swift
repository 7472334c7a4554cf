import Foundation

// The command line (`:`): a small module over the list, as vim's, k9s's
// and VisiData's. It edits its line as the prompts do (the same line
// editor, ↑ ↓ through this session's commands), Tab completes, Enter runs
// the command (`ListCommandTable`) or keeps the line open on why it is
// not one, Esc closes it.

/// Presenter → view.
@MainActor
public protocol CommandLineViewInterface: AnyObject {
    func show(_ model: CommandLineViewModel)
}

/// View → presenter.
@MainActor
public protocol CommandLineModuleInterface: AnyObject {
    /// An edit of the line; `.complete` is Tab.
    func edit(_ edit: LineEdit)
    /// Enter: runs the line's command.
    func accept()
    /// Esc: closes the line, running nothing.
    func cancel()
}

/// Command line → whoever opened it.
@MainActor
public protocol CommandLineOutput: AnyObject {
    /// The line closed on `command`, to be run now.
    func commandEntered(_ command: ListCommand)
    /// The line closed running nothing.
    func commandLineClosed()
}

public struct CommandLineViewModel: Equatable, Sendable {
    public var text: String
    /// Characters before the cursor.
    public var cursor: Int
    /// Why Enter did not run the line, until it is edited.
    public var error: String?
    /// What the last Tab found when it could not complete (the matches).
    public var note: String?
}

@MainActor
public final class CommandLinePresenter: CommandLineModuleInterface {
    private weak var view: CommandLineViewInterface?
    private weak var output: CommandLineOutput?
    private let history: PromptHistory
    /// A folder's entries, for `:export`'s Tab (as the export prompt's).
    private let fileNames: (String) -> [String]
    public private(set) var line: LineEditor
    private var error: String?
    private var note: String?

    public init(history: PromptHistory, output: CommandLineOutput, fileNames: @escaping (String) -> [String] = { _ in [] }) {
        self.history = history
        self.output = output
        self.fileNames = fileNames
        line = LineEditor(history: history.entries(for: .command))
    }

    public func attach(view: CommandLineViewInterface) {
        self.view = view
        render()
    }

    public func edit(_ edit: LineEdit) {
        error = nil
        note = nil
        guard edit == .complete else {
            line.apply(edit)
            return render()
        }
        let before = String(line.text.prefix(line.cursor))
        let after = line.text.dropFirst(line.cursor)
        let completion = CommandCompletion.complete(before) { fileNames($0) }
        if case .completed(let completed) = completion {
            line.replace(with: completed + after)
            for _ in 0..<after.count { line.apply(.moveLeft) }
        }
        note = completion.note
        render()
    }

    public func accept() {
        do throws(CommandError) {
            let command = try ListCommandTable.parse(line.text)
            history.record(line.text.trimmingCharacters(in: .whitespaces), for: .command)
            if let command { output?.commandEntered(command) } else { output?.commandLineClosed() }
        } catch {
            self.error = error.message
            note = nil
            render()
        }
    }

    public func cancel() {
        output?.commandLineClosed()
    }

    public func makeViewModel() -> CommandLineViewModel {
        CommandLineViewModel(text: line.text, cursor: line.cursor, error: error, note: note)
    }

    private func render() {
        view?.show(makeViewModel())
    }
}
