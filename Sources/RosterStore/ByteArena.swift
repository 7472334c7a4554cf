#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// A growable run of bytes with raw-pointer appends: the text of a million
/// people is written into a few of these while loading, then frozen
/// (`freeze()`) into `FrozenBytes` for the store.
///
/// `ContiguousArray<UInt8>` costs a uniqueness check and a generic copy on
/// every append, which showed up as a fifth of load time. Not `Sendable`:
/// an arena belongs to the one loader thread that writes it.
final class ByteArena {
    private var storage: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        storage = Self.allocate(self.capacity)
    }

    deinit {
        free(storage)
    }

    /// `malloc`'s memory, not Swift's allocator's: growing is `realloc`,
    /// which moves a large arena's pages (`mremap`) instead of copying
    /// them into fresh ones that each fault in. Loading 1M people doubled
    /// each arena some twenty times, copying and faulting in about as much
    /// again as they hold.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("out of memory (\(capacity) bytes)") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity { grow(toAtLeast: count + bytes.count) }
        (storage + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the JSON string text at `bytes[start...]` up to its first
    /// quote, backslash or control byte (or the end), and returns that
    /// byte's offset. Eight bytes at a time, each word stored as it is
    /// checked (the bytes past the stop are written but not counted), so
    /// a short string costs no call to `memmove`.
    @inline(__always)
    func appendPlainText(from bytes: UnsafeBufferPointer<UInt8>, start: Int) -> Int {
        var position = start
        let end = bytes.count
        if let base = bytes.baseAddress {
            while position + 8 <= end {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                let special = JSONCursor.stops(in: word)
                if count + 8 > capacity { grow(toAtLeast: count + 8) }
                UnsafeMutableRawPointer(storage + count).storeBytes(of: word, as: UInt64.self)
                // The lowest flagged byte is exact (little-endian loads).
                let plain = special == 0 ? 8 : special.trailingZeroBitCount / 8
                count += plain
                position += plain
                if plain < 8 { return position }
            }
        }
        while position < end, !JSONCursor.stops(at: bytes[position]) {
            append(bytes[position])
            position += 1
        }
        return position
    }

    /// Copies `range` of this arena to its end.
    func appendCopy(of range: Range<Int>) {
        guard !range.isEmpty else { return }
        if count + range.count > capacity { grow(toAtLeast: count + range.count) }
        (storage + count).update(from: storage + range.lowerBound, count: range.count)
        count += range.count
    }

    /// Forgets the contents but keeps the memory.
    func removeAll() {
        count = 0
    }

    func reserve(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { grow(toAtLeast: minimumCapacity) }
    }

    @inline(__always)
    subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < count, "arena offset out of range")
        return storage[offset]
    }

    /// The bytes of `range`, valid while the arena lives and is not appended to.
    @inline(__always)
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "arena range out of bounds")
        return UnsafeBufferPointer(start: storage + range.lowerBound, count: range.count)
    }

    /// The whole arena, for loops that read many ranges (valid while it
    /// lives and is not appended to).
    var allBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage, count: count)
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes(range), as: UTF8.self)
    }

    /// Hands the bytes written so far to an immutable `FrozenBytes` and
    /// starts this arena afresh (empty), so nothing can write to them again.
    func freeze() -> FrozenBytes {
        // The spare capacity goes back (a large arena's tail pages unmapped).
        let kept = realloc(storage, max(count, 1))?.assumingMemoryBound(to: UInt8.self) ?? storage
        let frozen = FrozenBytes(taking: kept, count: count)
        capacity = 16
        storage = Self.allocate(capacity)
        count = 0
        return frozen
    }

    private func grow(toAtLeast needed: Int) {
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        guard let larger = realloc(storage, newCapacity) else { fatalError("out of memory (\(newCapacity) bytes)") }
        storage = larger.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }
}

/// Bytes that no one writes any more: an arena's text, frozen for the store.
///
/// The one unchecked `Sendable` of the store, kept to raw memory because
/// searching a million people reads it through pointers (an array would be
/// copied out or retained per read). Sound because the memory was written
/// only by the `ByteArena` that handed it over in `freeze()` (which then let
/// go of it), before this object existed; nothing here can write it; and it
/// is freed only when the last reader lets go.
public final class FrozenBytes: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<UInt8>
    public let count: Int

    fileprivate init(taking storage: UnsafeMutablePointer<UInt8>, count: Int) {
        self.storage = storage
        self.count = count
    }

    deinit {
        free(storage)  // `ByteArena`'s, from `malloc`
    }

    @inline(__always)
    public subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < count, "offset out of range")
        return storage[offset]
    }

    /// The bytes of `range`, valid while this object lives.
    @inline(__always)
    public func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        return UnsafeBufferPointer(start: storage + range.lowerBound, count: range.count)
    }

    /// All of it, for loops that read many ranges (valid while this object lives).
    public var allBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage, count: count)
    }

    public func string(_ range: Range<Int>) -> String {
        String(decoding: bytes(range), as: UTF8.self)
    }
}
