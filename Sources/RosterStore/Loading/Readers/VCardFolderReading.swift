#if canImport(Glibc)
import Glibc
#endif
#if !ROSTER_FUZZ
import RosterCore
#endif

/// A folder of vCard files, one card each, as khard and vdirsyncer keep
/// them: every regular file whose name ends in `.vcf` (any case), in the
/// order of their names; links, folders and other files are passed over,
/// never followed. Each file is read as a vCard file (`VCardReader`), its
/// offsets and lines its own (the sink hears `beginFile` first).
public enum VCardFolderReading {
    /// The card files of `folder`, by name (bytes' order): their names only.
    public static func cardFiles(in folder: String, sourceName: String) throws(LoadError) -> [String] {
        guard let directory = opendir(folder) else {
            let code = errno
            if code == ENOENT { throw .notFound(file: sourceName) }
            throw .notReadable(file: sourceName, reason: Descriptor.describe(errno: code))
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            // Read in place, up to its NUL: the entry readdir hands out may
            // be shorter than the 256 bytes `d_name` declares (copying the
            // field read past the end of its buffer under AddressSanitizer).
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout.size(ofValue: field.pointee)) { bytes in
                    Array(UnsafeBufferPointer(start: bytes, count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))))
                }
            }
            guard name.count > 4, String(decoding: name.suffix(4), as: UTF8.self).lowercased() == ".vcf" else { continue }
            // A name that is not UTF-8 would not survive as a String: passed over.
            guard let text = String(validating: name, as: UTF8.self) else { continue }
            var status = stat()
            if fstatat(descriptor, text, &status, AT_SYMLINK_NOFOLLOW) == 0, (status.st_mode & S_IFMT) == S_IFREG { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every card of every card file of `folder` into `sink`. A file with
    /// no card in it is one skipped record (the file named by `beginFile`).
    public static func read<Sink: FieldRecordSink>(folder: String, sourceName: String, into sink: Sink) throws(LoadError) -> Sink {
        let names = try cardFiles(in: folder, sourceName: sourceName)
        guard !names.isEmpty else {
            throw .invalid(file: sourceName, line: nil, column: nil, message: "the folder holds no .vcf file")
        }
        var reader = VCardReader(sink: sink)
        for name in names {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            reader.beginFile(path: path)
            let before = reader.recordCount
            do throws(LoadError) {
                try FieldFileReading.read(&reader, path: path, sourceName: path, format: .vCard, requireRecords: false,
                                          followsLinks: false)
            } catch {
                if reader.sink.refusal != nil { throw error }
                reader.skipFile(reason: error.message)
                continue
            }
            if reader.recordCount == before { reader.skipFile(reason: "no card in it (a card starts with BEGIN:VCARD)") }
        }
        return reader.sink
    }
}
