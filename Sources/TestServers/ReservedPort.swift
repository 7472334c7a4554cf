import Foundation
import RosterCore

/// A loopback TCP port held for a test server for its whole life, so that
/// the kernel hands it to nobody else on this machine.
///
/// A port picked by binding to port 0 and closing again is free only for
/// that moment: another test's server (in this process or another) can be
/// handed the same one before ours listens, and a server that loses that
/// race goes unnoticed if the wait only asks whether the port answers. So
/// the port stays bound here (SO_REUSEADDR, never listening: the server
/// binds beside it, as slapd does with SO_REUSEADDR), which keeps it out
/// of every other pick, bind(0) and connect() alike; and `isListened(by:)`
/// says whether the listener on it is really the server's.
final class ReservedPort: Sendable {
    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    let number: Int
    private let socket: Int32

    init() throws(Failed) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failed(description: "socket: " + Descriptor.describe(errno: errno)) }
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else {
            let reason = Descriptor.describe(errno: errno)
            close(socket)
            throw Failed(description: "bind: " + reason)
        }
        self.socket = socket
        number = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }

    /// Whether something takes a connection on the port now.
    var answers: Bool {
        let probe = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = Self.loopback(port: number)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Whether the socket listening on the port is one of `process`'s open
    /// files (its inode from /proc/net/tcp, among /proc/PID/fd's links).
    func isListened(by process: pid_t) -> Bool {
        guard let inode = listeningInode() else { return false }
        let descriptors = "/proc/\(process)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
        return entries.contains { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + entry)) == "socket:[\(inode)]"
        }
    }

    /// The inode of the socket listening on 127.0.0.1 at the port.
    private func listeningInode() -> String? {
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        let local = "0100007F:" + String(format: "%04X", number)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            // sl, local address, remote address, state (0A: listening), …, inode (10th).
            if fields.count > 9, fields[1] == local, fields[3] == "0A" { return String(fields[9]) }
        }
        return nil
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
