import RosterCore

/// Turns the terminal's keys into the app's, so that no amount of text
/// arriving at once makes work for every character:
///
/// - a bracketed paste (`ESC [200~` … `ESC [201~`, which the terminal sends
///   once the app asked for it with `ESC [?2004h`) becomes one `.paste`,
///   cleaned of control characters, never keys;
/// - printable characters already waiting (typed ahead, or a paste where
///   the terminal does not mark pastes) become one `.typed`, so a prompt
///   takes them as one edit and searches once.
///
/// The terminal supplies raw reads (nil: nothing waiting now); `waitForMore`
/// waits briefly for the rest of a paste (false: none came).
public struct KeyReader {
    /// What the terminal read: a key, or one of the paste's marks.
    public enum Raw: Equatable, Sendable {
        case key(Key)
        case pasteBegin, pasteEnd
    }

    /// A key read past the end of a run of characters, for next time.
    private var pending: Raw?
    /// A paste past its limit: the rest of it is dropped, up to its end
    /// mark, so it is never read as keys.
    private var isDroppingPaste = false

    public init() {}

    /// True while a key read ahead is held, so the caller reads again
    /// before it waits on the terminal.
    public var hasPending: Bool { pending != nil }

    public mutating func next(read: () -> Raw?, waitForMore: () -> Bool) -> Key? {
        while isDroppingPaste {
            guard let raw = take(read) else { return nil }
            if raw == .pasteEnd { isDroppingPaste = false }
        }
        guard let first = take(read) else { return nil }
        switch first {
        case .pasteBegin:
            let (text, isWhole) = Self.readPaste(read: read, waitForMore: waitForMore)
            isDroppingPaste = !isWhole
            return .paste(text)
        case .pasteEnd: return next(read: read, waitForMore: waitForMore)
        case .key(.character(let character)):
            var text = String(character)
            var reads = 1
            while let raw = read() {
                guard case .key(.character(let next)) = raw else {
                    pending = raw
                    break
                }
                text.append(next)
                reads += 1
            }
            return reads == 1 ? .character(character) : .typed(text)
        case .key(let key): return key
        }
    }

    private mutating func take(_ read: () -> Raw?) -> Raw? {
        if let pending {
            self.pending = nil
            return pending
        }
        return read()
    }

    /// The text up to the paste's end mark (or until nothing more comes):
    /// line ends and tabs as spaces, other keys dropped. It stops at
    /// `PastedText.limit` characters (false: the rest is still to drop).
    static func readPaste(read: () -> Raw?, waitForMore: () -> Bool) -> (text: String, isWhole: Bool) {
        var text = ""
        var count = 0
        while count < PastedText.limit {
            guard let raw = read() else {
                if waitForMore() { continue }
                break
            }
            switch raw {
            case .pasteEnd: return (PastedText.cleaned(text), true)
            case .pasteBegin: continue
            case .key(.character(let character)): text.append(character)
            case .key(.enter), .key(.tab): text.append(" ")
            case .key: continue
            }
            count += 1
        }
        return (PastedText.cleaned(text), count < PastedText.limit)
    }
}
