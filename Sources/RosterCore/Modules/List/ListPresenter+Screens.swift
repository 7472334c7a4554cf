/// The screens the list opens, and the way back.
extension ListPresenter {
    public func goBack() {
        wireframe?.navigate(to: .back(filter: filter))
    }

    /// The whole list has nowhere to go back to, and says so rather than
    /// nothing: the reason first, after the key's name.
    public func goBack(by key: BackKey) {
        guard scope == nil else { return goBack() }
        switch key {
        case .escape: message = "Esc: nothing to close"  // with a filter, Esc clears it
        case .back(let name): message = "\(name): already at the top level"
        }
        render()
    }

    public func showCompanies() {
        wireframe?.navigate(to: .companies(shown: displayed, filter: filter, selectedCompany: selectedCompanyID))
    }

    public func showOrgChart() {
        wireframe?.navigate(to: .orgChart(shown: displayed, person: peopleCount > 0 ? selectedID : nil))
    }

    public func showCounts() {
        wireframe?.navigate(to: .counts(shown: displayed, filter: filter, field: SummaryField.matching(sortOrder.key)))
    }
}
