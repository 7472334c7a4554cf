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

    /// What `errno` `code` means, as a lowercase phrase for a message
    /// ("no such file or directory").
    public static func describe(errno code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
