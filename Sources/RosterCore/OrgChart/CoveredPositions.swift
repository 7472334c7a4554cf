/// Which positions of an outline are hidden, as ranges laid over them (a
/// collapsed manager covers everyone under them), and the visible ones
/// counted: a segment tree whose node holds how many ranges cover its whole
/// span and how many of its positions no range covers.
///
/// Covering or uncovering a range is O(log n) however many rows it hides
/// or shows; the k-th visible position and the number of visible positions
/// before one are O(log n) too. So collapsing the top of a million-person
/// chart costs what collapsing a leaf's manager does.
///
/// A range is always uncovered along the very nodes that covered it (the
/// same range splits the same way), so no count goes below zero.
struct CoveredPositions: Sendable, Equatable {
    let count: Int
    /// Leaves: positions `0..<count`, then padding up to a power of two.
    private let leaves: Int
    /// Per node (1 the root, `leaves + p` position p): ranges covering its span whole.
    private var covers: [Int32]
    /// Per node: positions in its span no range covers.
    private var visible: [Int32]

    /// `count` positions hidden by `ranges` (each covering once).
    init(count: Int, covering ranges: some Sequence<Range<Int>>) {
        self.count = count
        var leaves = 1
        while leaves < count { leaves <<= 1 }
        self.leaves = leaves
        covers = [Int32](repeating: 0, count: 2 * leaves)
        visible = [Int32](repeating: 0, count: 2 * leaves)
        // Counts first, visible totals in one pass from the leaves up: no
        // walk to the root per range.
        for range in ranges { addCover(range, by: 1) }
        for node in stride(from: 2 * leaves - 1, through: 1, by: -1) { refresh(node) }
    }

    /// Positions no range covers.
    var visibleCount: Int { Int(visible[1]) }

    /// Adds (`by: 1`) or removes (`by: -1`) one cover over `range`.
    mutating func cover(_ range: Range<Int>, by delta: Int32) {
        guard !range.isEmpty else { return }
        addCover(range, by: delta)
        var left = (range.lowerBound + leaves) >> 1
        var right = (range.upperBound - 1 + leaves) >> 1
        while left >= 1 {
            refresh(left)
            if right != left { refresh(right) }
            left >>= 1
            right >>= 1
        }
    }

    /// The position of the `index`-th visible position (from 0).
    func position(ofVisible index: Int) -> Int {
        precondition(index >= 0 && index < visibleCount, "row \(index) of \(visibleCount)")
        var node = 1
        var rest = Int32(index)
        while node < leaves {
            let left = 2 * node
            if visible[left] > rest {
                node = left
            } else {
                rest -= visible[left]
                node = left + 1
            }
        }
        return node - leaves
    }

    /// How many visible positions come before `position` (its row, when it
    /// is visible itself).
    func visibleBefore(_ position: Int) -> Int {
        var node = position + leaves
        var before = 0
        while node > 1 {
            if node & 1 == 1 { before += Int(visible[node - 1]) }
            node >>= 1
        }
        return before
    }

    /// Whether no range covers `position`.
    func isVisible(_ position: Int) -> Bool {
        var node = position + leaves
        while node >= 1 {
            if covers[node] > 0 { return false }
            node >>= 1
        }
        return true
    }

    /// The covers of `range`'s canonical nodes, without the totals above them.
    private mutating func addCover(_ range: Range<Int>, by delta: Int32) {
        var left = range.lowerBound + leaves
        var right = range.upperBound + leaves
        while left < right {
            if left & 1 == 1 {
                covers[left] += delta
                refresh(left)
                left += 1
            }
            if right & 1 == 1 {
                right -= 1
                covers[right] += delta
                refresh(right)
            }
            left >>= 1
            right >>= 1
        }
    }

    /// A node's visible total from its covers and its children.
    private mutating func refresh(_ node: Int) {
        if covers[node] > 0 {
            visible[node] = 0
        } else if node >= leaves {
            visible[node] = node - leaves < count ? 1 : 0
        } else {
            visible[node] = visible[2 * node] + visible[2 * node + 1]
        }
    }
}
