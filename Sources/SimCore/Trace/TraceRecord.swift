/// One observable step of a run: when, which component, what kind of step, and details.
public struct TraceRecord: Hashable, Sendable, CustomStringConvertible {
    /// The virtual time of the step.
    public var time: SimInstant
    /// The component that took it, e.g. `link.alice.up` or `tcp.3.client`.
    public var component: String
    /// What happened, one word, e.g. `drop`, `rto`, `connected`.
    public var kind: String
    /// Details as fixed-format text (integers and durations only, no locale, no floating point).
    public var detail: String

    /// A record; `detail` must be fixed-format text (see `detail`).
    public init(time: SimInstant, component: String, kind: String, detail: String) {
        self.time = time
        self.component = component
        self.kind = kind
        self.detail = detail
    }

    /// The canonical line the digest is computed over: `<nanoseconds> <component> <kind> <detail>` plus `\n`.
    public var canonicalLine: String { "\(time.nanosecondsSinceStart) \(component) \(kind) \(detail)\n" }

    /// The line for people: `12.345s component kind detail`.
    public var description: String { "\(time) \(component) \(kind) \(detail)" }
}
