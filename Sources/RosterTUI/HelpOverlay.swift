import RosterCore

/// Draws a screen's key table as a full screen of help: it is made from
/// the same table that dispatches keys, so the two cannot disagree.
@MainActor
func drawHelp<Action>(_ table: [KeyBinding<Action>], title: String, on screen: Screen) {
    let size = screen.size
    screen.erase()
    screen.putBar(left: " Roster — \(title)", right: "help ", row: 0)
    let labelWidth = table.map { DisplayText.width($0.label) }.max() ?? 0
    for (offset, binding) in table.enumerated() where 2 + offset < size.rows - 1 {
        let label = String(repeating: " ", count: labelWidth - DisplayText.width(binding.label)) + binding.label
        screen.put(DisplayText.fit("  " + label, columns: size.columns), row: 2 + offset, column: 0, style: .bold)
        screen.put(DisplayText.fit(binding.help, columns: max(1, size.columns - labelWidth - 6)), row: 2 + offset,
                   column: labelWidth + 6, style: .normal)
    }
    screen.putBar(left: " any other key closes this help", right: "q quit ", row: size.rows - 1)
}
