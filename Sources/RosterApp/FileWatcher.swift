import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tells when another program changed a directory file: inotify on the
/// file's folder, not the file (editors, `sed -i` and Roster's own saves
/// replace a file by renaming a new one over it, and a watch on the old
/// file would be lost with it). Events for the file's name that end a
/// write or put a file there are gathered for `settle` (a program saving
/// in several writes is one change), then `changed` runs, on a queue of
/// its own: no thread waits on the descriptor (Dispatch polls it).
final class FileWatcher: @unchecked Sendable {
    private let descriptor: Int32
    private let source: DispatchSourceRead
    private let queue = DispatchQueue(label: "roster.file-watcher")
    private let name: String
    private let settle: DispatchTimeInterval
    private let changed: @Sendable () -> Void
    /// A change waits out `settle` (touched only on `queue`).
    private var isSettling = false

    /// Watches `path` (its link resolved); nil where inotify cannot (then
    /// the file is simply not watched).
    init?(path: String, settle: DispatchTimeInterval = .milliseconds(150), changed: @escaping @Sendable () -> Void) {
        let resolved = realpath(path, nil).map { pointer -> String in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? path
        let folder = (resolved as NSString).deletingLastPathComponent
        name = (resolved as NSString).lastPathComponent
        self.settle = settle
        self.changed = changed
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY)
        guard inotify_add_watch(descriptor, folder.isEmpty ? "." : folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in self?.readEvents() }
        source.setCancelHandler { [descriptor] in close(descriptor) }
        source.resume()
    }

    /// Stops watching (the app is ending, or the source is no longer a file).
    func stop() {
        source.cancel()
    }

    deinit {
        source.cancel()
    }

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var concernsFile = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let length = Int(bytes.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + header)..<min(count, offset + header + length)]
                    let eventName = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if eventName == name { concernsFile = true }
                    offset += header + length
                }
            }
        }
        guard concernsFile, !isSettling else { return }
        isSettling = true
        queue.asyncAfter(deadline: .now() + settle) { [weak self] in
            guard let self else { return }
            self.isSettling = false
            self.changed()
        }
    }
}
