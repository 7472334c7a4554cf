/// What the list's status bar says of where the selection is.
enum ListStatusText {
    /// The company of the selection: its section's title when grouped by
    /// company; in the flat list (one section, "Everyone"), the `selected`
    /// person's own company, "No company" when they have none.
    static func company(section: CompanySection?, selected: ListedPerson?) -> String {
        guard let selected else { return section?.title ?? "" }
        return company(named: selected.company)
    }

    /// What `[`, `]` and `Space` say in the flat list: it has no company
    /// to go to or to fold.
    static let flatList = "one flat list: c groups by company"

    /// A person's company as a status bar names it: "No company" for none.
    static func company(named text: String) -> String {
        text.allSatisfy(\.isWhitespace) ? "No company" : text
    }
}

extension String {
    /// Nil for the empty string: a status part with nothing to say.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
