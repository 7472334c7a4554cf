/// A list's remembered place, written from and read back against a
/// repository: the person by file position and record id, collapsed
/// companies by name, so that the next launch finds them again.
extension RememberedPlace {
    /// Where a list is: `person` selected (whose `_id` is `recordID`, when
    /// their row was read), in `sort` and grouping, with
    /// `collapsedCompanies` (by company id) and `columns`. Nothing is read
    /// from a source that may wait (this runs as the app quits): without
    /// the row, the place is the person's position alone.
    init(person: PersonID?, recordID: String?, sort: SortOrder, byCompany: Bool, collapsedCompanies: Set<Int>, columns: ColumnChoice,
         repository: any PeopleRepository) {
        let recordID = recordID ?? person.flatMap { repository.atOnce?.personAtOnce($0)?.id }
        self.init(
            selectedPosition: person?.rawValue, selectedID: recordID,
            sortKey: sort.key.rawValue, descending: sort.descending, groupedByCompany: byCompany)
        let companies = repository.companies
        self.collapsedCompanies = collapsedCompanies.isEmpty ? nil : collapsedCompanies.map { companies[$0].name }.sorted()
        self.columns = columns == .standard ? nil : columns.remembered
    }

    /// The person to select again: the one at the remembered file
    /// position, unless their id says the file changed (then by id).
    func person(in repository: any PeopleRepository) async throws(RepositoryError) -> PersonID? {
        let person = selectedPosition.flatMap { $0 >= 0 && $0 < repository.personCount ? PersonID($0) : nil }
        guard let id = selectedID, !id.isEmpty else { return person }
        if let person, try await repository.person(person).id == id { return person }
        return try await repository.personID(recordID: id)
    }

    /// The companies to collapse again, by id; nil when none were remembered.
    func collapsedCompanyIDs(in repository: any PeopleRepository) -> Set<Int>? {
        guard let names = collapsedCompanies else { return nil }
        let wanted = Set(names)
        let companies = repository.companies
        return Set(companies.indices.filter { wanted.contains(companies[$0].name) })
    }
}
