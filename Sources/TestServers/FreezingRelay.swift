import Foundation
import RosterCore
#if canImport(Glibc)
import Glibc
#endif

/// A unix-socket relay between a test and its PostgreSQL server that can
/// freeze: what a frozen host or a network cut looks like to a client.
/// While frozen it accepts connections (the kernel would anyway) and
/// passes nothing either way: no reply, no error, no closed socket, so a
/// statement, a cancel request (`PQcancel` comes to the same address) and a
/// new connection all wait. `thaw` lets the bytes through again.
///
/// It can also go down as a stopped server does (`cut`): every relayed
/// connection is closed and every new one closed as soon as it comes,
/// until `thaw`; at once, or once a given number of the server's bytes
/// have passed (a server stopped in the middle of a long read).
///
/// Connect with `host=<directory>`: the relay listens on the default
/// port's socket name there.
public final class FreezingRelay: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let directory: String
    private let upstream: String
    private let listener: Int32
    private let frozen = Locked(false)
    private let isDown = Locked(false)
    /// The server's bytes still to pass before the relay goes down; nil: no such limit.
    private let budget = Locked<Int?>(nil)
    private let connections = Locked<Set<Int32>>([])

    /// Relays to the server listening on the unix socket `upstream`.
    public init(to upstream: String) throws {
        var template = Array("/tmp/roster-relay-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw Failure(description: "mkdtemp: \(errno)") }
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.upstream = upstream
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = Self.address(directory + "/.s.PGSQL.5432")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw Failure(description: "bind/listen: \(errno)") }
        Thread.detachNewThread { [self] in acceptAll() }
    }

    public func freeze() { frozen.withLock { $0 = true } }

    /// Passes bytes again and takes new connections (after `freeze` or `cut`).
    public func thaw() {
        budget.withLock { $0 = nil }
        isDown.withLock { $0 = false }
        frozen.withLock { $0 = false }
    }

    /// Goes down as a stopped server does: ends every relayed connection
    /// now, and closes new ones as they come, until `thaw`.
    public func cut() {
        isDown.withLock { $0 = true }
        connections.withLock { $0.forEach { _ = shutdown($0, Int32(SHUT_RDWR)) } }
    }

    /// Goes down (`cut`) once `bytes` more bytes have come from the server.
    public func cut(afterBytes bytes: Int) {
        budget.withLock { $0 = bytes }
    }

    /// Bytes to pass from the server now; goes down when the budget is spent.
    private func passing(_ count: Int) -> Int {
        let allowed = budget.withLock { left -> Int in
            guard let remaining = left else { return count }
            left = remaining - count
            return max(0, min(count, remaining))
        }
        if allowed < count { cut() }
        return allowed
    }

    /// Stops listening and ends every relayed connection.
    public func stop() {
        thaw()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        connections.withLock { $0.forEach { _ = shutdown($0, Int32(SHUT_RDWR)) } }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var isFrozen: Bool { frozen.withLock { $0 } }

    private func waitWhileFrozen() {
        while isFrozen { usleep(10_000) }
    }

    private func acceptAll() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in relay(client) }
        }
    }

    private func relay(_ client: Int32) {
        waitWhileFrozen()
        if isDown.withLock({ $0 }) {
            close(client)
            return
        }
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(upstream)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard server >= 0, connected == 0 else {
            close(client)
            if server >= 0 { close(server) }
            return
        }
        connections.withLock { $0.formUnion([client, server]) }
        let otherWay = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            pump(from: client, to: server)
            otherWay.signal()
        }
        pump(from: server, to: client, counted: true)
        // One side ended: end both, then close once neither pump reads.
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        otherWay.wait()
        connections.withLock { $0.subtract([client, server]) }
        close(client)
        close(server)
    }

    /// Copies bytes from one socket to the other until either ends; while
    /// frozen it reads nothing. `MSG_NOSIGNAL`: a client that gave its
    /// socket up must not end the test process with SIGPIPE. `counted`:
    /// the server's side, whose bytes spend the budget of `cut(afterBytes:)`.
    private func pump(from source: Int32, to target: Int32, counted: Bool = false) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var waiting = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 20)
            if ready < 0, errno != EINTR { return }
            if ready < 0 { continue }
            if isFrozen {
                usleep(10_000)
                continue
            }
            if ready == 0 { continue }
            let read = Glibc.read(source, &buffer, buffer.count)
            if read <= 0 || isDown.withLock({ $0 }) { return }
            let count = counted ? passing(read) : read
            var sent = 0
            while sent < count {
                let wrote = buffer[sent..<count].withUnsafeBytes { send(target, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if wrote <= 0 { return }
                sent += wrote
            }
            if count < read { return }
        }
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
