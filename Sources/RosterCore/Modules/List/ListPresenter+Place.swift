/// The remembered place: where the user is, and going back to it.
extension ListPresenter {
    /// Where the user is now, to remember for the next launch.
    public var place: RememberedPlace {
        let row = selectedRow
        return interactor.rememberedPlace(person: row?.id ?? selectedPerson, recordID: row?.recordID, sort: sortOrder,
                                          byCompany: isGroupedByCompany, collapsedCompanies: collapsedCompanies,
                                          columns: session.columns)
    }

    /// Goes back to a remembered place: its order and grouping, its person.
    /// An explicit order (`--sort`) wins over the remembered one.
    ///
    /// The person is looked up off the main actor (by id, over a database)
    /// and then placed as a search's selected person is; keys typed
    /// meanwhile wait for them.
    public func restore(_ place: RememberedPlace, sortOverride: SortOrder? = nil) {
        if let collapsed = interactor.collapsedCompanyIDs(of: place) {
            collapsedCompanies = collapsed
            rows = makeRows()
        }
        if let columns = place.columns { session.columns = ColumnChoice(remembered: columns) }
        let sort = sortOverride ?? place.sortOrder
        if sort != sortOrder || place.groupedByCompany != isGroupedByCompany {
            rearrange(sort: sort, byCompany: place.groupedByCompany)
        } else {
            render()
        }
        guard place.selectedPosition != nil || place.selectedID != nil else { return }
        isFindingPlace = true
        interactor.person(of: place) { [weak self] person in
            guard let self else { return }
            self.isFindingPlace = false
            switch person {
            case .success(let person): self.rememberedPerson = person
            case .failure(let error): self.message = "your last place could not be found: \(error.reason)"
            }
            // A new order still being sorted places them when it is done; a
            // placement on its way (Esc cleared the filter meanwhile) is what to place them in.
            if !self.isArranging { self.showSearchResult(self.isPlacing ? self.resultAsked : self.search.result) }
        }
    }
}
