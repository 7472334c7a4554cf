import Foundation

/// The rows of one arrangement that the list has read, so that drawing never
/// waits on a source that can be slow (a database that thinks, a locked
/// table, a server that stopped answering).
///
/// A source that answers at once (a file in memory) is read while drawing,
/// as before. Any other source is read only off the main actor: a row not
/// read yet is drawn as loading, the frame notes the positions it wanted,
/// and `wanted()` then names the span to read (those positions with a
/// screen's worth either side, so that scrolling usually finds its rows
/// already read). The list reads that span in the background, `store`s it
/// and draws again.
///
/// Drawing and the reads' results meet here from different threads; a lock
/// keeps the rows, which are few (a few screens' worth).
public final class ListWindow: @unchecked Sendable {
    /// The arrangement the rows are of; a new one gets a new window.
    public let arrangement: PeopleArrangement
    private let repository: any PeopleRepository
    /// The source's rows read while drawing, when it answers at once.
    private let atOnce: (any ReadingAtOnce)?
    private let lock = NSLock()
    /// Rows read, by display position (a stand-in for one that could not be).
    private var held: [Int: ListedPerson] = [:]
    /// The positions drawing asked for since the last `wanted()`.
    private var asked: ClosedRange<Int>?
    /// The span being read, not stored yet.
    private var reading: Range<Int>?

    /// Rows kept at most; past it, those far from the screen are forgotten.
    static let capacity = 4096
    /// How far from the rows asked for a position still joins them.
    static let gap = 64
    /// The most rows one read asks for (a screen and its margins).
    static let longestRead = 1024

    /// Rows are read as they are drawn when the source answers at once
    /// and `readsWhileDrawing` (by default) allows it.
    public init(_ arrangement: PeopleArrangement, repository: any PeopleRepository, readsWhileDrawing: Bool = true) {
        self.arrangement = arrangement
        self.repository = repository
        atOnce = readsWhileDrawing ? repository.atOnce : nil
    }

    /// True when rows are read while drawing.
    public var readsWhileDrawing: Bool { atOnce != nil }

    /// The row at display `position`, or nil while it is not read yet.
    public func row(at position: Int) -> ListedPerson? {
        if let atOnce {
            return atOnce.rowsAtOnce(in: arrangement, positions: position..<(position + 1)).first
        }
        return lock.withLock {
            // A frame asks for a run of rows; a position far from the run
            // (the selection before `G` moved it) starts a new one, so that
            // two places never make one span of everything between them.
            if let run = asked, position >= run.lowerBound - Self.gap, position <= run.upperBound + Self.gap {
                asked = min(run.lowerBound, position)...max(run.upperBound, position)
            } else {
                asked = position...position
            }
            return held[position]
        }
    }

    /// The row at `position` if it is read and is a person's (not a stand-in).
    public func loadedRow(at position: Int) -> ListedPerson? {
        row(at: position).flatMap { $0.isLoaded ? $0 : nil }
    }

    /// The span to read next: what was drawn since the last call, with as
    /// many rows again either side (at least 32), when any of it is neither
    /// read nor being read. Nil when there is nothing to read.
    public func wanted() -> Range<Int>? {
        guard !readsWhileDrawing else { return nil }
        return lock.withLock {
            guard let drawn = asked else { return nil }
            asked = nil
            let margin = max(32, min(drawn.count, Self.longestRead / 3))
            let lower = max(0, drawn.lowerBound - margin)
            let span = lower..<min(arrangement.count, drawn.upperBound + 1 + margin, lower + Self.longestRead)
            if let reading, reading.contains(drawn.lowerBound), reading.contains(drawn.upperBound) { return nil }
            guard span.contains(where: { held[$0] == nil }) else { return nil }
            reading = span
            return span
        }
    }

    /// Reads `positions` from the source and keeps what it answered; a row
    /// it could not read, or left out, holds a stand-in (a row read before
    /// is kept).
    public func fill(_ positions: Range<Int>) async {
        let rows = try? await repository.rows(in: arrangement, positions: positions)
        store(rows ?? [], for: positions)
    }

    /// Keeps `rows`, read for `positions`; forgets the rows farthest from
    /// them when there are too many.
    public func store(_ rows: [ListedPerson], for positions: Range<Int>) {
        lock.withLock {
            for row in rows { held[row.position] = row }
            // A position the source left out holds a stand-in, so that it is
            // not asked for again and again.
            for position in positions where held[position] == nil {
                held[position] = .notLoaded(position: position,
                                            companyID: arrangement.sections[arrangement.sectionIndex(containing: position)].companyID)
            }
            if reading == positions { reading = nil }
            guard held.count > Self.capacity else { return }
            let keep = (positions.lowerBound - Self.capacity / 2)..<(positions.upperBound + Self.capacity / 2)
            held = held.filter { keep.contains($0.key) }
        }
    }

    /// True when some row read is a stand-in (it could not be read).
    public var holdsUnread: Bool { lock.withLock { held.values.contains { !$0.isLoaded } } }

    /// Forgets the stand-ins, so that the next frame asks for them again.
    public func forgetUnread() {
        lock.withLock { held = held.filter { $0.value.isLoaded } }
    }
}
