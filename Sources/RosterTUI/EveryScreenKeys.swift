/// What a key that means the same on every screen does.
public enum EveryScreenAction: Sendable, Equatable {
    case redraw, suspend, interrupt
}

/// The keys every screen shares, seen before the screen on top sees them
/// (the root and the event loop dispatch them from this table, and every
/// help screen lists it), so that they work the same everywhere, over a
/// prompt or a form too.
public enum EveryScreenKeys {
    public static let keyTable: [KeyBinding<EveryScreenAction>] = [
        // As in less, vim, mutt, htop: the cure for a screen another
        // program (a `write`, a background job, line noise over SSH) wrote on.
        KeyBinding([.control("l")], "^L", "redraw the whole screen (after something else wrote on it)", .redraw),
        KeyBinding([.control("z")], "^Z", "suspend; fg in the shell comes back", .suspend),
        KeyBinding([.control("c")], "^C", "quit at once (status 130), even while a database holds the screen", .interrupt),
    ]

    /// The heading these keys are listed under in every help screen.
    static let heading = "On every screen"
}
