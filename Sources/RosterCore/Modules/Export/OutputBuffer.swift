/// The one streaming writer behind `--list` and every export: output is
/// collected in a buffer and handed on in blocks of `blockSize` bytes as it
/// is produced, so writing a million people never holds all their text at
/// once. With descriptor -1 it only collects (the in-app export, tests).
public struct OutputBuffer {
    /// Where full blocks go; false when writing failed.
    public typealias Sink = (UnsafeRawBufferPointer) -> Bool

    private let sink: Sink?
    private let blockSize: Int
    public private(set) var bytes: [UInt8] = []
    private var failed = false

    /// Writes to `descriptor` (every byte, retrying short writes), or with
    /// -1 only collects.
    public init(descriptor: Int32, blockSize: Int = 1 << 20) {
        self.init(blockSize: blockSize, sink: descriptor < 0 ? nil : { Descriptor.writeAll($0, to: descriptor) })
    }

    /// Hands each block to `sink` (nil: only collect).
    public init(blockSize: Int = 1 << 20, sink: Sink?) {
        self.sink = sink
        self.blockSize = blockSize
        bytes.reserveCapacity(sink == nil ? blockSize : blockSize + blockSize / 4)
    }

    public mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if sink != nil, bytes.count >= blockSize { _ = flush() }
    }

    /// Appends raw bytes, each passed through `transform`.
    public mutating func append(bytes raw: UnsafeBufferPointer<UInt8>, transform: (UInt8) -> UInt8) {
        for byte in raw { bytes.append(transform(byte)) }
        if sink != nil, bytes.count >= blockSize { _ = flush() }
    }

    /// Hands on what is buffered; false once any write has failed (what
    /// follows a failure is dropped: the reader has gone).
    public mutating func flush() -> Bool {
        guard let sink else { return true }
        if !failed, !bytes.isEmpty {
            failed = !bytes.withUnsafeBytes { sink($0) }
        }
        bytes.removeAll(keepingCapacity: true)
        return !failed
    }
}
