import RosterCore

/// Drawing the list: the frame (rows, company headers pinned, columns
/// measured on what shows, the status line), then its parts one by one:
/// prompts, errors, column titles, rows.
extension ListView {
    /// The title bar, then the column titles, then the people.
    static let firstBodyRow = 2
    static func bodyHeight(_ size: ScreenSize) -> Int { max(1, size.rows - 3) }
    static func halfPage(_ size: ScreenSize) -> Int { max(1, bodyHeight(size) / 2) }

    public func draw(on screen: Screen) {
        guard let model else { return }
        var shown = 0..<0
        // Rows drawn as loading are read now, off the main actor.
        defer { presenter.frameDrawn(rows: shown) }
        let size = screen.size
        screen.erase()
        let summary = [model.summary, model.notice].compactMap { $0 }.joined(separator: " · ")
        screen.putTitleBar(source: model.sourceName, then: model.scopeTitle.map { " › \($0)" } ?? "", right: summary)
        if let emptyMessage = model.emptyMessage {
            placedColumns = nil
            let text = DisplayText.fit(emptyMessage, columns: size.columns)
            screen.put(text, row: Self.firstBodyRow + Self.bodyHeight(size) / 2, column: max(0, (size.columns - DisplayText.width(text)) / 2),
                       style: .dim)
        } else {
            shown = drawRows(of: model, on: screen)
        }
        drawBottomLine(of: model, on: screen)
    }

    /// The column titles and the rows that fit, the selected one on screen;
    /// which rows of the model those are.
    @discardableResult
    func drawRows(of model: ListViewModel, on screen: Screen) -> Range<Int> {
        let size = screen.size
        let height = Self.bodyHeight(size)
        scroll(toShow: model.selectedRow ?? 0, rowCount: model.rows.count, height: height)
        let end = min(model.rows.count, topRow + height)
        let shown = (topRow..<end).map { model.rows[$0] }
        // Inside a company, its header stays on the first line, drawn
        // as the real one is; scrolling keeps the selection below it.
        // Not when the top row is its company's last: the next header comes
        // at once, and the pinned one would head none of its people.
        let nextIsHeader = topRow + 1 < model.rows.count && model.rows.headerRow(forRow: topRow + 1) == topRow + 1
        pinnedHeaderRow = model.rows.headerRow(forRow: topRow).flatMap { $0 < topRow && !nextIsHeader ? $0 : nil }
        let (measure, page) = measure(shown, of: MeasuredList(rowCount: model.rows.count, filter: model.filter, sortLabel: model.sortLabel,
                                                              columns: model.columns))
        var columns = model.columns.layout(width: size.columns, balanceWidth: measure.balance, widest: measure.widest)
        // Widths kept from other pages never hide a column this page has
        // room for (a long email further down would otherwise take the age
        // away for good): then this page's own, remembered from here on.
        if let page, page.balance != measure.balance || page.widest != measure.widest {
            let own = model.columns.layout(width: size.columns, balanceWidth: page.balance, widest: page.widest)
            if own.count > columns.count {
                columns = own
                lastMeasure = page
            }
        }
        placedColumns = columns.map(\.column)
        drawColumnTitles(columns, of: model.columns, on: screen)
        for (offset, row) in shown.enumerated() {
            draw(row, columns: columns, selected: topRow + offset == model.selectedRow, highlight: model.highlight,
                 at: Self.firstBodyRow + offset, on: screen)
        }
        if let header = pinnedHeaderRow {
            screen.putLine("", row: Self.firstBodyRow, style: .normal)
            draw(model.rows[header], columns: columns, selected: false, highlight: model.highlight, at: Self.firstBodyRow, on: screen)
        }
        return topRow..<end
    }

    /// How wide the values on screen are: the balance column is as wide as
    /// the widest amount shown. Rows still being read have no values to
    /// measure: the columns keep the widths of the last frame that had some.
    ///
    /// Scrolling the same list (`list`: what identifies it), columns only
    /// widen: they do not jump back and forth from page to page. `page` is
    /// this page's own measure when it had rows to measure.
    func measure(_ shown: [ListRow], of list: MeasuredList) -> (measure: Measure, page: Measure?) {
        let people = shown.compactMap { row in if case .person(let person) = row { person.person.value } else { nil } }
        guard !people.isEmpty else {
            // Rows being read measure as empty (each column as wide as its
            // title) until a frame has values; headers alone measure nothing.
            let unread = shown.contains { if case .person = $0 { true } else { false } }
            return (lastMeasure ?? (balance: 0, widest: unread ? Self.emptyValues : [:]), nil)
        }
        var measure: Measure = (balance: people.reduce(0) { max($0, DisplayText.width(DisplayText.sanitized($1.balance))) },
                                widest: Self.widestValues(people))
        let page = measure
        if list == measuredList, let last = lastMeasure {
            measure.balance = max(measure.balance, last.balance)
            measure.widest.merge(last.widest, uniquingKeysWith: max)
        }
        (lastMeasure, measuredList) = (measure, list)
        return (measure, page)
    }

    /// A question's hint beside it, longest first: the first that fits whole.
    static let questionHints = ["y yes  any other key no", "y yes", ""]

