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
    /// written to `descriptor`: inside the kernel where it can
    /// (`copy_file_range`: no trip through this process's memory), a
    /// block at a time through memory where it cannot (another file
    /// system, a pipe, an old kernel). False when reading or writing
    /// failed, or the source ended early. `copied` hears the bytes done
    /// so far, every 32 MiB or so.
    public static func copyAll(_ range: Range<Int>, of source: Int32, to descriptor: Int32,
                               copied: (Int) -> Void = { _ in }) -> Bool {
        var offset = Int64(range.lowerBound)
        var kernelCopies = copyFileRange != nil
        while offset < range.upperBound {
            let step = min(range.upperBound - Int(offset), 32 << 20)
            if kernelCopies, let copyFileRange {
                let done = copyFileRange(source, &offset, descriptor, nil, step, 0)
                if done < 0, errno == EINTR { continue }
                if done <= 0 {
                    kernelCopies = false  // and the rest through memory, from where it stopped
                    continue
                }
            } else {
                guard copyThroughMemory(Int(offset)..<(Int(offset) + step), of: source, to: descriptor) else { return false }
                offset += Int64(step)
            }
            copied(Int(offset) - range.lowerBound)
        }
        return true
    }

    /// `range` of `source` read with `pread` and written, a MiB at a time.
    private static func copyThroughMemory(_ range: Range<Int>, of source: Int32, to descriptor: Int32) -> Bool {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { block.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let got = pread(source, block.baseAddress, min(block.count, range.upperBound - offset), off_t(offset))
            if got < 0, errno == EINTR { continue }
            guard got > 0, writeAll(UnsafeRawBufferPointer(rebasing: block[..<got]), to: descriptor) else { return false }
            offset += got
        }
        return true
    }

    /// Starts writing `descriptor`'s file to disk, without waiting for it
    /// (`sync_file_range`, SYNC_FILE_RANGE_WRITE): called as a large file
    /// is written, the disk works while the rest is copied, and the
    /// closing fsync has little left to wait for (about a fifth off a
    /// 480 MB save here). Nothing where the call is missing.
    public static func startWriteback(of descriptor: Int32) {
        _ = syncFileRange?(descriptor, 0, 0, 2)
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

    private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32

    /// glibc's `sync_file_range` (2.6), behind `_GNU_SOURCE` too.
    private static let syncFileRange: SyncFileRange? = dlsym(nil, "sync_file_range").map { unsafeBitCast($0, to: SyncFileRange.self) }

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
