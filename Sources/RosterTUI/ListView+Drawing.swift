import RosterCore

/// The list's parts drawn one by one: prompts, errors, column titles, rows.
extension ListView {
    /// The prompt takes the bottom line, with the terminal's cursor in it;
    /// returns the columns where `mark` shows.
    @discardableResult
    func drawPrompt(_ kind: PromptKind, label: String, text: String, hints: [String], on screen: Screen,
                    mark: Range<Int>? = nil, nameFirst: Bool = false) -> Range<Int>? {
        if promptShown != kind {
            promptBar = PromptBar()
            promptShown = kind
        }
        return promptBar.draw(label: label, text: text, cursor: model?.promptCursor ?? text.count, hints: hints,
                              row: screen.size.rows - 1, on: screen, mark: mark, textFirst: nameFirst)
    }

    /// A query's error on the line above the prompt: `^~~~` under the
    /// characters at fault, the message beside it: after the mark when
    /// there is room, else before it, shortened to fit.
    func drawError(_ error: SearchErrorModel, under columns: Range<Int>?, on screen: Screen) {
        let width = screen.size.columns
        let row = screen.size.rows - 2
        guard row >= 1 else { return }
        let mark = columns.map { "^" + String(repeating: "~", count: max(0, $0.count - 1)) } ?? ""
        let start = columns?.lowerBound ?? 0
        let after = width - start - mark.count - 1, before = start - 1
        let fullWidth = DisplayText.width(error.message)
        let padding = { (count: Int) in String(repeating: " ", count: max(0, count)) }
        if after >= min(fullWidth, 30) || after >= before {
            let message = DisplayText.fit(error.message, columns: max(1, after))
            screen.putLine(padding(start) + mark + " " + message, row: row, style: .bar)
        } else {
            let message = DisplayText.fit(error.message, columns: max(1, before))
            screen.putLine(padding(start - DisplayText.width(message) - 1) + message + " " + mark, row: row, style: .bar)
        }
    }

    /// Keeps `selected` on screen with the row above it too: the company
    /// header when the selection is the section's first person, else the
    /// line a pinned header may cover, so it never hides the selection.
    func scroll(toShow selected: Int, rowCount: Int, height: Int) {
        scroll.reveal(selected, rowCount: rowCount, height: height, alsoShow: selected > 0 && height > 1 ? selected - 1 : nil)
    }

    /// The column titles over the people, the sorted one with its direction.
    func drawColumnTitles(_ columns: [PlacedColumn], of layout: ListColumns, on screen: Screen) {
        screen.putLine(Self.line(columns, width: screen.size.columns, marker: "  ") { layout.title(of: $0) },
                       row: Self.firstBodyRow - 1, style: .columnHeader)
    }

    func draw(_ row: ListRow, columns: [PlacedColumn], selected: Bool, highlight: SearchQuery?, at line: Int, on screen: Screen) {
        let width = screen.size.columns
        switch row {
        case .header(let header):
            let count = header.count == header.total ? " (\(NumberText.grouped(header.count)))"
                : " (\(NumberText.grouped(header.count))/\(NumberText.grouped(header.total)))"
            let marker = header.isCollapsed ? "▸ " : ""
            let title = DisplayText.fit(marker + header.title, columns: max(1, width - count.count - 1))
            screen.put(title, row: line, column: 0, style: selected ? .selected : .header)
            screen.put(count, row: line, column: DisplayText.width(title), style: selected ? .selected : .dim)
        case .person(let person) where !person.person.isLoaded:
            // A stand-in, never a person's values: being read, or (the title
            // says why) could not be.
            screen.put(DisplayText.fit(person.person.isLoading ? "  loading…" : "  not loaded", columns: width), row: line, column: 0,
                       style: selected ? .selected : .dim)
        case .person(let person):
            let cells = Self.cells(columns, text: { $0.text(of: person.person) })
            // The gutter: ● marked, ⇡ edited offline and not sent yet (●⇡ both).
            let marker = switch (person.isMarked, person.isUnsent) {
            case (true, true): "●⇡"
            case (true, false): "● "
            case (false, true): "⇡ "
            case (false, false): "  "
            }
            screen.put(Self.line(cells, width: width, marker: marker), row: line, column: 0,
                       style: selected ? .selected : .normal)
            if !selected {
                // The mark and the name stand out; the balance is coloured.
                if person.isMarked, let name = cells.first {
                    screen.put(marker + name.text, row: line, column: 0, style: .marked)
                }
                if let balance = cells.first(where: { $0.column == .balance }) {
                    screen.put(balance.text, row: line, column: balance.start, style: .balance)
                }
            }
            if let highlight {
                highlightMatches(highlight, in: cells, of: person.person, row: line, selected: selected, on: screen)
            }
        }
    }
}
