#if !ROSTER_FUZZ
import RosterCore
#endif

extension CompanySummary {
    /// The figures of the people in `grouped` (everyone, or a search's
    /// matches, grouped or flat), per company, companies A→Z: only the
    /// people counted, so that a filtered overview adds up to what it says.
    /// One pass over the store in file order (reading it sequentially).
    public static func all(in store: PeopleStore, grouped: GroupedPeople) -> [CompanySummary] {
        let members = grouped.order.count == store.count ? nil : PeopleSearch.members(of: grouped, store: store)
        var byCompany = store.companies.indices.map {
            CompanySummary(companyID: $0, title: "", headcount: 0, active: 0, totalCents: 0, balances: 0, ages: 0, ageSum: 0)
        }
        for person in 0..<store.count {
            if let members, members[person >> 6] & (1 << UInt64(person & 63)) == 0 { continue }
            let company = store.companyID(of: person)
            byCompany[company].headcount += 1
            if store.isActive(person) == true { byCompany[company].active += 1 }
            if let cents = store.balanceCents(of: person) {
                byCompany[company].totalCents += Int128(cents)
                byCompany[company].balances += 1
            }
            if let age = store.age(of: person) {
                byCompany[company].ages += 1
                byCompany[company].ageSum += age
            }
        }
        let rank = GroupedPeople.rankCompanies(store.companies)
        return byCompany.filter { $0.headcount > 0 }.sorted { rank[$0.companyID] < rank[$1.companyID] }.map { summary in
            var named = summary
            let company = store.companies[summary.companyID]
            named.title = company.key.isEmpty ? GroupedPeople.noCompanyTitle : company.name
            return named
        }
    }
}
