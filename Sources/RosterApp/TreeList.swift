import Foundation
import RosterCore
import RosterStore

/// `roster --list --tree FILE`: the org chart as text, one person a line
/// (`Name <email>`) under their manager, two spaces a level, under a header
/// per company of the top people, in the list's order; with `--filter`,
/// the matches inside their chains of managers and `N not shown` lines.
/// The chart's problems (managers not here, loops) go to standard error.
enum TreeList {
    static func write(_ repository: any PeopleRepository, of source: DirectorySource?, options: Options,
                      output: Int32 = STDOUT_FILENO) async -> ExitStatus {
        let name = DisplayText.sanitized(repository.sourceName)
        guard case .file(let path, _)? = source, let read = repository as? InMemoryPeopleRepository else {
            Platform.writeError("roster: \(name): --tree prints a file's org chart; over a database, T in the app shows it, and standard input keeps no managers")
            return .failure
        }
        RosterCommand.reportSkipped(repository.skippedRecords, loaded: repository.personCount, sourceName: repository.sourceName)
        let everyone = repository.arrange(sort: options.sort ?? .byLastName, byCompany: true, company: nil)
        let keys = await OrgChartInteractor.orderKeys(of: everyone, in: repository)
        let reading = FileOrgChartReading(path: path, format: options.format, store: read.store, sourceName: repository.sourceName)
        let chart: OrgChart
        switch reading.readChart(orderKeys: keys) {
        case .loaded(let loaded): chart = loaded
        case .noManagers(let text), .unavailable(let text):
            Platform.writeError("roster: \(text)")
            return .failure
        }
        if let problems = chart.tree.problemSummary { Platform.writeError("roster: \(name): \(problems)") }
        var outline = chart.tree.outline
        if let filter = options.filter {
            let ids: [PersonID]
            do {
                let found = try await repository.search(SearchQuery(filter), in: everyone, within: nil)
                ids = try await repository.personIDs(in: found, positions: 0..<found.count)
            } catch {
                Platform.writeError("roster: \(name): --filter could not be run: \(DisplayText.sanitized(error.detail ?? error.reason))")
                return .failure
            }
            // No match prints nothing, as --list does (not a lone "N not shown").
            guard !ids.isEmpty else { return .success }
            outline = chart.tree.searchOutline(matching: ids.map(\.rawValue))
        }
        return write(OrgChartRows.allExpanded(outline), of: chart, store: read.store, to: output) ? .success : .failure
    }

    /// The headers name the company of each tree's top person; a report
    /// with a company of their own that is not the top person's says it on
    /// their line (`[OTHER]`), so no line reads as the header's company
    /// when it is not.
    private static func write(_ rows: OrgChartRows, of chart: OrgChart, store: PeopleStore, to output: Int32) -> Bool {
        @Sendable func company(of person: Int) -> String {
            let company = store.text(.company, of: person)
            return company.isEmpty ? "No company" : DisplayText.sanitized(company)
        }
        let text = OrgChartText(style: .indented, groupTitle: company(of:))
        var written = true
        var treeCompany = ""
        text.write(rows, appendLine: { row, bytes in
            guard let person = row.person else { return }
            let email = chart.people.email(of: person)
            var line = DisplayText.sanitized(chart.people.name(of: person)) + (email.isEmpty ? "" : " <\(DisplayText.sanitized(email))>")
            let own = store.text(.company, of: person)
            if row.depth == 0 { treeCompany = own } else if !own.isEmpty, own != treeCompany { line += " [\(DisplayText.sanitized(own))]" }
            if let problem = chart.tree.problem(of: person) { line += "  ! " + problem }
            bytes.append(contentsOf: line.utf8)
        }, emit: { bytes in
            if written { written = Platform.write(bytes, to: output) }
        })
        if !written { Platform.writeError("roster: writing the org chart failed (\(String(cString: strerror(errno))))") }
        return written
    }
}
