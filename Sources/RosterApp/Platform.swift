import Foundation
import RosterCore
import RosterResources
#if canImport(Glibc)
import Glibc
#endif

/// The operating-system calls the app makes, gathered in one place.
enum Platform {
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The width of the terminal at `descriptor`, nil when it is none.
    static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Whether something exists at `path`.
    static func fileExists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Whether `path` is a regular file (a symbolic link to one too).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` is a regular file (or a link to one) this user may run.
    static func isExecutableFile(_ path: String) -> Bool {
        isRegularFile(path) && access(path, X_OK) == 0
    }

    /// Whether `path` and `other` are one file (links followed): the same
    /// device and inode.
    static func isSameFile(_ path: String, as other: String) -> Bool {
        var first = stat(), second = stat()
        return stat(path, &first) == 0 && stat(other, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Writes a line to standard error; on a terminal, control characters
    /// (from a file name, say) are made visible rather than obeyed.
    /// Never a password, whatever the line quotes (`SecretRedaction`).
    static func writeError(_ line: String) {
        let line = SecretRedaction.redact(line)
        let safe = isTerminal(STDERR_FILENO) ? DisplayText.sanitized(line) : line
        FileHandle.standardError.write(Data((safe + "\n").utf8))
    }

    static func writeOutput(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes all of `bytes` to `descriptor`; false if writing failed.
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        Descriptor.writeAll(bytes, to: descriptor)
    }

    /// glibc's `malloc_trim`: memory freed (the directory as it was before a
    /// re-read) goes back to the system.
    static func returnFreedMemory() {
        typealias Trim = @convention(c) (Int) -> Int32
        if let trim = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(trim, to: Trim.self)(0) }
    }

    /// Writes `bytes` to the file at `path`: a new file (with `newFileMode`
    /// less the umask), or, when `replacing`, over an existing regular file,
    /// atomically (a temporary file beside it, then rename) and keeping its
    /// permission bits (and owner, as root). A symbolic link is followed to
    /// the regular file it names. Nothing but a regular file is ever
    /// replaced: a directory, a device, a FIFO, a socket or a broken link is
    /// an error, with nothing touched. Returns why it failed, or nil.
    static func writeFile(_ bytes: [UInt8], to path: String, replacing: Bool, newFileMode: mode_t = 0o666) -> String? {
        writeFile(to: path, replacing: replacing, newFileMode: newFileMode) { write(bytes, to: $0) }
    }

    /// `writeFile`, with the contents streamed: `contents` writes them to
    /// the open descriptor of a temporary file beside the target and says
    /// whether every write succeeded (and everything it meant to write was
    /// there). Only then is the temporary file flushed to disk and put in
    /// place: renamed over the old file, or linked to a new name (which,
    /// like `O_EXCL`, fails if something appeared there meanwhile). A
    /// failure, or a kill, at any point leaves the target as it was.
    static func writeFile(to path: String, replacing: Bool, newFileMode: mode_t = 0o666,
                          beforeReplacing: () -> String? = { nil }, contents: (Int32) -> Bool) -> String? {
        let file: PendingFile
        do throws(FileFailure) {
            file = try beginFile(to: path, replacing: replacing, newFileMode: newFileMode)
        } catch {
            return error.reason
        }
        return finishFile(file, written: contents(file.descriptor), beforeReplacing: beforeReplacing)
    }

    /// A file `beginFile` opened beside its target, for `finishFile` to put
    /// in place (or throw away).
    struct PendingFile: Sendable {
        /// The regular file to replace or make (a symbolic link's target).
        let target: String
        let temporary: String
        let descriptor: Int32
        let isNew: Bool
        /// A second descriptor of the file, which keeps its `flock` once
        /// `descriptor` is closed, until it is renamed or removed.
        let claim: Int32
    }

    /// Why a file could not be written, in a user's words.
    struct FileFailure: Error {
        let reason: String
    }

    /// `writeFile`'s first half: checks what is at `path` and opens the
    /// temporary file beside it (with the mode, and owner, of the file it
    /// replaces), for the caller to write to its descriptor.
    static func beginFile(to path: String, replacing: Bool, newFileMode: mode_t = 0o666) throws(FileFailure) -> PendingFile {
        var target = path
        var existing = stat()
        let isNew: Bool
        if lstat(path, &existing) == 0 {
            if (existing.st_mode & S_IFMT) == S_IFLNK {
                guard stat(path, &existing) == 0 else { throw FileFailure(reason: "it is a broken symbolic link") }
                guard let resolved = realpath(path, nil) else { throw FileFailure(reason: Descriptor.describe(errno: errno)) }
                target = String(cString: resolved)
                free(resolved)
            }
            guard (existing.st_mode & S_IFMT) == S_IFREG else {
                throw FileFailure(reason: "it is \(kind(of: existing.st_mode)), not a regular file")
            }
            guard replacing else { throw FileFailure(reason: "it already exists") }
            isNew = false
        } else if errno != ENOENT {
            throw FileFailure(reason: Descriptor.describe(errno: errno))
        } else {
            isNew = true
        }
        let folder = (target as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.\((target as NSString).lastPathComponent).roster-\(getpid()).tmp"
        let descriptor = try openExclusive(at: temporary, mode: isNew ? newFileMode : 0o600) { descriptor in
            // Held until the file is renamed or removed: one no one holds
            // was left by a write that died (`LeftoverFiles`).
            flock(descriptor, LOCK_EX)
            guard !isNew else { return }
            if getuid() == 0 { _ = fchown(descriptor, existing.st_uid, existing.st_gid) }
            _ = fchmod(descriptor, existing.st_mode & 0o7777)
        }
        unfinished.withLock { $0[temporary] = path }
        return PendingFile(target: target, temporary: temporary, descriptor: descriptor, isNew: isNew,
                           claim: fcntl(descriptor, F_DUPFD_CLOEXEC, 0))
    }

    /// `writeFile`'s second half: when `written` (every write worked),
    /// flushes `file` to disk and puts it in place; else, or on any
    /// failure, removes it and leaves the target as it was.
    static func finishFile(_ file: PendingFile, written: Bool, beforeReplacing: () -> String? = { nil }) -> String? {
        defer {
            unfinished.withLock { $0[file.temporary] = nil }
            if file.claim >= 0 { close(file.claim) }
        }
        if let failure = closeWritten(file.descriptor, at: file.temporary, written: written) { return failure }
        defer { unlink(file.temporary) }
        crashPoint("before-rename")
        if let refusal = beforeReplacing() { return refusal }
        if file.isNew {
            // link(2) never replaces: whatever appeared at the name meanwhile stays.
            guard link(file.temporary, file.target) == 0 else {
                return errno == EEXIST ? "it already exists" : Descriptor.describe(errno: errno)
            }
        } else {
            // Checked again just before: something else may have appeared there meanwhile.
            var now = stat()
            if lstat(file.target, &now) == 0, (now.st_mode & S_IFMT) != S_IFREG { return "it is \(kind(of: now.st_mode)), not a regular file" }
            guard rename(file.temporary, file.target) == 0 else { return Descriptor.describe(errno: errno) }
        }
        crashPoint("before-folder-sync")
        let folder = (file.target as NSString).deletingLastPathComponent
        syncFolder(folder.isEmpty ? "." : folder)
        return nil
    }

    /// A test build's way to die at a named step of a save, as kill -9
    /// would (`ROSTER_CRASH_AT=before-rename`); nothing in a release build.
    static func crashPoint(_ name: String) {
        #if DEBUG
        if ProcessInfo.processInfo.environment["ROSTER_CRASH_AT"] == name { kill(getpid(), SIGKILL) }
        #endif
    }

    /// The temporary files being filled by `writeFile` (a write in the
    /// background), with the path each is for.
    private static let unfinished = Locked<[String: String]>([:])

    /// Removes the temporary files of writes that will not finish (the app
    /// is ending): their targets keep what they held. Returns the targets.
    @discardableResult
    static func removeUnfinishedWrites() -> [String] {
        unfinished.withLock { writes in
            for temporary in writes.keys { unlink(temporary) }
            defer { writes = [:] }
            return writes.values.sorted()
        }
    }

    /// Makes a rename or link in `folder` durable.
    static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Writes `bytes` to `path` as a private file: mode 0600 whatever was
    /// there, in a folder made (or made again) 0700, by a temporary file
    /// beside it and a rename, never through a symbolic link (a link, or
    /// anything but a regular file, at `path` is an error, with nothing
    /// touched). For the state file and the offline copies. Returns why it
    /// failed, or nil.
    static func writePrivateFile(_ bytes: [UInt8], to path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        if let failure = makePrivateFolder(folder) { return failure }
        var status = stat()
        if lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            return "it is \(kind(of: status.st_mode)), not a regular file"
        }
        let temporary = folder + "/.\((path as NSString).lastPathComponent).roster-\(getpid()).tmp"
        unlink(temporary)
        do throws(FileFailure) {
            let descriptor = try openExclusive(at: temporary, mode: 0o600) { _ = fchmod($0, 0o600) }
            if let failure = closeWritten(descriptor, at: temporary, written: write(bytes, to: descriptor)) { return failure }
        } catch {
            return error.reason
        }
        if lstat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            unlink(temporary)
            return "it is \(kind(of: status.st_mode)), not a regular file"
        }
        guard rename(temporary, path) == 0 else {
            let reason = Descriptor.describe(errno: errno)
            unlink(temporary)
            return reason
        }
        return nil
    }

    /// Makes `folder` (and those above it) if it is not there, and gives it
    /// mode 0700 whatever it had; returns why not, or nil.
    static func makePrivateFolder(_ folder: String) -> String? {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            return "cannot make the folder \(folder)"
        }
        var status = stat()
        guard stat(folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return "\(folder) is not a folder" }
        if status.st_mode & 0o777 != 0o700, chmod(folder, 0o700) != 0 { return Descriptor.describe(errno: errno) }
        return nil
    }

    /// Creates `path` exclusively (never through a link) and lets `prepare`
    /// set its owner and mode; its descriptor.
    private static func openExclusive(at path: String, mode: mode_t, prepare: (Int32) -> Void) throws(FileFailure) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileFailure(reason: errno == EEXIST ? "it already exists" : Descriptor.describe(errno: errno)) }
        prepare(descriptor)
        return descriptor
    }

    /// Flushes the file at `path` to disk and closes it, when `written`;
    /// removes it when that, or anything before, failed. Why it failed, or nil.
    private static func closeWritten(_ descriptor: Int32, at path: String, written: Bool) -> String? {
        let flushed = written && fsync(descriptor) == 0
        let reason = Descriptor.describe(errno: errno)
        let closed = close(descriptor) == 0
        guard flushed, closed else {
            unlink(path)
            return flushed ? Descriptor.describe(errno: errno) : reason
        }
        return nil
    }

    /// Sets `handler` for signal `number` (with `flags`: `SA_RESTART`,
    /// `SA_RESETHAND`); returns the action it replaced, for `restoreHandler`.
    /// A handler may only make async-signal-safe calls.
    @discardableResult
    static func setHandler(_ number: Int32, flags: Int32, _ handler: @convention(c) (Int32) -> Void) -> sigaction {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        var previous = sigaction()
        sigaction(number, &action, &previous)
        return previous
    }

    /// Puts back, signal by signal, the actions `setHandler` replaced.
    static func restoreHandlers(_ signals: [Int32], _ previous: [sigaction]) {
        for (number, action) in zip(signals, previous) {
            var action = action
            sigaction(number, &action, nil)
        }
    }

    /// "a directory", "a FIFO"… for a file's `st_mode`.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        case S_IFREG: return "a regular file"
        default: return "a special file"
        }
    }


    /// The bundled `people.json`: beside the built binary (SwiftPM's resource
    /// bundle) or under `share/roster` of an installed prefix.
    static func bundledDirectoryPath() -> String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let directory = (executable as NSString).deletingLastPathComponent
        let candidates = [
            "\(directory)/\(BundledDirectory.bundleName)/\(BundledDirectory.fileName)",
            "\(directory)/\(BundledDirectory.installedRelativePath)",
        ]
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
