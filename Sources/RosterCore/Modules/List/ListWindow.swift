/// The rows of one arrangement that the list has read, so that drawing never
/// waits on a source that can be slow (a database that thinks, a locked
/// table, a server that stopped answering).
///
/// A source that answers at once (a file in memory) is read while drawing,
/// through its `ReadingAtOnce`. Any other source is read only off the main
/// actor: a row not read yet is drawn as loading; after each frame the list
/// says which positions it drew, `wanted(drawn:)` names the span to read
/// (those positions with a screen's worth either side, so that scrolling
/// usually finds its rows already read), and the rows read are `store`d
/// here, on the main actor, and drawn again.
///
/// UI state, on the main actor only: a frame takes its rows as a value
/// (`ListRows`), and a read's answer comes back here by the mailbox.
@MainActor
public final class ListWindow {
    /// The arrangement the rows are of; a new one gets a new window.
    public let arrangement: PeopleArrangement
    /// The source's rows read while drawing, when it answers at once.
    let atOnce: (any ReadingAtOnce)?
    /// Rows read, by display position: a person's, or why it could not be
    /// read (never `.loading`: a position not read is not held).
    private(set) var held: [Int: Loadable<ListedPerson>] = [:]
    /// The span being read, not stored yet.
    private var reading: Range<Int>?
    /// The rows that could not be read are read again by the next frame's
    /// read, and shown as such until it answers (never a flicker of
    /// "loading" between two tries).
    private var rereadsUnread = false

    /// Rows kept at most; past it, those far from the screen are forgotten.
    static let capacity = 4096
    /// The most rows one read asks for (a screen and its margins).
    static let longestRead = 1024

    /// Rows are read as they are drawn when `atOnce` is given (a source that
    /// answers at once); else they are read after the frames that show them.
    public init(_ arrangement: PeopleArrangement, atOnce: (any ReadingAtOnce)?) {
        self.arrangement = arrangement
        self.atOnce = atOnce
    }

    /// True when rows are read while drawing.
    public var readsWhileDrawing: Bool { atOnce != nil }

    /// The row at display `position`: the person's, or why there is none
    /// (not read yet, or could not be read).
    public func row(at position: Int) -> Loadable<ListedPerson> {
        guard let atOnce else { return held[position] ?? .loading }
        return atOnce.rowsAtOnce(in: arrangement, positions: position..<(position + 1)).first.map { .loaded($0) } ?? .loading
    }

    /// The person's row at `position`; nil while it is not read or could not be.
    public func loadedRow(at position: Int) -> ListedPerson? {
        row(at: position).value
    }

    /// The span to read after a frame that drew the people at `drawn`: them,
    /// with as many rows again either side (at least 32), when any of it is
    /// neither read nor being read. Nil when there is nothing to read.
    public func wanted(drawn: ClosedRange<Int>) -> Range<Int>? {
        guard atOnce == nil else { return nil }
        let margin = max(32, min(drawn.count, Self.longestRead / 3))
        let lower = max(0, drawn.lowerBound - margin)
        let span = lower..<min(arrangement.count, drawn.upperBound + 1 + margin, lower + Self.longestRead)
        if let reading, reading.contains(drawn.lowerBound), reading.contains(drawn.upperBound) { return nil }
        guard span.contains(where: { position in
            switch held[position] {
            case nil, .loading?: true
            case .failed?: rereadsUnread
            case .loaded?: false
            }
        }) else { return nil }
        reading = span
        return span
    }

    /// Keeps the rows read for `positions`, or why they could not be read;
    /// a position the source left out, or could not read, holds why, unless
    /// a row read before is kept. Forgets the rows farthest from them when
    /// there are too many.
    public func store(_ read: Result<[ListedPerson], RepositoryError>, for positions: Range<Int>) {
        let failure: RepositoryError
        switch read {
        case .success(let rows):
            for row in rows { held[row.position] = .loaded(row) }
            failure = Self.leftOut
        case .failure(let error):
            failure = error
        }
        // Held as failed, so that the position is not asked for again and again.
        for position in positions where held[position] == nil {
            held[position] = .failed(failure)
        }
        if reading == positions {
            reading = nil
            rereadsUnread = false
        }
        guard held.count > Self.capacity else { return }
        let keep = (positions.lowerBound - Self.capacity / 2)..<(positions.upperBound + Self.capacity / 2)
        held = held.filter { keep.contains($0.key) }
    }

    /// Why a position the source answered for holds nobody: the people
    /// changed under the arrangement.
    static let leftOut = RepositoryError(.notFound, reason: "not in what the source answered")

    /// True when some row could not be read.
    public var holdsUnread: Bool { held.values.contains { $0.value == nil } }

    /// Has the next frame's read ask for the rows that could not be read
    /// again; they show as such until it answers.
    public func readUnreadAgain() {
        rereadsUnread = true
    }
}
