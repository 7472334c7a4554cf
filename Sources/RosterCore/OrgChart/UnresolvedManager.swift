/// A manager reference that named no one here or several people, in words
/// for the screen: what the record said, and how many it names, so the
/// person reading the chart knows which record to mend and how.
enum UnresolvedManager {
    /// The longest reference quoted, in cells: a stray paragraph in a
    /// manager field is cut rather than pushing the rest off the line.
    static let longestQuoted = 40

    /// `"Ann Lee"`: the reference as the record has it, trimmed, made safe
    /// for the terminal and cut to `longestQuoted` cells.
    static func quoted(_ reference: String) -> String {
        "\"\(DisplayText.fit(reference.trimmingSpaces, columns: longestQuoted))\""
    }

    /// `"Ann Lee" names 2 people`.
    static func names(_ reference: String, people: Int) -> String {
        "\(quoted(reference)) names \(NumberText.grouped(people)) people"
    }

    /// What a person's line says when their reference did not resolve:
    /// `manager ambiguous: "Ann Lee" names 2 people`, `manager not here:
    /// "Zed"`; nil for an outcome that is not one of those two.
    static func words(for outcome: ManagerResolution.Outcome) -> String? {
        switch outcome {
        case .ambiguous(let reference, let people): return OrgPlace.managerAmbiguous(reference, people: people)
        case .missing(let reference): return OrgPlace.managerNotHere(reference)
        case .none, .resolved, .selfReference: return nil
        }
    }

    /// For the title's count of ambiguous managers: the reference most of
    /// them gave (the first such among equals, as its first person spelled
    /// it; "ann  LEE" is "Ann Lee" again), and how many others there are:
    /// ` ("Ann Lee" names 2 people)`, ` ("Ann Lee" names 2 people, and 1
    /// other reference)`; empty when `problems` has no ambiguous one.
    static func ambiguousExample(in problems: [ManagerResolution.Problem]) -> String {
        var tallies: [(reference: String, people: Int, referrers: Int)] = []
        var tallyOf: [String: Int] = [:]
        for problem in problems {
            guard case .ambiguous(let reference, let people) = problem.outcome else { continue }
            let key = reference.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if let tally = tallyOf[key] {
                tallies[tally].referrers += 1
            } else {
                tallyOf[key] = tallies.count
                tallies.append((reference, people, 1))
            }
        }
        guard var example = tallies.first else { return "" }
        for tally in tallies.dropFirst() where tally.referrers > example.referrers { example = tally }
        let others = tallies.count - 1
        let more = others == 0 ? "" : ", and \(NumberText.count(others, "other reference", "other references"))"
        return " (\(names(example.reference, people: example.people))\(more))"
    }
}
