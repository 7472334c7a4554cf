#if !ROSTER_FUZZ
import RosterCore
#endif

/// What the fuzzer (`Tests/Fuzz/FieldReadersFuzz.swift`) and its kept
/// inputs' replay check for any bytes: both readers take them in any
/// chunking without a crash, and each card read edits in place into a
/// card that reads back with the edit.
enum FieldReadersFuzzing {
    static func check(_ bytes: [UInt8]) {
        let chunkSize = 1 + Int(bytes.first ?? 0) % 64
        var cards = VCardReader(sink: ArraySink())
        try? FieldFileReading.read(&cards, bytes: bytes, sourceName: "fuzz.vcf", format: .vCard, chunkSize: chunkSize, recordLimit: 512)
        var entries = LDIFReader(sink: ArraySink())
        try? FieldFileReading.read(&entries, bytes: bytes, sourceName: "fuzz.ldif", format: .ldif, chunkSize: chunkSize, recordLimit: 512)
        for record in cards.sink.records.prefix(4) where record.byteRange.upperBound <= bytes.count {
            let card = Array(bytes[record.byteRange])
            guard let edited = try? VCardCardText.edited(card, [.set(name: "NOTE", components: [["fuzz, é;\n"]])]) else { continue }
            var reread = VCardReader(sink: ArraySink())
            try? FieldFileReading.read(&reread, bytes: edited, sourceName: "edited.vcf", format: .vCard)
            let note = reread.sink.records.first?.fields.first { $0.name.uppercased() == "NOTE" }?.text
            precondition(note == "fuzz, é;\n" || note == "fuzz, é;\r\n", "an edited card did not read back: \(String(decoding: edited, as: UTF8.self))")
        }
    }
}
