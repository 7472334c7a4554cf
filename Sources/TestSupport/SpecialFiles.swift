#if canImport(Glibc)
import Glibc
#endif

/// Files that are not regular files, made for real: what tests of what
/// Roster never opens, follows or replaces put in its way.
public enum SpecialFiles {
    /// A Unix socket bound at `path` (its file stays once the descriptor is
    /// closed): its descriptor, or -1 when it could not be made.
    public static func socket(at path: String) -> Int32 {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { name in
            for (index, byte) in path.utf8.prefix(name.count - 1).enumerated() { name[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }
}
