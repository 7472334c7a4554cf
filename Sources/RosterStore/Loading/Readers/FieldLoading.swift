#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// Loading vCard and LDIF: their readers (`VCardReader`, `LDIFReader`)
/// through the field chunk loop into a `PersonFieldSink`, with the same
/// results, skipped records and progress as the other formats.
extension PeopleLoader {
    /// A regular file of vCards or LDIF entries, on one core.
    func loadFields(file: FileInput, format: InputFormat, sourceName: String, progress: LoadProgress,
                    started: ContinuousClock.Instant) throws(LoadError) -> LoadedDirectory {
        if file.size == 0 { throw .invalid(file: sourceName, line: nil, column: nil, message: "the file is empty; expected \(format.expectation)") }
        let part = try readFields(input: CountingInput(base: file, progress: progress), format: format, sourceName: sourceName, progress: progress)
        return finish([part], secondIndexOffset: nil, sourceName: sourceName, byteCount: file.size, started: started)
    }

    /// Standard input (or another stream) of vCards or LDIF entries.
    func streamFields(input: PrefixedStreamInput, format: InputFormat, sourceName: String, progress: LoadProgress,
                      started: ContinuousClock.Instant) throws(LoadError) -> LoadedDirectory {
        let counting = CountingInput(base: input, progress: progress)
        let part = try readFields(input: counting, format: format, sourceName: sourceName, progress: progress)
        return finish([part], secondIndexOffset: nil, sourceName: sourceName, byteCount: progress.bytesRead.load(ordering: .relaxed),
                      started: started)
    }

    /// Bytes in memory of vCards or LDIF entries (tests).
    func loadFields(bytes: [UInt8], format: InputFormat, sourceName: String, started: ContinuousClock.Instant) throws(LoadError) -> LoadedDirectory {
        if bytes.isEmpty { throw .invalid(file: sourceName, line: nil, column: nil, message: "the file is empty; expected \(format.expectation)") }
        let part = try readFields(input: BytesInput(bytes: bytes), format: format, sourceName: sourceName, progress: nil)
        return finish([part], secondIndexOffset: nil, sourceName: sourceName, byteCount: bytes.count, started: started)
    }

    /// A folder of `.vcf` files (khard, vdirsyncer): every card of every
    /// file, a skipped record naming its file.
    func loadCardFolder(path: String, sourceName: String, progress: LoadProgress, started: ContinuousClock.Instant) throws(LoadError) -> LoadedDirectory {
        guard (try? VCardFolderReading.cardFiles(in: path, sourceName: sourceName))?.isEmpty == false else {
            throw .isDirectory(file: sourceName)
        }
        var sink = try VCardFolderReading.read(folder: path, sourceName: sourceName, into: PersonFieldSink(format: .vCard, progress: progress))
        return finish([sink.finished(line: 1)], secondIndexOffset: nil, sourceName: sourceName, byteCount: 0, started: started)
    }

    private func readFields<Input: ChunkInput>(input: Input, format: InputFormat, sourceName: String,
                                               progress: LoadProgress?) throws(LoadError) -> ParsedPart {
        let sink = PersonFieldSink(format: format, progress: progress)
        switch format {
        case .ldif:
            var reader = LDIFReader(sink: sink)
            try read(&reader, input: input, format: .ldif, sourceName: sourceName)
            var sink = reader.sink
            return sink.finished(line: reader.line)
        default:
            var reader = VCardReader(sink: sink)
            try read(&reader, input: input, format: .vCard, sourceName: sourceName)
            var sink = reader.sink
            return sink.finished(line: reader.line)
        }
    }

    private func read<Reader: FieldChunkReader, Input: ChunkInput>(_ reader: inout Reader, input: Input, format: FieldFormat,
                                                                   sourceName: String) throws(LoadError) {
        try FieldFileReading.run(&reader, input: input, from: 0, sourceName: sourceName, chunkSize: chunkSize, recordLimit: recordLimit)
        try FieldFileReading.checkFound(reader, format: format, sourceName: sourceName, whole: true)
    }
}

/// An input that adds what it reads to a load's progress.
struct CountingInput<Base: ChunkInput>: ChunkInput {
    let base: Base
    let progress: LoadProgress

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int, sourceName: String) throws(LoadError) -> Int {
        let count = try base.read(into: buffer, at: offset, sourceName: sourceName)
        progress.bytesRead.add(count, ordering: .relaxed)
        return count
    }

    func checkComplete(at offset: Int, sourceName: String) throws(LoadError) {
        try base.checkComplete(at: offset, sourceName: sourceName)
    }

    func exact(_ error: ParseError) -> ParseError { base.exact(error) }
}
