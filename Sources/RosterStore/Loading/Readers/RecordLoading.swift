#if !ROSTER_FUZZ
import RosterCore
#endif

/// Loading JSON Lines and CSV: the same chunk loop, halves and results as
/// JSON (`PeopleLoader`), with their own parsers.
extension PeopleLoader {
    /// The format of a file whose name does not say: from its first bytes.
    static func sniff(_ file: FileInput, sourceName: String) throws(LoadError) -> InputFormat {
        var window = [UInt8](repeating: 0, count: min(1 << 16, file.size))
        let count = try window.withUnsafeMutableBufferPointer { buffer throws(LoadError) in
            try file.read(into: buffer, at: 0, sourceName: sourceName)
        }
        return window.withUnsafeBufferPointer { InputFormat(sniffing: UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }

    /// A regular file of JSON Lines or CSV; on both cores when it is large.
    func loadRecords(file: FileInput, format: InputFormat, sourceName: String, progress: LoadProgress,
                     started: ContinuousClock.Instant) async throws(LoadError) -> LoadedDirectory {
        var file = file
        file.carriageReturnEndsLines = format == .csv
        let size = file.size
        if size == 0 { throw .invalid(file: sourceName, line: nil, column: nil, message: "the file is empty; expected \(format.expectation)") }
        // Records of a generated directory are about 250 bytes in CSV or JSON Lines.
        let expected = size / 250
        switch format {
        case .jsonLines:
            if size >= parallelThreshold, let boundary = try Self.lineBoundary(in: file, sourceName: sourceName) {
                return try await loadHalves(first: JSONLinesParser(boundary: boundary, expectedPeople: boundary / 250, locatesOnly: locatesOnly),
                                            second: JSONLinesParser(expectedPeople: (size - boundary) / 250, locatesOnly: locatesOnly),
                                            file: file, boundary: boundary, sourceName: sourceName, progress: progress, started: started)
            }
            var parser = JSONLinesParser(expectedPeople: expected, locatesOnly: locatesOnly)
            try run(&parser, input: file, from: 0, sourceName: sourceName, progress: progress)
            return finish([parser], secondIndexOffset: nil, sourceName: sourceName, byteCount: size, started: started)
        case .csv:
            if size >= parallelThreshold, let columns = try Self.csvColumns(in: file, sourceName: sourceName),
               let boundary = try Self.lineBoundary(in: file, sourceName: sourceName) {
                return try await loadHalves(first: CSVParser(boundary: boundary, expectedPeople: boundary / 250),
                                            second: CSVParser(columns: columns, expectedPeople: (size - boundary) / 250, startOffset: boundary),
                                            file: file, boundary: boundary, sourceName: sourceName, progress: progress, started: started)
            }
            var parser = CSVParser(expectedPeople: expected)
            try run(&parser, input: file, from: 0, sourceName: sourceName, progress: progress)
            return finish([parser], secondIndexOffset: nil, sourceName: sourceName, byteCount: size, started: started)
        case .json, .vCard, .ldif:
            preconditionFailure("\(format.displayName) is loaded by PeopleLoader.load")
        }
    }

    /// Standard input (or another stream) of JSON Lines or CSV.
    func streamRecords(input: PrefixedStreamInput, format: InputFormat, sourceName: String, progress: LoadProgress,
                       started: ContinuousClock.Instant) throws(LoadError) -> LoadedDirectory {
        func streamed<Parser: ChunkParser>(_ parser: Parser) throws(LoadError) -> LoadedDirectory {
            var parser = parser
            let byteCount = try run(&parser, input: input, from: 0, sourceName: sourceName, progress: progress)
            try Self.checkNotEmpty(byteCount, format: format, sourceName: sourceName)
            return finish([parser], secondIndexOffset: nil, sourceName: sourceName, byteCount: byteCount, started: started)
        }
        return format == .csv ? try streamed(CSVParser()) : try streamed(JSONLinesParser())
    }

    /// Bytes in memory of JSON Lines or CSV (tests).
    func loadRecords(bytes: [UInt8], format: InputFormat, sourceName: String, started: ContinuousClock.Instant) throws(LoadError) -> LoadedDirectory {
        try Self.checkNotEmpty(bytes.count, format: format, sourceName: sourceName)
        return format == .csv ? try parseAll(CSVParser(), bytes: bytes, sourceName: sourceName, started: started)
                              : try parseAll(JSONLinesParser(), bytes: bytes, sourceName: sourceName, started: started)
    }

    private static func checkNotEmpty(_ byteCount: Int, format: InputFormat, sourceName: String) throws(LoadError) {
        if byteCount == 0 { throw .invalid(file: sourceName, line: nil, column: nil, message: "the file is empty; expected \(format.expectation)") }
    }

    /// Just after a line feed near the middle of `file`.
    static func lineBoundary(in file: FileInput, sourceName: String) throws(LoadError) -> Int? {
        let middle = file.size / 2
        var window = [UInt8](repeating: 0, count: min(1 << 16, file.size - middle))
        let count = try window.withUnsafeMutableBufferPointer { buffer throws(LoadError) in
            try file.read(into: buffer, at: middle, sourceName: sourceName)
        }
        return window.withUnsafeBufferPointer { JSONLinesParser.findBoundary(in: UnsafeBufferPointer(rebasing: $0[0..<count]), startingAt: middle) }
    }

    /// The header's columns, for a second core that starts mid-file; nil
    /// when the header is not in the first MiB (then one core reads it all,
    /// and reports what is wrong with the header).
    static func csvColumns(in file: FileInput, sourceName: String) throws(LoadError) -> [PersonColumn?]? {
        var window = [UInt8](repeating: 0, count: min(1 << 20, file.size))
        let count = try window.withUnsafeMutableBufferPointer { buffer throws(LoadError) in
            try file.read(into: buffer, at: 0, sourceName: sourceName)
        }
        var probe = CSVParser(headerOnly: true)
        _ = window.withUnsafeBufferPointer { buffer in
            try? probe.parse(UnsafeBufferPointer(rebasing: buffer[0..<count]), base: 0, isFinal: count == file.size)
        }
        return probe.columns
    }
}

extension InputFormat {
    /// What a file of this format should hold, for messages.
    var expectation: String {
        switch self {
        case .json: return "a JSON list of people"
        case .jsonLines: return "JSON Lines, one person per line"
        case .csv: return "CSV with a header row"
        case .vCard: return FieldFormat.vCard.expectation
        case .ldif: return FieldFormat.ldif.expectation
        }
    }
}
