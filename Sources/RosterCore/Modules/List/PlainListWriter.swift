#if canImport(Glibc)
import Glibc
#endif

/// `roster --list`: the grouped, sorted directory as plain text.
///
/// A header line per company with its count, then one line per person:
/// two spaces, then name, email and balance separated by tabs (easy to
/// `cut` or `awk`). On a terminal, control characters are made visible as
/// on screen; in a pipe, text passes as it is except that line breaks and
/// tabs inside a field become spaces, so one person is always one line.
public struct PlainListWriter {
    public var isTerminal: Bool

    public init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    /// Writes everything to `descriptor` in large blocks; false if writing failed.
    @discardableResult
    public func write(_ directory: LoadedDirectory, grouped: GroupedPeople, to descriptor: Int32) -> Bool {
        var output = OutputBuffer(descriptor: descriptor)
        let store = directory.store
        for section in grouped.sections {
            output.append(clean(section.title))
            output.append(" (\(ListPresenter.count(section.count, "person", "people")))\n")
            for position in section.range {
                let person = Int(grouped.order[position])
                let first = store.text(.firstName, of: person)
                let last = store.text(.lastName, of: person)
                output.append("  ")
                output.append(clean(first.isEmpty ? last : last.isEmpty ? first : first + " " + last))
                output.append("\t")
                output.append(clean(store.text(.email, of: person)))
                output.append("\t")
                output.append(clean(store.text(.balance, of: person)))
                output.append("\n")
            }
        }
        return output.flush()
    }

    func clean(_ text: String) -> String {
        if isTerminal { return DisplayText.sanitized(text) }
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return text }
        return String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
    }
}

/// Collects output and writes it in 1 MiB blocks.
struct OutputBuffer {
    let descriptor: Int32
    private var bytes: [UInt8] = []
    private var failed = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        bytes.reserveCapacity(1 << 20)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= 1 << 20 { _ = flush() }
    }

    /// Writes what is buffered; false once any write has failed.
    mutating func flush() -> Bool {
        var offset = 0
        while offset < bytes.count, !failed {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { failed = true }
            offset += max(0, written)
        }
        bytes.removeAll(keepingCapacity: true)
        return !failed
    }
}
