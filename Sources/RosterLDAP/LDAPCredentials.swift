import RosterCore
#if canImport(Glibc)
import Glibc
#endif

/// How a connection proves who it is.
public enum LDAPCredentials: Sendable {
    /// No bind: what the directory lets anyone read.
    case anonymous
    /// A simple bind as `dn` with a password the caller got from the
    /// terminal (echo off) or a password file, never from a command line.
    case simple(dn: String, password: LDAPPassword)
    /// SASL EXTERNAL: the identity the transport already proves (the
    /// process's user over `ldapi://`, a TLS client certificate).
    case external

    /// Who the connection is before the server says more, for messages.
    var identity: String {
        switch self {
        case .anonymous: "an anonymous connection"
        case .simple(let dn, _): dn
        case .external: "this user"
        }
    }
}

/// A password's bytes, held for binding again after a lost connection and
/// wiped when the last reference goes. It never prints (`•••`), and its
/// text is masked in every message and detail (`SecretRedaction`).
public final class LDAPPassword: @unchecked Sendable, CustomStringConvertible {
    // Safe: written once in init, wiped in deinit, read only in between.
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private let count: Int

    public init(_ bytes: [UInt8]) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = buffer.initialize(from: bytes)
        storage = buffer
        count = bytes.count
        if let text = String(validating: bytes, as: UTF8.self) { SecretRedaction.remember(text) }
    }

    deinit {
        if let base = storage.baseAddress { explicit_bzero(base, storage.count) }
        storage.deallocate()
    }

    var bytes: [UInt8] { Array(storage.prefix(count)) }

    public var description: String { SecretRedaction.mask }
}
