import Foundation
@testable import RosterCore
@testable import RosterStore

/// Reading text through the vCard and LDIF readers into an `ArraySink`, a
/// chunk at a time, for the format tests.
enum FieldReading {
    static func vCards(_ text: String, chunkSize: Int = 1 << 20, recordLimit: Int = PeopleLoader.defaultRecordLimit) throws -> ArraySink {
        try vCards(Array(text.utf8), chunkSize: chunkSize, recordLimit: recordLimit)
    }

    static func vCards(_ bytes: [UInt8], chunkSize: Int = 1 << 20, recordLimit: Int = PeopleLoader.defaultRecordLimit) throws -> ArraySink {
        var reader = VCardReader(sink: ArraySink())
        try FieldFileReading.read(&reader, bytes: bytes, sourceName: "test.vcf", format: .vCard, chunkSize: chunkSize, recordLimit: recordLimit)
        return reader.sink
    }

    static func ldif(_ text: String, chunkSize: Int = 1 << 20, recordLimit: Int = PeopleLoader.defaultRecordLimit) throws -> ArraySink {
        try ldif(Array(text.utf8), chunkSize: chunkSize, recordLimit: recordLimit)
    }

    static func ldif(_ bytes: [UInt8], chunkSize: Int = 1 << 20, recordLimit: Int = PeopleLoader.defaultRecordLimit) throws -> ArraySink {
        var reader = LDIFReader(sink: ArraySink())
        try FieldFileReading.read(&reader, bytes: bytes, sourceName: "test.ldif", format: .ldif, chunkSize: chunkSize, recordLimit: recordLimit)
        return reader.sink
    }

    /// The folder of the committed format fixtures.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: fixtures.appendingPathComponent(name)))
    }
}

extension Array where Element == RecordField {
    /// The fields named `name` (any case).
    func named(_ name: String) -> [RecordField] {
        filter { $0.name.lowercased() == name.lowercased() }
    }
}
