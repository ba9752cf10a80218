/// A deliberately broken variant of the reference client engine, by name, with what it breaks.
///
/// The names are those the engine accepts in `ClientSpec.mutant` and `syncsim run --mutant`.
public struct Mutant: Hashable, Sendable {
    /// The name.
    public var name: String
    /// One line: the bug it plants.
    public var summary: String

    /// Creates mutant `name` with the one-line `summary` of the bug it plants.
    public init(name: String, summary: String) {
        self.name = name
        self.summary = summary
    }

    /// Every mutant of the reference engine, in a fixed order.
    public static let all: [Mutant] = [
        Mutant(name: "merge-skips-bridge", summary: "a page that reaches a neighbouring chunk does not merge them"),
        Mutant(
            name: "gap-ignored-after-login",
            summary: "a LOGIN entry with an unknown last message extends the old chunk"
        ),
        Mutant(
            name: "since-from-newest-push",
            summary: "last-sync is taken from the newest push, not the LOGIN response"
        ),
        Mutant(name: "since-from-device-clock", summary: "last-sync is taken from the device clock"),
        Mutant(name: "resend-new-cid", summary: "a retried send gets a fresh cid"),
        Mutant(name: "parallel-sends", summary: "sends of one chat go out in parallel, not in enqueue order"),
        Mutant(name: "tasks-not-persisted", summary: "the task queue lives in memory only and dies with the app"),
        Mutant(
            name: "backoff-reset-on-connect",
            summary: "reconnect backoff resets on TCP connect, not on a successful LOGIN"
        ),
        Mutant(name: "seq-reuse-inflight", summary: "seq allocation may hand out a seq still in flight"),
        Mutant(
            name: "inflight-dropped-on-disconnect",
            summary: "in-flight requests are forgotten on disconnect, neither retried nor failed"
        ),
    ]

    /// The mutant called `name`, or nil.
    public static func named(_ name: String) -> Mutant? { all.first { $0.name == name } }
}
