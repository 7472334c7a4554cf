import Foundation
@testable import TestServers
import Testing

/// The port a test server is given stays out of everyone else's picks,
/// and its listener is told from another program's.
@Suite struct ReservedPortTests {
    @Test func aPortAnsweredByAnotherListenerIsNotTheServers() throws {
        let port = try ReservedPort()
        let other = try Self.listen(on: port.number)
        defer { close(other) }
        // Answering alone, what the wait used to ask, cannot tell them apart.
        #expect(port.answers)
        #expect(port.isListened(by: getpid()))
        #expect(!port.isListened(by: getppid()))
    }

    @Test func theKernelHandsAReservedPortToNobodyElse() throws {
        let reserved = try (0..<20).map { _ in try ReservedPort() }
        let numbers = Set(reserved.map(\.number))
        #expect(numbers.count == reserved.count)
        for _ in 0..<3000 {
            let picked = try ReservedPort()
            #expect(!numbers.contains(picked.number))
        }
    }

    /// A socket of this process listening on `port` beside the reservation.
    private static func listen(on port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        try #require(bound && Glibc.listen(socket, 1) == 0)
        return socket
    }
}
