import Foundation

/// What an export writes: what the list shows (search and order
/// included), or the marked people (those a search hides too), read when
/// the export is written (in the background).
public enum ExportContent: Sendable {
    case shown(PeopleArrangement, of: any PeopleRepository)
    /// The marked people, in the list's order without its search.
    case marks(Set<PersonID>, of: any PeopleRepository, orderedBy: PeopleArrangement)
}

/// The list's export flow: the file name prompt, then the question
/// before replacing a file (or writing an unknown extension), then the
/// write and what the status line says about it. `ExportDecision` rules
/// which step comes next; this keeps where the flow is.
@MainActor
final class ListExportFlow {
    private let writer: ExportWriting?
    private let history: PromptHistory
    /// Where the write runs: off the main actor in the app.
    private let reader: BackgroundReading
    /// The file being written in the background, and what the status line
    /// says meanwhile ("writing out.csv…": short, so that the position and
    /// order keep their place beside it).
    private(set) var writing: (name: String, note: String)?
    /// Told what the status line says once a write in the background ends.
    var written: (@MainActor (String) -> Void)?
    /// How the managers of the people a repository holds are read (the
    /// session's org chart reading), so that an export carries them; nil
    /// (or nil given back) for a source that keeps none.
    var managerReading: (@MainActor (any PeopleRepository) -> (any OrgChartReading)?)?
    /// The file name prompt's line while it is open.
    private(set) var line: LineEditor?
    /// An export waiting for a yes: where, whether it replaces a file, and
    /// the question asked.
    private var pending: (name: String, replacing: Bool, question: String)?
    /// The file name in the last message or the question, shortened first
    /// when the status line is too narrow, so that the reason stays visible.
    private(set) var fileName: String?

    init(writer: ExportWriting?, history: PromptHistory, reader: BackgroundReading? = nil) {
        self.writer = writer
        self.history = history
        self.reader = reader ?? ReadingNow()
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

    /// Writes `content` in the format the file name's extension asks for,
    /// through `reader`. What the status line says: the outcome when the
    /// write ended at once, else nil (`writing` says it is under way, and
    /// `written` is told the outcome).
    private func export(_ content: ExportContent, to name: String, replacing: Bool) -> String? {
        fileName = name
        guard let writer else { return nil }
        let who: String
        let managers: (any OrgChartReading)?
        switch content {
        case .marks(let marks, let repository, _):
            who = NumberText.grouped(marks.count) + " marked"
            managers = managerReading?(repository)
        case .shown(let shown, let repository):
            who = NumberText.count(shown.count, "person", "people")
            managers = managerReading?(repository)
        }
        writing = (name, "writing \(name)…")
        let outcome = Outcome()
        reader.read({ await Self.write(content, who: who, to: name, replacing: replacing, managers: managers, with: writer) }) { [weak self] said in
            self?.writing = nil
            self?.fileName = name
            if outcome.isAwaited { self?.written?(said) } else { outcome.said = said }
        }
        outcome.isAwaited = outcome.said == nil
        return outcome.said
    }

    /// A write's outcome, when it ended before `export` returned.
    @MainActor
    private final class Outcome {
        var said: String?
        var isAwaited = false
    }

    /// The write itself (off the main actor in the app): reads the
    /// source's managers when it keeps any, then the people a window at a
    /// time, streamed out; what the status line says.
    private nonisolated static func write(_ content: ExportContent, who: String, to name: String, replacing: Bool,
                                          managers reading: (any OrgChartReading)?, with writer: ExportWriting) async -> String {
        let format = ExportFormat(fileName: name)
        let exporter = DirectoryExporter(format: format)
        // Managers that could not be read: the people are still written
        // (their file may be gone, and the export all that is left of
        // them), never without saying so.
        let (managers, unread) = (reading?.readManagerReferences() ?? .none).references
        let failure = await writer.write(to: name, replacing: replacing) { output -> String? in
            switch content {
            case .marks(let marks, let repository, let order):
                do throws(RepositoryError) {
                    let people = try await MarkedPeople(repository: repository, marked: marks).identifiedPeople(orderedBy: order)
                    exporter.write(people.map(\.person), managers: managers.map { lookup in people.map { lookup.managerReference(of: $0.id) } },
                                   to: &output)
                    return nil
                } catch {
                    return "the marked people could not be read (\(error.reason))"
                }
            case .shown(let shown, let repository):
                let notRead = await exporter.write(shown, of: repository, managers: managers, to: &output)
                return notRead == 0 ? nil : "\(NumberText.count(notRead, "person", "people")) of \(NumberText.grouped(shown.count)) could not be read"
            }
        }
        let wrote = "wrote \(who) to \(name) (\(format.rawValue))"
        return failure ?? unread.map { "\($0); \(wrote) without their managers" } ?? wrote
    }
}
