#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// Where the chunk loop reads from: a regular file by offset, or a stream.
protocol ChunkInput {
    /// Reads up to `buffer.count` bytes at `offset` (streams ignore it); 0 at the end.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int, sourceName: String) throws(LoadError) -> Int
    /// The input ended at `offset`: is that where it should have?
    func checkComplete(at offset: Int, sourceName: String) throws(LoadError)
    /// `error` with its line and column made exact where the input allows.
    func exact(_ error: ParseError) -> ParseError
}

/// A regular file, read with `pread` (never written, never mapped).
struct FileInput: ChunkInput, Sendable {
    let descriptor: Int32
    /// The size when the load began; ending before it means the file shrank.
    let size: Int
    /// Whether a lone CR ends a line too (CSV), for the places in messages.
    var carriageReturnEndsLines = false

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int, sourceName: String) throws(LoadError) -> Int {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .notReadable(file: sourceName, reason: Descriptor.describe(errno: errno))
        }
    }

    func checkComplete(at offset: Int, sourceName: String) throws(LoadError) {
        if offset < size { throw .notReadable(file: sourceName, reason: "it shrank while being read") }
    }

    /// A parser counts lines from where it started (the second half: its
    /// boundary) and columns in bytes when the line began before its buffer;
    /// the file is at hand, so on an error count both again from the start.
    func exact(_ error: ParseError) -> ParseError {
        switch error {
        case .syntax(let message, let location):
            guard let (line, column) = try? lineAndColumn(of: location.offset, sourceName: "") else { return error }
            return .syntax(message, location: ParseLocation(line: line, column: column, offset: location.offset))
        case .invalid(let message, let location?):
            guard let (line, column) = try? lineAndColumn(of: location.offset, sourceName: "") else { return error }
            return .invalid(message, location: ParseLocation(line: line, column: column, offset: location.offset))
        default:
            return error
        }
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    func lineAndColumn(of offset: Int, sourceName: String) throws(LoadError) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var position = 0
        var afterCR = false
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while position < offset {
            let wanted = min(chunk.count, offset - position)
            let count = try chunk.withUnsafeMutableBufferPointer { buffer throws(LoadError) in
                try read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<wanted]), at: position, sourceName: sourceName)
            }
            if count == 0 { break }
            for byte in chunk[0..<count] {
                // CRLF is one line end: its LF comes right after a CR that counted.
                if byte == 0x0A ? !(carriageReturnEndsLines && afterCR) : (byte == 0x0D && carriageReturnEndsLines) {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80, byte != 0x0A {
                    column += 1
                }
                afterCR = byte == 0x0D
            }
            position += count
        }
        return (line, column)
    }
}

/// A pipe or other stream (standard input), read as it comes.
struct StreamInput: ChunkInput {
    let descriptor: Int32

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int, sourceName: String) throws(LoadError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .readFailed(file: sourceName, reason: Descriptor.describe(errno: errno))
        }
    }

    func checkComplete(at offset: Int, sourceName: String) throws(LoadError) {}

    func exact(_ error: ParseError) -> ParseError { error }
}
