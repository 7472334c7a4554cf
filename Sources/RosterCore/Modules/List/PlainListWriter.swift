import Dispatch
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
public struct PlainListWriter: Sendable {
    public var isTerminal: Bool

    public init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    /// Writes everything to `descriptor`; false if writing failed.
    ///
    /// People are formatted in two tasks (one per core), a run of sections
    /// each, and written in order: reading a million people in sorted
    /// order is random access into the store, which one core alone does
    /// slowly. Rows come from the repository 4,096 at a time.
    @discardableResult
    public func write(_ grouped: PeopleArrangement, of repository: any PeopleRepository, to descriptor: Int32) async -> Bool {
        let runs = Self.runs(of: grouped.sections, count: 32)
        var output = OutputBuffer(descriptor: descriptor)
        var next = 0
        while next < runs.count {
            let batch = Array(runs[next..<min(runs.count, next + 2)])
            let formatted = await withTaskGroup(of: (Int, [UInt8]).self) { group in
                for index in batch.indices {
                    group.addTask { (index, await format(grouped.sections[batch[index]], of: grouped, repository: repository)) }
                }
                var formatted = [[UInt8]](repeating: [], count: batch.count)
                for await (index, bytes) in group { formatted[index] = bytes }
                return formatted
            }
            for bytes in formatted {
                bytes.withUnsafeBufferPointer { output.append(bytes: $0) { $0 } }
            }
            next += batch.count
        }
        return output.flush()
    }

    /// Rows read at once.
    static let window = 4096

    /// Splits sections into about `count` runs of similar numbers of people.
    static func runs(of sections: [CompanySection], count: Int) -> [Range<Int>] {
        let people = sections.reduce(0) { $0 + $1.count }
        let target = max(1, people / count)
        var runs: [Range<Int>] = []
        var start = 0
        var inRun = 0
        for (index, section) in sections.enumerated() {
            inRun += section.count
            if inRun >= target {
                runs.append(start..<(index + 1))
                start = index + 1
                inRun = 0
            }
        }
        if start < sections.count { runs.append(start..<sections.count) }
        return runs
    }

    private func format(_ sections: ArraySlice<CompanySection>, of arrangement: PeopleArrangement,
                        repository: any PeopleRepository) async -> [UInt8] {
        var output = OutputBuffer(descriptor: -1)
        guard let end = sections.last?.range.upperBound else { return output.bytes }
        // Rows are read 4,096 at a time across the run's sections, not a
        // section at a time: a database answers one query per read, and a
        // directory of 70,000 small companies would be 70,000 queries.
        var window: [ListedPerson] = []
        var windowStart = 0
        for section in sections {
            output.append(clean(section.title))
            output.append(" (\(NumberText.count(section.count, "person", "people")))\n")
            for position in section.range {
                if !(windowStart..<(windowStart + window.count)).contains(position) {
                    windowStart = position
                    window = (try? await repository.rows(in: arrangement, positions: position..<min(end, position + Self.window))) ?? []
                }
                // A row that could not be read ends its section: never a
                // person printed in another's place (the exit status says it).
                guard window.indices.contains(position - windowStart), case let person = window[position - windowStart],
                      person.position == position else { break }
                output.append("  ")
                if !person.firstName.isEmpty { appendField(person.firstName, to: &output) }
                if !person.firstName.isEmpty && !person.lastName.isEmpty { output.append(" ") }
                if !person.lastName.isEmpty { appendField(person.lastName, to: &output) }
                output.append("\t")
                appendField(person.email, to: &output)
                output.append("\t")
                appendField(person.balance, to: &output)
                output.append("\n")
            }
        }
        return output.bytes
    }

    /// A field as it is in the file, with a pipe's line breaks and tabs
    /// turned to spaces; on a terminal, made harmless by `DisplayText`.
    private func appendField(_ text: String, to output: inout OutputBuffer) {
        if isTerminal {
            output.append(DisplayText.sanitized(text))
            return
        }
        var text = text
        text.withUTF8 { bytes in
            output.append(bytes: bytes) { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 ? 0x20 : $0 }
        }
    }

    func clean(_ text: String) -> String {
        if isTerminal { return DisplayText.sanitized(text) }
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return text }
        return String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
    }
}
