/// Every screen's keys as its help (`?`) shows them, in the order a
/// newcomer meets the screens. The documentation's key table
/// (docs/keys.md) and the manual's KEYS section are made from these by
/// `make docs`, and a test fails while the committed text differs, so the
/// help, the manual and the documentation cannot disagree. A screen with
/// a key table of its own joins here (a test counts the tables).
@MainActor
enum KeyReference {
    static var screens: [HelpOverlay] {
        [
            ListView.keyHelp,
            DetailView.keyHelp,
            CompaniesView.keyHelp,
            FrequencyView.keyHelp,
            OrgChartView.keyHelp,
            EditorView.formHelp,
            EditorView.conflictHelp,
            // The skipped records' screen has no `?`, and the loading
            // screen's repeats the list's keys after its own: each table once.
            HelpOverlay(title: "Skipped records keys (!)", table: SkippedRecordsView.keyTable),
            HelpOverlay(title: LoadingView.helpTitle, table: LoadingView.keyTable),
            // Every help screen ends with these; documented once.
            HelpOverlay(title: EveryScreenKeys.heading, table: EveryScreenKeys.keyTable),
        ]
    }
}
