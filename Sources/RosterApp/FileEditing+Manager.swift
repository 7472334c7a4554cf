import Foundation
import RosterCore
import RosterStore

/// A file's managers, for the form: the reference read from the person's
/// record as the file holds it now, and set as `roster update FILE ID
/// manager=…` sets it (`FileSave`, checked first by `ManagerChange`).
extension FileEditing: ManagerEditing {
    var managers: (any ManagerEditing)? { self }

    func manager(of recordID: String) throws(EditFailure) -> ManagerField {
        guard let bytes = FileOrgChartReading.regularFileBytes(path) else {
            throw EditFailure(.failed, "\(path): \(Descriptor.describe(errno: errno))")
        }
        return try bytes.withUnsafeBufferPointer { buffer throws(EditFailure) -> ManagerField in
            let format = format ?? InputFormat(extensionOf: path) ?? InputFormat(sniffing: buffer)
            return try RecordFile(bytes: buffer, format: format, sourceName: path).manager(of: recordID, in: buffer, sourceName: path)
        }
    }

    func setManager(of recordID: String, to reference: String) throws(EditFailure) {
        try outcome(FileSave.save(.setManager(id: recordID, reference: reference), to: path, format: format, backup: false,
                                  progress: saveProgress))
    }
}
