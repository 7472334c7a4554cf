#if canImport(Glibc)
import Glibc
#endif

/// The one "write every byte" loop: the app's output, `--list`, exports and
/// terminal control sequences all go through it. (In RosterCore because the
/// list writer and the curses screen, below the app, need it too;
/// `Platform` keeps the app's other OS calls.)
public enum Descriptor {
    /// Writes all of `bytes` to `descriptor`, retrying after a signal
    /// interrupts a write and after short writes; false if writing failed.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    /// Copies `range` of the file open as `source` to the end of what was
    /// written to `descriptor`, inside the kernel (`copy_file_range`: no
    /// trip through this process's memory); false when the kernel cannot
    /// here (another file system, an old kernel) or the source ends early,
    /// and then nothing of the range may have been copied past the point
    /// reached: the caller writes the rest its own way from `from`.
    public static func copyAll(_ range: Range<Int>, of source: Int32, to descriptor: Int32, from: inout Int) -> Bool {
        var offset = Int64(range.lowerBound)
        from = range.lowerBound
        while from < range.upperBound {
            guard let copyFileRange else { return false }
            let copied = copyFileRange(source, &offset, descriptor, nil, range.upperBound - from, 0)
            if copied < 0, errno == EINTR { continue }
            guard copied > 0 else { return false }
            from += copied
        }
        return true
    }

    /// What `errno` `code` means, as a lowercase phrase for a message
    /// ("no such file or directory").
    public static func describe(errno code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

extension Descriptor {
    private typealias CopyFileRange = @convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32) -> Int

    /// glibc's `copy_file_range` (2.27), behind `_GNU_SOURCE` too.
    private static let copyFileRange: CopyFileRange? = dlsym(nil, "copy_file_range").map { unsafeBitCast($0, to: CopyFileRange.self) }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which
    /// Swift's Glibc module does not declare (it is behind `_GNU_SOURCE`).
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Has a `posix_spawn` child close every descriptor from `first` up, so
    /// that none of ours (a socket, a pipe another thread waits on, a file
    /// being written) outlives us in it: a long-lived child (a server, a
    /// tmux) holding a pipe's end would keep its reader waiting for ever.
    /// False where the C library cannot (then only close-on-exec protects).
    @discardableResult
    public static func closeInChild(from first: Int32, _ actions: inout posix_spawn_file_actions_t) -> Bool {
        guard let addCloseFrom else { return false }
        return addCloseFrom(&actions, first) == 0
    }
}
