/// Finds the loops in a manager table (A reports to B reports to A) and
/// breaks them, in O(n) and without recursion.
enum OrgCycles {
    /// Puts every member of every loop in `parents` at the top (-1) and
    /// returns the loops: each in reporting order from its lowest person,
    /// ordered by that person.
    ///
    /// Each person is walked once: from each person not yet seen, up the
    /// managers, marking the walk, until the top or someone seen before. A
    /// walk that meets its own mark has gone round a loop; one that meets an
    /// earlier walk's ends in a tree (or a loop) already found.
    static func breakCycles(in parents: inout [Int32]) -> [[Int]] {
        let count = parents.count
        var walkOf = [Int32](repeating: 0, count: count)
        var cycles: [[Int]] = []
        for start in 0..<count where walkOf[start] == 0 {
            let walk = Int32(start + 1)
            var person = start
            while person >= 0, walkOf[person] == 0 {
                walkOf[person] = walk
                person = Int(parents[person])
            }
            guard person >= 0, walkOf[person] == walk else { continue }
            cycles.append(members(from: person, parents))
        }
        for cycle in cycles {
            for member in cycle { parents[member] = -1 }
        }
        return cycles.sorted { $0[0] < $1[0] }
    }

    /// The loop through `person`, from its lowest member, each reporting to the next.
    private static func members(from person: Int, _ parents: [Int32]) -> [Int] {
        var members = [person]
        var next = Int(parents[person])
        while next != person {
            members.append(next)
            next = Int(parents[next])
        }
        let lowest = members.indices.min { members[$0] < members[$1] } ?? 0
        return Array(members[lowest...] + members[..<lowest])
    }
}

/// Each manager's direct reports in CSR form (offsets into one array), in
/// the chosen order, and the people at the top.
struct OrgReportLists {
    let offsets: [Int32]
    let reports: [Int32]
    let roots: [Int32]

    init(parents: [Int32], order: OrgReportOrder) {
        let count = parents.count
        var offsets = [Int32](repeating: 0, count: count + 1)
        for parent in parents where parent >= 0 { offsets[Int(parent) + 1] += 1 }
        for index in 0..<count { offsets[index + 1] += offsets[index] }
        var next = Array(offsets.dropLast())
        var reports = [Int32](repeating: 0, count: Int(offsets[count]))
        var roots: [Int32] = []
        for person in 0..<count {
            let parent = Int(parents[person])
            if parent < 0 {
                roots.append(Int32(person))
            } else {
                reports[Int(next[parent])] = Int32(person)
                next[parent] += 1
            }
        }
        if let precedes = Self.precedes(order) {
            for person in 0..<count where offsets[person + 1] - offsets[person] > 1 {
                reports[Int(offsets[person])..<Int(offsets[person + 1])].sort { precedes(Int($0), Int($1)) }
            }
            roots.sort { precedes(Int($0), Int($1)) }
        }
        self.offsets = offsets
        self.reports = reports
        self.roots = roots
    }

    /// The comparison an order sorts by; nil for person number, the order
    /// the lists are filled in.
    private static func precedes(_ order: OrgReportOrder) -> ((Int, Int) -> Bool)? {
        switch order {
        case .personNumber: return nil
        case .keys(let keys): return { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
        case .comparator(let precedes): return precedes
        }
    }
}
