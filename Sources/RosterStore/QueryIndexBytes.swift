/// Writes `QueryIndex`'s body: integers and arrays of plain numbers, each
/// array after its length in bytes, in the machine's byte order (an index
/// is read only where it was written; its header says which order).
struct QueryIndexWriter {
    private(set) var bytes: [UInt8] = []

    mutating func integer(_ value: Int) {
        withUnsafeBytes(of: UInt64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func array<Element: BitwiseCopyable>(_ values: [Element]) {
        values.withUnsafeBytes { raw in
            integer(raw.count)
            bytes.append(contentsOf: raw)
            // Each array starts eight-aligned, so that reading it needs no copy.
            bytes.append(contentsOf: repeatElement(0, count: (8 - raw.count % 8) % 8))
        }
    }
}

/// Reads what `QueryIndexWriter` wrote, every length checked against what
/// is left: bytes cut short or made up give nil, never a read past the end.
struct QueryIndexReader {
    private let body: UnsafeRawBufferPointer
    private var offset = 0

    init(_ body: UnsafeRawBufferPointer) {
        self.body = body
    }

    var isAtEnd: Bool { offset == body.count }

    mutating func integer() -> Int? {
        guard body.count - offset >= 8 else { return nil }
        let value = UInt64(littleEndian: body.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
        return value <= UInt64(Int32.max) * 16 ? Int(value) : nil
    }

    /// The next array, viewed in place (valid while the body is); `count`
    /// elements when given.
    mutating func array<Element: BitwiseCopyable>(_ type: Element.Type, count: Int? = nil) -> UnsafeBufferPointer<Element>? {
        guard let length = integer(), length % MemoryLayout<Element>.stride == 0,
              count.map({ $0 * MemoryLayout<Element>.stride == length }) ?? true else { return nil }
        let padded = length + (8 - length % 8) % 8
        guard body.count - offset >= padded, let base = body.baseAddress,
              Int(bitPattern: base + offset) % MemoryLayout<Element>.alignment == 0 else { return nil }
        let elements = UnsafeBufferPointer(start: (base + offset).bindMemory(to: Element.self, capacity: length / MemoryLayout<Element>.stride),
                                           count: length / MemoryLayout<Element>.stride)
        offset += padded
        return elements
    }
}
