#if canImport(Glibc)
import Glibc
#endif

/// What every program Roster starts (an editor, `tmux`, a test's server)
/// is given for signals: none blocked, each at its default. A child
/// inherits the signal mask of the thread that starts it, and Dispatch's
/// and Swift's worker threads block most signals: a `slapd` started from
/// one ignored the SIGTERM that should have stopped it (its test waited on
/// it for ever), and an editor started so could not be interrupted.
public enum SpawnAttributes {
    /// Calls `body` with spawn attributes that unblock every signal and
    /// put each back to its default action in the child.
    public static func withDefaultSignals<Result>(_ body: (UnsafePointer<posix_spawnattr_t>) -> Result) -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var every = sigset_t()
        sigfillset(&every)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return withUnsafePointer(to: &attributes) { body($0) }
    }
}
