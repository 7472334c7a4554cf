import Foundation
import Testing

/// Issue 34's fault matrix, end to end: for each fault (a server restarted,
/// a backend terminated, a server frozen, a table locked, a connection cut
/// mid-read; for SQLite a lock, the file's write lock alone, the file
/// replaced) and each activity (browsing, searching, saving from the form,
/// sending the outbox, listening for another writer's change), what the
/// screen says while it lasts (`FaultMatrix.said`), that it heals with no
/// key within 5 s of the server answering again, and that no edit is lost
/// or applied twice (the table, its change log and its applied operations).
///
/// One Roster per row goes through its activities in turn; the rows run
/// side by side, each on a copy of the directory of its own (a server of
/// its own for the restart, a relay of its own to freeze or cut). The
/// waits suspend, so the rows hold no thread of the run's while they wait
/// for a fault to be noticed (a frozen server takes 15 s).
@Suite("End to end: the fault matrix")
struct FaultMatrixTests {
    @Test("each fault, each activity: what the screen says, healed with no key within 5 s of the server answering, no edit lost or applied twice",
          arguments: FaultMatrix.rows)
    func row(_ row: FaultMatrix.Row) async throws {
        let started = ContinuousClock().now
        let run = try await FaultMatrixRun(row)
        defer { run.database.remove() }
        for activity in row.activities {
            try await run.perform(activity)
        }
        run.quit()
        for line in run.reports { print(line) }
        print("fault matrix: \(row.testDescription): \(ContinuousClock().now - started) in all")
    }

    @Test("the rows hold every cell that applies, once")
    func everyCellOnce() {
        var cells: [String] = []
        for engine in FaultMatrix.Engine.allCases {
            for fault in FaultMatrix.Fault.allCases {
                for activity in FaultMatrix.Activity.allCases where FaultMatrix.applies(engine, fault, activity) {
                    cells.append("\(engine.rawValue), \(fault.rawValue), \(activity.rawValue)")
                }
            }
        }
        let run = FaultMatrix.rows.flatMap { row in row.activities.map { "\(row.engine.rawValue), \(row.fault.rawValue), \($0.rawValue)" } }
        #expect(run.sorted() == cells.sorted())
    }

    @Test("docs/databases.md's fault matrix (Every fault, every activity) quotes what the screen says in every cell, and each cell that does not apply says why")
    func documented() throws {
        let whole = try String(contentsOfFile: EditingEndToEndTests.bundled.replacingOccurrences(of: "Resources/people.json", with: "docs/databases.md"),
                               encoding: .utf8)
        // The matrix's part of the page, its lines joined as a reader reads them.
        let part = try #require(whole.components(separatedBy: "### Every fault, every activity").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        let page = part.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var missing: [String] = []
        for engine in FaultMatrix.Engine.allCases {
            for fault in FaultMatrix.Fault.allCases {
                for activity in FaultMatrix.Activity.allCases {
                    switch FaultMatrix.said(engine, fault, activity) {
                    case .stages(let stages):
                        missing += stages.joined().filter { !page.contains($0) }.map { "\(engine.rawValue), \(fault.rawValue), \(activity.rawValue): \($0)" }
                    case .notApplicable(let why) where !page.contains(why):
                        missing.append("\(engine.rawValue), \(fault.rawValue), \(activity.rawValue): \(why)")
                    case .notApplicable, .unaffected: break
                    }
                }
            }
        }
        #expect(missing.isEmpty, "not quoted in docs/databases.md: \(missing)")
    }
}