    /// The last line: a question, the export or search prompt, or the
    /// status bar (with the help over the screen, when open).
    func drawBottomLine(of model: ListViewModel, on screen: Screen) {
        let size = screen.size
        if let question = model.question {
            // The question wins the line (it ends in "(y/n)", with as many
            // names as fit); the hint is the longest that fits whole beside
            // it, or none (never one cut mid-word).
            let asked = model.deletion?.text(columns: max(1, size.columns - 2)) ?? question
            func room(_ hint: String) -> Int { size.columns - 2 - (hint.isEmpty ? 0 : DisplayText.width(hint) + 2) }
            let hint = Self.questionHints.first { MessageText.fits(asked, columns: room($0), target: model.messageFileName) } ?? ""
            screen.putBar(left: " " + MessageText.fit(asked, columns: max(1, room(hint)), target: model.messageFileName),
                          right: hint.isEmpty ? "" : hint + " ", row: size.rows - 1, leftWins: true)
            return
        }
        if let name = model.exportPrompt {
            // What will be written, above the prompt (as a search's error is).
            model.exportSummary.map { screen.putLine(DisplayText.fit(" " + $0, columns: size.columns), row: size.rows - 2, style: .dim) }
            drawPrompt(.export, label: " export to: ", text: name, hints: Self.exportPromptHints, on: screen, nameFirst: true)
            return
        }
        if let prompt = model.searchPrompt {
            let marked = drawPrompt(.search, label: " /", text: prompt, hints: [model.position] + Self.searchPromptHints,
                                    on: screen, mark: model.searchError?.range)
            if let error = model.searchError { drawError(error, under: marked, on: screen) }
            return
        }
        promptShown = nil
        let filter = model.filter.map { (model.isFilterPending ? "searching: " : "filter: ") + $0 }
        // On a narrow terminal the company goes first (its header is on
        // screen), so that the order and the filter stay readable, and the
        // way back to a lost server (`r reconnect`) keeps its room.
        let wayBack = model.connection?.isLost == true ? DisplayText.width(ConnectionHints.reconnect.text) + 3 : 0
        let company = DisplayText.width(" " + [model.position, model.marks ?? "", model.currentCompany, model.sortLabel, filter ?? ""]
            .joined(separator: " · ")) >= size.columns - wayBack ? nil : model.currentCompany
        var status = [model.position, model.marks, company, model.sortLabel, filter, model.message].compactMap { $0 }.filter { !$0.isEmpty }
        // A one-off message takes the room of all hints but quitting.
        let filtered = model.emptyMessage == nil ? Self.filteredHints : Self.nobodyFilteredHints
        let hints = ConnectionHints.adding(to: model.escapeGoesBackTo.map(Self.backHints) ?? (model.filter != nil ? filtered : Self.hints),
                                           connection: model.connection)
        if let message = model.message {
            // A message that does not fit after the whole status keeps the
            // position beside it while its reason fits there too (its file
            // name shortened first); else it takes the line alone (the
            // hint's room too), and the position is back at the next key.
            let room = size.columns - DisplayText.width(hints.quitOnly.fitting(columns: size.columns / 2) + " ") - 2
            if DisplayText.width(status.joined(separator: " · ")) > room {
                let besidePosition = room - DisplayText.width(model.position + " · ")
                status = MessageText.fits(message, columns: besidePosition, target: model.messageFileName)
                    ? [model.position, MessageText.fit(message, columns: besidePosition, target: model.messageFileName)]
                    : [MessageText.fit(message, columns: max(1, size.columns - 2), target: model.messageFileName)]
            }
        }
        screen.putStatusBar(left: " " + status.joined(separator: " · "), hints: model.message != nil ? hints.quitOnly : hints,
                            row: size.rows - 1)
        help?.draw(on: screen)
    }

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
        case .person(let row):
            guard case .loaded(let person) = row.person else {
                // No person's values: being read, or could not be, and why.
                screen.put(DisplayText.fit(Self.unread(row.person), columns: width), row: line, column: 0,
                           style: selected ? .selected : .dim)
                return
            }
            let cells = Self.cells(columns, text: { $0.text(of: person) })
            // The gutter: ● marked, ⇡ edited offline and not sent yet (●⇡ both).
            let marker = switch (row.isMarked, row.isUnsent) {
            case (true, true): "●⇡"
            case (true, false): "● "
            case (false, true): "⇡ "
            case (false, false): "  "
            }
            screen.put(Self.line(cells, width: width, marker: marker), row: line, column: 0,
                       style: selected ? .selected : .normal)
            if !selected {
                // The mark and the name stand out; the balance is coloured.
                if row.isMarked, let name = cells.first {
                    screen.put(marker + name.text, row: line, column: 0, style: .marked)
                }
                if let balance = cells.first(where: { $0.column == .balance }) {
                    screen.put(balance.text, row: line, column: balance.start, style: .balance)
                }
            }
            if let highlight {
                highlightMatches(highlight, in: cells, of: person, row: line, selected: selected, on: screen)
            }
        }
    }

    /// What a row not read (yet) says in a person's place.
    static func unread(_ row: Loadable<ListedPerson>) -> String {
        switch row {
        case .loading, .loaded: return "  loading…"
        case .failed(let error): return "  not loaded: " + DisplayText.sanitized(error.reason)
        }
    }
}
