/// The "did you mean X?" of a misspelt command, option or name (a scenario, parameter, profile, mutant, tag): the
/// closest known name by edit distance.
public enum Suggestion {
    /// The name in `candidates` closest to `typed`, or nil when none is close: within one edit for a name of up to
    /// four characters, two edits for a longer one (an adjacent swap, `rnu` for `run`, counts as one edit), or
    /// the only candidate that starts with `typed` (`trace` for `trace-summary`). Ties go to the earlier candidate,
    /// so the answer does not depend on anything but the order given.
    public static func closest(to typed: String, among candidates: [String]) -> String? {
        guard !typed.isEmpty else { return nil }
        let limit = typed.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != typed {
            let distance = editDistance(typed, candidate)
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        if let best { return best.name }
        let extending = candidates.filter { $0.hasPrefix(typed) && $0 != typed }
        let letters = typed.drop { $0 == "-" }
        return letters.count >= 3 && extending.count == 1 ? extending[0] : nil
    }

    /// `" (did you mean 'X'?)"` for the closest of `candidates`, or an empty string when none is close.
    public static func clause(for typed: String, among candidates: [String]) -> String {
        closest(to: typed, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// `unknown WHAT 'TYPED' (did you mean 'X'?); LABEL: A, B, ...`: the error every command gives for a name it does
    /// not know, the suggestion only when one is close, then every name it knows.
    public static func unknown(_ what: String, _ typed: String, among names: [String], listedAs label: String) -> String {
        "unknown \(what) '\(typed)'" + clause(for: typed, among: names) + "; \(label): " + names.joined(separator: ", ")
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of adjacent
    /// characters, each one edit.
    /// - Complexity: O(*m* × *n*) for strings of *m* and *n* characters.
    public static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first), b = Array(second)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
