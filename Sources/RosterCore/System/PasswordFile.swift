#if canImport(Glibc)
import Glibc
#endif

/// A password kept in a file for Roster to read (`--password-file FILE`,
/// as `ldapsearch -y` reads one), so that it is never on a command line.
///
/// The file must be a regular file of this user's that nobody else can
/// read or write (mode 0600 or 0400): a password others can read is no
/// secret, and one others can write is not the user's. Its bytes are the
/// password, less one line ending (an editor adds one; `ldapsearch` would
/// send it).
public enum PasswordFile {
    /// Why the file cannot be used, naming it; never its contents.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String

        init(_ path: String, _ problem: String) {
            message = "\(path): \(problem)"
        }

        public var description: String { message }
    }

    /// Longer than any password; a file this long is a mistake.
    static let largest = 4096

    /// The password in the file at `path`.
    public static func read(_ path: String) throws(Problem) -> [UInt8] {
        // Non-blocking: a FIFO named by mistake must not hang the open.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Problem(path, "cannot read the password file (\(Descriptor.describe(errno: errno)))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Problem(path, "cannot read the password file (\(Descriptor.describe(errno: errno)))") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Problem(path, "the password file is not a regular file") }
        guard status.st_uid == geteuid() else { throw Problem(path, "the password file belongs to another user") }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw Problem(path, "others can read or change the password file (mode 0\(String(mode, radix: 8))): chmod 600 \(path)")
        }
        guard status.st_size <= largest else { throw Problem(path, "is too long for a password file") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBufferPointer { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw Problem(path, "cannot read the password file (\(Descriptor.describe(errno: errno)))") }
            if got == 0 { break }
            count += got
        }
        var password = Array(bytes.prefix(count))
        if password.last == UInt8(ascii: "\n") {
            password.removeLast()
            if password.last == UInt8(ascii: "\r") { password.removeLast() }
        }
        guard !password.isEmpty else { throw Problem(path, "the password file is empty") }
        return password
    }
}
