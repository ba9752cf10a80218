/// Custom conditions over the running `World` itself, for predicates the `WorldProbe` questions do not cover (a
/// client's screen, the server's read marks or connections).
extension Eventually {
    /// A custom predicate over the `World` running the scenario, named by `label` in reports; false when the probe
    /// is not a `World` (a test double):
    /// `Eventually.world("alice's mark reached the newest message", within: .minutes(2)) { world in ... }`.
    public static func world(
        _ label: String,
        within deadline: SimDuration,
        fileID: String = #fileID,
        line: Int = #line,
        _ predicate: @escaping @Sendable (World) -> Bool
    ) -> Eventually {
        Eventually(label, within: deadline, fileID: fileID, line: line) { probe in
            guard let world = probe as? World else { return false }
            return predicate(world)
        }
    }
}
