import Foundation
import RosterCore
#if canImport(Glibc)
import Glibc
#endif

/// `FILE.lock` beside a file being saved: made exclusively (as git's
/// lockfile is, here by `link`, which never replaces), so that one Roster
/// saves a file at a time. The holder keeps an advisory `flock` on it for
/// as long as it lives, taken before the lock has its name: a lock whose
/// `flock` anyone can take was left by a process that died (the kernel
/// lets go of a dead process's locks), and is stale.
///
/// Nothing at the lock's name is ever opened in a way that can wait: a
/// FIFO, a device, a socket, a directory or a symbolic link there is no
/// lock Roster made, and is named at once rather than opened (a FIFO
/// opened to be read waits for a writer for ever).
struct FileLock {
    let path: String
    private let descriptor: Int32

    /// The locks this process holds now (an interrupted exit removes them).
    private static let held = Locked<Set<String>>([])

    /// For an exit cut short (Ctrl-C during a save): the locks this process
    /// holds go, so that none is left beside the file. The save stops with
    /// the process (its temporary file removed: the file stays as it was).
    /// A lock left anyway would be stale and taken over: this spares the clutter.
    static func abandonHeld() {
        for path in held.withLock({ $0 }) { unlink(path) }
    }

    /// Why the lock could not be had.
    enum Refusal: Error, Equatable {
        /// Another process held it for all of `patience`.
        case held(by: String)
        /// Something that is no lock is at its name: what it is ("a FIFO (named pipe)").
        case notALock(String)
        case failed(String)
    }

    /// Takes the lock for `target` (a regular file's real path), waiting
    /// up to `patience` for another Roster to finish its save; a stale lock
    /// is taken over.
    static func acquire(for target: String, patience: Duration = .seconds(5)) -> Result<FileLock, Refusal> {
        let path = target + ".lock"
        let deadline = ContinuousClock.now + patience
        var pause = Duration.milliseconds(2)
        // Made under a name of its own, locked and signed, then linked to
        // the lock's name: no one ever sees the lock unlocked.
        let unnamed = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(unnamed, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return .failure(.failed(Descriptor.describe(errno: errno))) }
        defer { unlink(unnamed) }
        flock(descriptor, LOCK_EX)
        _ = Descriptor.writeAll(Array("pid \(getpid())\n".utf8), to: descriptor)
        while true {
            if link(unnamed, path) == 0 {
                unlink(unnamed)
                held.withLock { _ = $0.insert(path) }
                Platform.crashPoint("after-lock")
                return .success(FileLock(path: path, descriptor: descriptor))
            }
            guard errno == EEXIST else {
                close(descriptor)
                return .failure(.failed(Descriptor.describe(errno: errno)))
            }
            switch removeIfStale(path) {
            case .removed: continue
            case .notALock(let kind):
                close(descriptor)
                return .failure(.notALock(kind))
            case .kept: break
            }
            guard ContinuousClock.now < deadline else {
                close(descriptor)
                return .failure(.held(by: holder(of: path)))
            }
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// Lets go: the lock file goes, then its `flock` with the descriptor.
    func release() {
        Platform.crashPoint("before-unlock")
        Self.held.withLock { _ = $0.remove(path) }
        unlink(path)
        close(descriptor)
    }

    /// What `removeIfStale` found at the lock's name.
    private enum Inspection {
        /// Nothing is there now (a stale lock removed, or the holder let go).
        case removed
        /// A live holder's lock, or one that could not be looked into: wait.
        case kept
        /// Not a regular file: what it is.
        case notALock(String)
    }

    /// Removes the lock at `path` if its holder is gone: its `flock` can be
    /// taken, and the name still names the file locked (not a new lock made
    /// since by someone who removed this one first).
    private static func removeIfStale(_ path: String) -> Inspection {
        let descriptor: Int32
        switch openLock(path) {
        case .opened(let opened): descriptor = opened
        case .missing: return .removed
        case .unopenable: return .kept
        case .notALock(let kind): return .notALock(kind)
        }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return .kept }
        var opened = stat(), named = stat()
        guard fstat(descriptor, &opened) == 0, lstat(path, &named) == 0,
              opened.st_ino == named.st_ino, opened.st_dev == named.st_dev else { return .kept }
        return unlink(path) == 0 ? .removed : .kept
    }

    /// A lock file opened to be read, or why not.
    private enum OpenedLock {
        case opened(Int32)
        case missing
        /// A regular file this process may not open.
        case unopenable
        /// Not a regular file: what it is.
        case notALock(String)
    }

    /// The lock file at `path` opened to be read, never waiting and never
    /// through a link; anything but a regular file is not opened at all
    /// (opening a device may do something).
    private static func openLock(_ path: String) -> OpenedLock {
        var named = stat()
        guard lstat(path, &named) == 0 else { return errno == ENOENT ? .missing : .unopenable }
        guard (named.st_mode & S_IFMT) == S_IFREG else { return .notALock(Platform.kind(of: named.st_mode)) }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? .missing : errno == ELOOP ? .notALock("a symbolic link") : .unopenable }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG else {
            // Put there since the lstat, by someone else.
            close(descriptor)
            return .notALock(Platform.kind(of: opened.st_mode))
        }
        return .opened(descriptor)
    }

    /// Who holds the lock, as its file says ("process 1234").
    private static func holder(of path: String) -> String {
        guard case .opened(let descriptor) = openLock(path) else { return "another process" }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &bytes, bytes.count)
        let text = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        guard let pid = text.split(separator: "\n").first?.split(separator: " ").last, Int(pid) != nil else { return "another process" }
        return "process \(pid)"
    }
}
