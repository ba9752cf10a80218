/// A checker the world runs after every step and once at the end of the run: the seam where invariant checkers
/// (SyncChecks) plug in.
///
/// Checkers read the world through its read-only accessors (`World.serverCore`, `World.clientView(_:)`, ...) and
/// return violations; the world adds the last step and the trace tail.
public protocol WorldChecks {
    /// Called after every world step (a timeline action, a timer, a batch of socket events).
    mutating func afterStep(_ world: World) -> [Violation]
    /// Called once when the run ends.
    mutating func atEnd(_ world: World) -> [Violation]
}
