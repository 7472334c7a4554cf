import Foundation
import RosterCore
import RosterStore

/// Reads a file's org chart: the file read again whole (its manager
/// fields are not kept in memory), at the offsets the store holding its
/// people says each record starts.
struct FileOrgChartReading: OrgChartReading {
    let path: String
    let format: InputFormat?
    let store: PeopleStore
    let sourceName: String

    func readChart(orderKeys: [Int32]?) -> OrgChartLoad {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return unreadable() }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              let bytes = FileSave.readAll(descriptor, count: Int(status.st_size)) else { return unreadable() }
        return bytes.withUnsafeBufferPointer {
            FileOrgChart.chart(of: store, fileBytes: $0, format: format, sourceName: sourceName, orderKeys: orderKeys)
        }
    }

    private func unreadable() -> OrgChartLoad {
        .unavailable("\(DisplayText.sanitized(sourceName)) could not be read again for its managers: \(String(cString: strerror(errno)))")
    }
}
