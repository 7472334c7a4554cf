#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// A growable run of bytes with raw-pointer appends: the text of a million
/// people lives in a few of these.
///
/// `ContiguousArray<UInt8>` costs a uniqueness check and a generic copy on
/// every append, which showed up as a fifth of load time. An arena is
/// written by the one loader thread that owns it, then only read, which is
/// what makes the unchecked `Sendable` sound.
public final class ByteArena: @unchecked Sendable {
    private var storage: UnsafeMutablePointer<UInt8>
    public private(set) var count = 0
    private var capacity: Int

    public init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    @inline(__always)
    public func append(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    public func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity { grow(toAtLeast: count + bytes.count) }
        (storage + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Copies `range` of this arena to its end.
    public func appendCopy(of range: Range<Int>) {
        guard !range.isEmpty else { return }
        if count + range.count > capacity { grow(toAtLeast: count + range.count) }
        (storage + count).update(from: storage + range.lowerBound, count: range.count)
        count += range.count
    }

    /// Forgets the contents but keeps the memory.
    public func removeAll() {
        count = 0
    }

    public func reserve(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { grow(toAtLeast: minimumCapacity) }
    }

    @inline(__always)
    public subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < count, "arena offset out of range")
        return storage[offset]
    }

    /// The bytes of `range`, valid while the arena lives and is not appended to.
    @inline(__always)
    public func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "arena range out of bounds")
        return UnsafeBufferPointer(start: storage + range.lowerBound, count: range.count)
    }

    /// The whole arena, for loops that read many ranges (valid while it
    /// lives and is not appended to).
    public var allBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage, count: count)
    }

    public func string(_ range: Range<Int>) -> String {
        String(decoding: bytes(range), as: UTF8.self)
    }

    private func grow(toAtLeast needed: Int) {
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.update(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity = newCapacity
    }
}
