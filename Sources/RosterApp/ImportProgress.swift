import Foundation
import RosterCore
import RosterSQL
#if canImport(Glibc)
import Glibc
#endif

/// One line on standard error, redrawn in place, only on a terminal: each
/// phase of an import and how far it has got, to the end:
/// `loading rows ███████░░░░░  61%  12,288 of 20,000 people`, then
/// `merging 20,000 rows into the table…`, `building indexes ██░░  3 of 12`,
/// `summarising companies…`, `committing…`.
final class ImportProgressBar {
    private let isTerminal: Bool
    private var lastDrawn = ContinuousClock.now - .seconds(1)
    private var drewSomething = false

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    /// The line for `phase`, at most `width` characters: a narrow
    /// terminal shortens the bar first, then drops it (the counts stay).
    static func line(_ phase: ImportPhase, width: Int = 80) -> String {
        let line: String
        switch phase {
        case .waiting:
            line = "waiting for another import into this database to finish…"
        case .writing(let done, let total):
            line = withBar("loading rows", done, of: total,
                           "\(NumberText.grouped(done)) of \(NumberText.count(total, "person", "people"))", width: width)
        case .merging(let rows):
            line = "merging \(NumberText.count(rows, "row", "rows")) into the table…"
        case .indexing(let done, let total):
            line = withBar("building indexes", done, of: total, "\(done) of \(total)", width: width)
        case .summarizing:
            line = "summarising companies…"
        case .committing:
            line = "committing…"
        }
        return line.count > width ? String(line.prefix(max(0, width - 1))) + "…" : line
    }

    /// "label ████░░░░ 61%  counts", the bar as wide as there is room for (24 at most).
    private static func withBar(_ label: String, _ done: Int, of total: Int, _ counts: String, width: Int) -> String {
        let value = "\(total == 0 ? 100 : done * 100 / total)%"
        let percent = String(repeating: " ", count: max(1, 5 - value.count)) + value  // " 100%", "  61%": the bar keeps its width
        let room = min(24, width - label.count - percent.count - counts.count - 3)
        guard room >= 4 else { return label + percent + "  " + counts }
        let filled = total == 0 ? room : done * room / total
        return label + " " + String(repeating: "█", count: filled) + String(repeating: "░", count: room - filled) + percent + "  " + counts
    }

    func show(_ phase: ImportPhase) {
        guard isTerminal else { return }
        let now = ContinuousClock.now
        if case .writing(let done, let total) = phase, done > 0, done < total, now - lastDrawn < .milliseconds(100) { return }
        lastDrawn = now
        // Never as wide as the terminal: a wrapped line cannot be redrawn in place.
        let width = max(10, (Platform.terminalColumns(STDERR_FILENO) ?? 80) - 1)
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + Self.line(phase, width: width)).utf8))
        drewSomething = true
    }

    /// Clears the line, so that messages after it start clean.
    func finish() {
        if drewSomething { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

/// Ctrl-C (or SIGTERM, SIGHUP) during `roster import`: the progress line
/// is replaced by what happened, then the signal takes its course (status
/// 130 for Ctrl-C). The import's transaction is never committed then, so
/// the database rolls it back: nothing was imported. Only once the commit
/// is under way may it have been kept; the line says so.
///
/// A signal handler may only write: both lines are made before.
struct ImportInterruption {
    nonisolated(unsafe) private static var beforeCommit: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var duringCommit: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var isCommitting: sig_atomic_t = 0
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private let previous: [sigaction]

    static func lines(target: String, clearsLine: Bool) -> (before: String, during: String) {
        let start = clearsLine ? "\r\u{1B}[K" : ""
        return (start + "roster: interrupted: nothing was imported (\(target) is as it was)\n",
                start + "roster: interrupted while committing: the import into \(target) may have been kept; "
                    + "import again to be sure (it replaces each person by _id)\n")
    }

    static func install(target: String, clearsLine: Bool) -> ImportInterruption {
        let (before, during) = lines(target: DisplayText.sanitized(target), clearsLine: clearsLine)
        beforeCommit = strdup(before)
        duringCommit = strdup(during)
        isCommitting = 0
        let previous = signals.map { number in
            Platform.setHandler(number, flags: Int32(truncatingIfNeeded: SA_RESETHAND)) { number in
                if let line = ImportInterruption.isCommitting == 0 ? ImportInterruption.beforeCommit : ImportInterruption.duringCommit {
                    _ = write(STDERR_FILENO, line, strlen(line))
                }
                signal(number, SIG_DFL)
                raise(number)
            }
        }
        return ImportInterruption(previous: previous)
    }

    /// The commit is under way: from now on an interruption may not undo it.
    static func committing() { isCommitting = 1 }

    /// Puts back what the signals did before (twice is harmless).
    func uninstall() {
        Platform.restoreHandlers(Self.signals, previous)
    }
}
