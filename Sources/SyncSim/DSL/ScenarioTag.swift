/// A label on a scenario that `syncsim run --tag NAME` and `syncsim list` select by (`.history`, `.slow`).
///
/// Tags are declared in the DSL, `Scenario("name", summary: ..., seeds: [...], tags: [.history, .slow]) { ... }`.
/// The static members are the catalog's own tags; a user's package can add its own with a string literal
/// (`tags: ["nightly"]`) or a static member in an extension. Names are lower-case words joined by `-`.
public struct ScenarioTag: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The tag as typed after `--tag` (`"history"`).
    public var name: String

    /// Creates the tag `name`.
    public init(_ name: String) { self.name = name }

    /// Creates the tag named by a string literal.
    public init(stringLiteral value: String) { self.name = value }

    /// The name.
    public var description: String { name }

    /// Orders tags by name.
    public static func < (lhs: ScenarioTag, rhs: ScenarioTag) -> Bool { lhs.name < rhs.name }

    /// Sending and the persistent task queue (invariants T1-T6).
    public static let sending = ScenarioTag("sending")
    /// History pages, chunks and gaps (invariants C1-C6).
    public static let history = ScenarioTag("history")
    /// Connections, reconnects and the server (P1-P4).
    public static let connection = ScenarioTag("connection")
    /// Reproduces a behaviour from a public bug report.
    public static let fieldBug = ScenarioTag("field-bug")
    /// Written for parameter sweeps (one user-facing task whose metrics a sweep compares).
    public static let sweep = ScenarioTag("sweep")
    /// Photos: processing, CDN upload and the photo message.
    public static let photo = ScenarioTag("photo")
    /// Takes noticeably longer than most catalog runs (long virtual time or many clients); CI may run it apart.
    public static let slow = ScenarioTag("slow")
}
