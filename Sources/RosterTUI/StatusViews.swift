import RosterCore

/// Draws a few lines centred on an otherwise blank screen.
@MainActor
func drawCentered(_ lines: [(String, TextStyle)], on screen: Screen) {
    let size = screen.size
    let top = max(0, (size.rows - lines.count) / 2)
    for (offset, (text, style)) in lines.enumerated() where top + offset < size.rows {
        let fitted = DisplayText.fit(text, columns: size.columns)
        screen.put(fitted, row: top + offset, column: max(0, (size.columns - DisplayText.width(fitted)) / 2), style: style)
    }
}

/// Shown while the directory loads: a progress bar with bytes and people
/// for a file; for a database, what it is doing and for how long. `?`
/// shows the keys at once (the list's too, for what to type next).
@MainActor
public final class LoadingView: ScreenView {
    private let sourceName: String
    private let progress: LoadProgress
    private let onQuit: () -> Void
    private let started = ContinuousClock.now
    private(set) var help: HelpOverlay?

    enum Action: Sendable { case quit, help }

    static let keyTable: [KeyBinding<Action>] = [
        KeyBinding([.character("q"), .escape], "q/Esc", "stop loading and quit", .quit, hint: true),
        KeyBinding([.character("?"), .function(1)], "?", "these keys", .help, hint: true),
    ]

    static let helpTitle = "Keys while loading"

    public init(sourceName: String, progress: LoadProgress, onQuit: @escaping () -> Void) {
        self.sourceName = sourceName
        self.progress = progress
        self.onQuit = onQuit
    }

    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        if let outcome = help?.handle(key, screenSize: screenSize) {
            if outcome == .close { help = nil }
            return true
        }
        switch Self.keyTable.action(for: key) {
        case .quit?: onQuit()
        case .help?:
            help = HelpOverlay(title: Self.helpTitle, table: Self.keyTable)
                .adding("The list's keys: typed now, they act once it shows", table: ListView.keyTable)
        case nil: return false
        }
        return true
    }

    /// q, Esc and ? (and every key while the help shows) answer at once;
    /// any other key is typed ahead for the list (as less does while it
    /// reads), in order.
    public func timing(of key: Key) -> KeyTiming {
        help != nil || Self.keyTable.action(for: key) != nil ? .jumpsTheQueue : .waits
    }

    public func draw(on screen: Screen) {
        if help != nil {
            help?.draw(on: screen)
            return
        }
        screen.erase()
        var lines: [(String, TextStyle)] = [("Loading \(sourceName)…", .bold), ("", .normal)]
        if let stage = progress.stage.withLock({ $0 }) {
            // The time on a line of its own: a narrow screen cuts the stage, never the time.
            let seconds = (ContinuousClock.now - started).components.seconds
            lines += [(stage, .normal), (seconds > 0 ? "\(seconds) s" : "", .dim)]
        } else {
            lines += progressLines(width: screen.size.columns)
        }
        lines.append(("", .normal))
        lines.append(("q quits · ? keys", .dim))
        drawCentered(lines, on: screen)
    }

    /// The bar, and bytes and people read.
    private func progressLines(width: Int) -> [(String, TextStyle)] {
        let (bytes, total, people) = progress.snapshot
        guard total > 0 else { return [("\(Self.megabytes(bytes)) read · \(Self.thousands(people)) people", .dim)] }
        let barWidth = max(10, min(50, width - 10))
        let fraction = min(1, Double(bytes) / Double(total))
        let filled = Int(fraction * Double(barWidth))
        return [("[" + String(repeating: "█", count: filled) + String(repeating: "·", count: barWidth - filled)
                 + "] \(Int(fraction * 100))%", .normal),
                ("\(Self.megabytes(bytes)) of \(Self.megabytes(total)) · \(Self.thousands(people)) people", .dim)]
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes < 1_000_000 ? "\(bytes / 1000) kB" : "\(bytes / 1_000_000) MB"
    }

    static func thousands(_ value: Int) -> String {
        NumberText.grouped(value)
    }
}

/// A load that failed: what, where, and how to get out.
@MainActor
public final class ErrorView: ScreenView {
    private let error: LoadError
    private let onQuit: () -> Void

    public init(error: LoadError, onQuit: @escaping () -> Void) {
        self.error = error
        self.onQuit = onQuit
    }

    public var unusedKeyHint: String? { "q quits" }

    public func handle(_ key: Key, screenSize: ScreenSize) -> Bool {
        guard key == .character("q") || key == .escape || key == .enter else { return false }
        onQuit()
        return true
    }

    public func draw(on screen: Screen) {
        screen.erase()
        screen.putBar(left: " Roster — \(error.file)", right: "error ", row: 0)
        // A database opened, but its table could not be browsed.
        let verb = if case .database = error { "browse" } else { "open" }
        var lines: [(String, TextStyle)] = [("Roster could not \(verb) \(error.file)", .bold), ("", .normal)]
        for line in wrap(error.message, columns: max(10, screen.size.columns - 4)) {
            lines.append((line, .normal))
        }
        lines.append(("", .normal))
        lines.append(("Press q to quit", .dim))
        drawCentered(lines, on: screen)
    }
}

/// The terminal is smaller than Roster can draw in; shown until it grows.
/// With `unsaved` typing on the screen below, q does not quit.
@MainActor
public func drawTooSmall(on screen: Screen, unsaved: Bool = false) {
    screen.erase()
    let size = screen.size
    drawCentered([
        ("Terminal too small", .bold),
        ("\(size.columns)×\(size.rows), needs \(ScreenSize.minimum.columns)×\(ScreenSize.minimum.rows)", .normal),
        unsaved ? ("unsaved changes: enlarge it", .dim) : ("q quits", .dim),
    ], on: screen)
}

/// Greedy word wrap by display width; long words are cut.
func wrap(_ text: String, columns: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
        let candidate = current.isEmpty ? word : current + " " + word
        if DisplayText.width(DisplayText.sanitized(candidate)) <= columns {
            current = candidate
        } else {
            if !current.isEmpty { lines.append(current) }
            current = DisplayText.fit(word, columns: columns)
        }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
}
