import Foundation
import RosterCore
#if canImport(Glibc)
import Glibc
#endif

/// What a write killed before its rename leaves beside a file, removed by
/// the next save, or opening, of that file: its temporary copy
/// (`.people.json.roster-4242.tmp`, as large as the file), the backup's
/// (`.people.json~.roster-4242.tmp`) and the lock's own file before it had
/// its name (`people.json.lock.4242.123456789`).
///
/// Only files of exactly those names, regular files of this user's, and
/// only when their writer is surely gone: nobody holds the `flock` a writer
/// keeps on such a file from its first moment to its rename
/// (`Platform.beginFile`, `FileLock`), and the process the name gives has
/// ended, or its number now belongs to a process started after the file
/// last changed (the number used again). A file another Roster is
/// writing is never touched.
enum LeftoverFiles {
    /// Removes the leftovers of writes to the file at `path` (a symbolic
    /// link's target: the file written); their names.
    @discardableResult
    static func remove(beside path: String) -> [String] {
        guard let resolved = realpath(path, nil) else { return [] }
        let target = String(cString: resolved)
        free(resolved)
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        return candidates(in: folder.isEmpty ? "/" : folder, for: name).sorted().filter { entry in
            guard let writer = writer(of: entry, for: name), writer != getpid() else { return false }
            return removeIfLeft(folder + "/" + entry, by: writer)
        }
    }

    /// The names in `folder` that start as a leftover of the file `name`'s
    /// does, read with `readdir` (a folder of thousands of files costs a
    /// scan, not a string for each).
    private static func candidates(in folder: String, for name: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let starts: [[CChar]] = [("." + name).utf8CString.dropLast(), (name + ".lock.").utf8CString.dropLast()].map(Array.init)
        var found: [String] = []
        while let entry = readdir(directory) {
            withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee)) { entryName in
                    if starts.contains(where: { strncmp(entryName, $0, $0.count) == 0 }) { found.append(String(cString: entryName)) }
                }
            }
        }
        return found
    }

    /// The number of the process that made `entry`, when it is one of the
    /// names a write to the file `name` gives its files; else nil.
    static func writer(of entry: String, for name: String) -> pid_t? {
        let entry = Array(entry.utf8)
        for prefix in ["." + name + ".roster-", "." + name + "~.roster-"] {
            let prefix = Array(prefix.utf8), suffix = Array(".tmp".utf8)
            if entry.count > prefix.count + suffix.count, entry.starts(with: prefix), entry.reversed().starts(with: suffix.reversed()) {
                return number(entry[prefix.count..<(entry.count - suffix.count)])
            }
        }
        let lock = Array((name + ".lock.").utf8)
        guard entry.starts(with: lock) else { return nil }
        let parts = entry[lock.count...].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, number(parts[1], upTo: Int(UInt32.max)) != nil else { return nil }
        return number(parts[0])
    }

    /// Digits alone, as a number from 1 to `limit`.
    private static func number(_ digits: ArraySlice<UInt8>, upTo limit: Int = Int(Int32.max)) -> pid_t? {
        guard (1...10).contains(digits.count), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let value = Int(String(decoding: digits, as: UTF8.self)), (1...limit).contains(value) else { return nil }
        return pid_t(truncatingIfNeeded: value)
    }

    /// Removes `path` when it is a regular file of this user's that no
    /// writer holds and whose process `writer` is gone. Whether it did.
    private static func removeIfLeft(_ path: String, by writer: pid_t) -> Bool {
        var named = stat()
        guard lstat(path, &named) == 0, (named.st_mode & S_IFMT) == S_IFREG, named.st_uid == geteuid() else { return false }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev,
              flock(descriptor, LOCK_EX | LOCK_NB) == 0,
              hasEnded(writer, lastChanged: Double(opened.st_ctim.tv_sec) + Double(opened.st_ctim.tv_nsec) / 1e9) else { return false }
        // Still that file at the name (its lock held meanwhile: no writer can make a new one there).
        guard lstat(path, &named) == 0, named.st_ino == opened.st_ino, named.st_dev == opened.st_dev else { return false }
        return unlink(path) == 0
    }

    /// Whether process `pid` cannot be the one that last changed a file at
    /// `changed` (seconds since 1970): it has ended, or the number is a
    /// process's started more than a second after that (room for the clock's steps).
    static func hasEnded(_ pid: pid_t, lastChanged changed: Double) -> Bool {
        if kill(pid, 0) != 0, errno == ESRCH { return true }
        guard let started = startTime(of: pid) else { return false }
        return started > changed + 1
    }

    /// When process `pid` started, in seconds since 1970 (to a clock tick;
    /// `/proc/PID/stat` counts from the boot); nil when it cannot be read.
    static func startTime(of pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command's name (which may hold spaces and parentheses): fields 3, 4, …; the start is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        var real = timespec(), boot = timespec()
        guard clock_gettime(CLOCK_REALTIME, &real) == 0, clock_gettime(CLOCK_BOOTTIME, &boot) == 0 else { return nil }
        let bootedAt = Double(real.tv_sec - boot.tv_sec) + Double(real.tv_nsec - boot.tv_nsec) / 1e9
        return bootedAt + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
