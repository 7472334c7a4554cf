import Foundation

/// What an export writes: what the list shows (search and order
/// included), or the marked people (those a search hides too).
enum ExportContent {
    case shown(PeopleArrangement, of: any PeopleRepository)
    case marked([Person])
}

/// The list's export flow: the file name prompt, then the question
/// before replacing a file (or writing an unknown extension), then the
/// write and what the status line says about it. `ExportDecision` rules
/// which step comes next; this keeps where the flow is.
@MainActor
final class ListExportFlow {
    private let writer: ExportWriting?
    private let history: PromptHistory
    /// The file name prompt's line while it is open.
    private(set) var line: LineEditor?
    /// An export waiting for a yes: where, whether it replaces a file, and
    /// the question asked.
    private var pending: (name: String, replacing: Bool, question: String)?
    /// The file name in the last message or the question, shortened first
    /// when the status line is too narrow, so that the reason stays visible.
    private(set) var fileName: String?

    init(writer: ExportWriting?, history: PromptHistory) {
        self.writer = writer
        self.history = history
    }

    /// The question waiting for y or n, if any.
    var question: String? { pending?.question }

    /// Who the open prompt will write: "6 people", "2 marked".
    private var people = ""

    /// Opens the name prompt on a name made from the data's (`sourceName`),
    /// to write `people` ("6 people", "2 marked").
    func begin(sourceName: String, people: String) {
        line = LineEditor(ExportDecision.suggestedName(for: sourceName), history: history.entries(for: .export))
        self.people = people
        completionNote = nil
    }

    /// What the open prompt will write, in the format its name asks for:
    /// "6 people as CSV; formulas get a leading ' (…)". Nil when closed.
    var summary: String? {
        guard let name = line?.text else { return nil }
        if let completionNote { return completionNote }
        let format = ExportFormat(fileName: name.trimmingCharacters(in: .whitespaces))
        guard format == .csv else { return "\(people) as \(format.label)" }
        return "\(people) as CSV; formulas get a ' (--export csv --csv-verbatim: as is)"
    }

    func editName(_ name: String) {
        line?.replace(with: name)
    }

    /// What the last Tab found when it could not complete (the matches,
    /// or none), until the next edit.
    private var completionNote: String?

    /// An edit on the open name prompt; false when it is not open. Tab
    /// completes the file name (`FileNameCompletion`).
    func apply(_ edit: LineEdit) -> Bool {
        guard var edited = line else { return false }
        completionNote = nil
        if edit == .complete {
            let completion = FileNameCompletion.complete(edited.text) { writer?.fileNames(in: $0) ?? [] }
            if case .completed(let text) = completion { edited.replace(with: text) }
            completionNote = completion.note
        } else {
            edited.apply(edit)
        }
        line = edited
        return true
    }

    func cancel() {
        completionNote = nil
        line = nil
        pending = nil
    }

    /// Enter on the file name: writes `content`, asks, or refuses, as
    /// `ExportDecision` rules; what the status line says (nil: nothing,
    /// the prompt closed on an empty name or a question is asked).
    func commit(_ content: () -> ExportContent) -> String? {
        guard let name = line?.text.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            cancel()
            return nil
        }
        history.record(name, for: .export)
        line = nil
        fileName = name
        switch ExportDecision(name: name, target: writer?.target(at: name) ?? .nothing) {
        case .write:
            return export(content(), to: name, replacing: false)
        case .ask(let question, let replacing):
            pending = (name, replacing, question)
            return nil
        case .refuse(let reason):
            return reason
        }
    }

    /// The answer to the question: a yes writes `content`. What the status
    /// line says; nil when no question was asked.
    func confirm(_ yes: Bool, _ content: () -> ExportContent) -> String? {
        guard let asked = pending else { return nil }
        pending = nil
        return yes ? export(content(), to: asked.name, replacing: asked.replacing) : "not written"
    }

    /// The status line showed its message: the file name goes with it,
    /// unless a question still names it.
    func messageShown() {
        if pending == nil { fileName = nil }
    }

    /// Writes `content` in the format the file name's extension asks for.
    private func export(_ content: ExportContent, to name: String, replacing: Bool) -> String {
        let format = ExportFormat(fileName: name)
        let exporter = DirectoryExporter(format: format)
        fileName = name
        let failure = writer?.write(to: name, replacing: replacing) { output -> String? in
            switch content {
            case .marked(let people):
                exporter.write(people, to: &output)
                return nil
            case .shown(let shown, let repository):
                let unread = exporter.write(shown, of: repository, to: &output)
                return unread == 0 ? nil : "\(NumberText.count(unread, "person", "people")) of \(NumberText.grouped(shown.count)) could not be read"
            }
        }
        if let failure { return failure }
        let written: String
        switch content {
        case .marked(let people): written = NumberText.grouped(people.count) + " marked"
        case .shown(let shown, _): written = NumberText.count(shown.count, "person", "people")
        }
        return "wrote \(written) to \(name) (\(format.rawValue))"
    }
}
