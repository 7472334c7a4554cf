import RosterCore

extension Key {
    /// What the key types into an open line (a prompt, a form's field):
    /// a character, or characters typed ahead or pasted as one edit, made
    /// safe (`PastedText`); nil for a key that types nothing.
    var typedEdit: LineEdit? {
        switch self {
        case .character(let character): return .insert(PastedText.cleaned(String(character)))
        case .typed(let text), .paste(let text): return .insert(PastedText.cleaned(text))
        default: return nil
        }
    }
}
