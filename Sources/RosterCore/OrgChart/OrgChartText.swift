/// `roster --list --tree`: the org chart as text, one person a line under
/// their manager, the top people first (under a header per group, such as
/// their company, when asked); with a search, the matches inside their
/// chains and `N not shown` lines. A pure function of the rows: what each
/// person's line says (name, email, counts; made safe for a terminal) is
/// the caller's.
public struct OrgChartText: Sendable {
    /// How a level is indented.
    public enum Style: Sendable {
        /// Two spaces a level.
        case indented
        /// `tree`'s lines: `├─ `, `└─ `, and `│  ` down past a level that goes on.
        case treeLines
    }

    public let style: Style
    /// The title of the group a top person heads a tree in (their company),
    /// nil for no headers.
    public let groupTitle: (@Sendable (Int) -> String)?

    public init(style: Style, groupTitle: (@Sendable (Int) -> String)? = nil) {
        self.style = style
        self.groupTitle = groupTitle
    }

    /// Writes every visible row of `rows`, handing `emit` the text 64 KiB
    /// at a time; `appendLine` appends what a person's line says after its
    /// indentation (no newline).
    public func write(_ rows: OrgChartRows, appendLine: (OrgChartRow, inout [UInt8]) -> Void,
                      emit: ([UInt8]) -> Void) {
        let outline = rows.outline
        var output: [UInt8] = []
        output.reserveCapacity(1 << 16 + 4096)
        var continuing: [Bool] = []
        var groupEnd = 0
        var position = rows.count > 0 ? rows.row(0).position : outline.count
        while position < outline.count {
            let row = rows.row(atPosition: position)
            if row.depth == 0, position >= groupEnd, let person = row.person, let groupTitle {
                groupEnd = appendHeader(startingAt: position, title: groupTitle(person), outline: outline, to: &output)
            }
            appendIndentation(of: row, continuing: &continuing, to: &output)
            switch row.entry {
            case .person: appendLine(row, &output)
            case .notShown(let hidden): output.append(contentsOf: "\(NumberText.grouped(hidden)) not shown".utf8)
            }
            output.append(UInt8(ascii: "\n"))
            if output.count >= 1 << 16 {
                emit(output)
                output.removeAll(keepingCapacity: true)
            }
            position = rows.nextVisible(after: position)
        }
        if !output.isEmpty { emit(output) }
    }

    /// The text as one string (tests, small charts).
    public func text(_ rows: OrgChartRows, line: (OrgChartRow) -> String) -> String {
        var bytes: [UInt8] = []
        write(rows, appendLine: { row, output in output.append(contentsOf: line(row).utf8) }, emit: { bytes += $0 })
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `title — 2 at the top, 40 people in all` for the run of top people
    /// from `start` in the same group (the title is the top people's: their
    /// reports may be of other companies, so the count is of the trees, not
    /// of the company); returns where the run ends.
    private func appendHeader(startingAt start: Int, title: String, outline: OrgOutline, to output: inout [UInt8]) -> Int {
        var (people, tops) = (0, 0)
        var position = start
        while position < outline.count, let person = outline.person(at: position),
              position == start || groupTitle?(person) == title {
            people += outline.organisationSize(at: position) + (outline.isContext(at: position) ? 0 : 1)
            tops += 1
            position = outline.end(of: position)
        }
        let all = NumberText.count(people, "person", "people")
        output.append(contentsOf: "\(title) — \(NumberText.grouped(tops)) at the top, \(all) in all\n".utf8)
        return position
    }

    /// Levels indented at most: a row deeper says its level instead
    /// (`[level 80] `), so that a chain a million deep (hostile data) writes
    /// a million short lines, not a terabyte of indentation.
    public static let deepestIndentation = 64

    private func appendIndentation(of row: OrgChartRow, continuing: inout [Bool], to output: inout [UInt8]) {
        if groupTitle != nil, row.depth > 0 || row.person != nil { output.append(contentsOf: "  ".utf8) }
        if style == .treeLines {
            // Whether each level above goes on past this row, kept for every row.
            continuing.removeLast(max(0, continuing.count - max(0, row.depth - 1)))
        }
        if row.depth > Self.deepestIndentation {
            for _ in 0..<Self.deepestIndentation { output.append(contentsOf: "  ".utf8) }
            output.append(contentsOf: "[level \(NumberText.grouped(row.depth))] ".utf8)
        } else if style == .indented {
            for _ in 0..<row.depth { output.append(contentsOf: "  ".utf8) }
        } else if row.depth > 0 {
            for goesOn in continuing { output.append(contentsOf: (goesOn ? "│  " : "   ").utf8) }
            output.append(contentsOf: (row.isLastChild ? "└─ " : "├─ ").utf8)
        }
        if style == .treeLines, row.depth > 0 { continuing.append(!row.isLastChild) }
    }
}
