/// What the list's status bar says of where the selection is.
enum ListStatusText {
    /// The company of the selection: its section's title when grouped by
    /// company; in the flat list (one section, "Everyone"), the `selected`
    /// person's own company, "No company" when they have none.
    static func company(section: CompanySection?, selected: ListedPerson?) -> String {
        guard let selected else { return section?.title ?? "" }
        return selected.company.allSatisfy(\.isWhitespace) ? "No company" : selected.company
    }
}

extension String {
    /// Nil for the empty string: a status part with nothing to say.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
