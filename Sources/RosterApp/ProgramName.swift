import Foundation

/// How messages name this program when they suggest a command, so that the
/// command runs as shown: by the name the user started it with
/// (`argv[0]`), shortened to `roster` when that is what they typed or when
/// the `roster` their PATH finds is this very program (git names itself
/// so); else the path as they typed it (`.build/release/roster`, after
/// `make run` in a clone, where no `roster` is on PATH).
enum ProgramName {
    /// This process's name for its messages.
    static func current() -> String {
        let environment = ProcessInfo.processInfo.environment
        return shortened(CommandLine.arguments.first ?? "", searchPath: environment["PATH"],
                         isThisProgram: { Platform.isSameFile($0, as: "/proc/self/exe") })
    }

    /// `invoked` as a shell word: its last part when it has no `/`, or when
    /// the first executable of that name in `searchPath`'s folders is this
    /// program (`isThisProgram`); else `invoked` whole.
    static func shortened(_ invoked: String, searchPath: String?, isThisProgram: (String) -> Bool) -> String {
        let name = (invoked as NSString).lastPathComponent
        guard !name.isEmpty, name != "/" else { return "roster" }
        guard invoked.contains("/") else { return InitCommand.shellWord(name) }
        let folders = (searchPath ?? "").split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "." : String($0) }
        if let found = folders.lazy.map({ $0 + "/" + name }).first(where: Platform.isExecutableFile), isThisProgram(found) {
            return InitCommand.shellWord(name)
        }
        return InitCommand.shellWord(invoked)
    }
}
