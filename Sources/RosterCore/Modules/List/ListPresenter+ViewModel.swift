import Foundation

/// What the list's view shows, made from the presenter's state.
extension ListPresenter {
    /// The next key ends the message shown, whatever it opens or closes:
    /// the list is drawn again without it (a message shows once), under an
    /// overlay too, so a frame drawn again later does not bring it back.
    public func endMessage() {
        guard messageShown != nil else { return }
        render()
    }

    public func makeViewModel() -> ListViewModel {
        let people = peopleCount
        let hasPeople = people > 0
        let section = hasPeople ? displayed.sections[displayed.sectionIndex(containing: selection)] : nil
        let filter = search.filter
        var emptyMessage: String?
        if !hasPeople {
            emptyMessage = filter.map { "No people match '\($0)'" } ?? ListViewModel.nobodyMessage(personCount: interactor.personCount, from: interactor.sourceName)
        }
        return ListViewModel(
            sourceName: interactor.titleName,
            scopeTitle: scopeTitle,
            escapeGoesBackTo: scope.flatMap { $0.filterIsScope || filter == nil ? $0.parent : nil },
            summary: summary,
            rows: rows,
            selectedRow: hasPeople ? rows.row(ofPosition: selection) : nil,
            position: (hasPeople ? "\(NumberText.grouped(selection + 1))/\(NumberText.grouped(people))" : "0/0")
                + (search.isEditing && searchesAsked > searchesAnswered ? " searching…" : ""),
            currentCompany: ListStatusText.company(section: section, selected: isGroupedByCompany ? nil : selectedRow),
            // The people without a company last: a narrow title gives it up first.
            notice: [interactor.skippedRecordCount == 0 ? nil : "\(NumberText.grouped(interactor.skippedRecordCount)) skipped (! lists)",
                     stateNotice, withoutCompany]
                .compactMap { $0 }.joined(separator: " · ").nilIfEmpty,
            emptyMessage: emptyMessage,
            searchPrompt: search.isEditing ? search.line.text : nil,
            searchError: search.isEditing ? search.error.map { SearchErrorModel(error: $0) } ?? search.failure.map(SearchErrorModel.init(failure:)) : nil,
            filter: pendingFilter ?? filter,
            isFilterPending: pendingFilter != nil,
            highlight: search.result?.query,
            sortLabel: sortOrder.label + (isGroupedByCompany ? "" : ", flat") + (isArranging ? " (sorting…)" : ""),
            exportPrompt: exportFlow.line?.text, exportSummary: exportFlow.summary,
            promptCursor: exportFlow.line?.cursor ?? (search.isEditing ? search.line.cursor : nil),
            question: exportFlow.question ?? pendingDeletion.map(Self.deletionQuestion),
            deletion: exportFlow.question == nil ? pendingDeletion.map(DeletionQuestion.init) : nil,
            message: message ?? exportFlow.writing?.note ?? (isMarkingAll ? "marking \(NumberText.count(displayed.count, "person", "people"))…" : nil),
            messageFileName: exportFlow.question != nil ? exportFlow.fileName
                : message.flatMap { MessageText.target(in: $0, among: [exportFlow.fileName, interactor.sourceName]) },
            columns: listColumns,
            marks: [marksLabel, session.unsent.count == 0 ? nil : "\(NumberText.grouped(session.unsent.count)) unsent ⇡"]
                .compactMap { $0 }.joined(separator: " · ").nilIfEmpty,
            connection: interactor.connectionStatus)
    }

    /// A filter whose search has not answered yet, with the prompt closed
    /// (`--filter`, a count's value opened, Enter before the result): the
    /// status line names it as being searched, over the people still shown.
    public var pendingFilter: String? {
        guard !search.isEditing, searchesAsked > searchesAnswered, !SearchQuery(search.line.text).isEmpty else { return nil }
        return search.line.text
    }

    /// A filter whose search failed (a lock, a lost connection), with the
    /// prompt closed and no filter in force before it: still the one the
    /// user asked for, so a re-read of the source asks it again.
    public var failedFilter: String? {
        guard !search.isEditing, search.failure != nil, !SearchQuery(search.line.text).isEmpty else { return nil }
        return search.line.text
    }

    /// "400 people · 33 companies"; under a filter, what is shown of them
    /// ("3 of 400 people · 3 of 33 companies"); a company's list counts
    /// its own. The people without a company are in none: "No company"
    /// is not counted as one (`withoutCompany` counts them).
    var summary: String {
        let all = everyone.count
        let allCompanies = companiesInAll
        if scopeTitle != nil {
            return search.result == nil ? NumberText.count(all, "person", "people") : "\(NumberText.grouped(peopleCount)) of \(NumberText.count(all, "person", "people"))"
        }
        guard search.result != nil else {
            return "\(NumberText.count(all, "person", "people")) · \(NumberText.count(allCompanies, "company", "companies"))"
        }
        let people = "\(NumberText.grouped(peopleCount)) of \(NumberText.count(all, "person", "people"))"
        guard let shownCompanyCount else { return people }
        return people + " · \(NumberText.grouped(shownCompanyCount)) of \(NumberText.count(allCompanies, "company", "companies"))"
    }

    /// The list's columns as the user chose them, for the source's fields.
    var listColumns: ListColumns {
        ListColumns(choice: session.columns, sort: sortOrder, byCompany: isGroupedByCompany, fieldsInUse: interactor.fieldsInUse)
    }

    /// "12 with no company", beside the unfiltered whole list's figures.
    var withoutCompany: String? {
        let without = interactor.peopleWithoutCompany
        return scopeTitle == nil && search.result == nil && without > 0 ? "\(NumberText.grouped(without)) with no company" : nil
    }
}
