/// A deliberately broken variant of the reference client engine, by name, with what it breaks.
///
/// The names are those the engine accepts in `ClientSpec.mutant` and `syncsim run --mutant`.
public struct Mutant: Hashable, Sendable {
    /// The name.
    public var name: String
    /// One line: the bug it plants.
    public var summary: String
    /// For a server mutant, the server knobs (DSL server parameters) that plant the bug; empty for an engine mutant.
    public var serverParameters: ParameterSet

    /// Creates mutant `name` with the one-line `summary` of the bug it plants; a server mutant names the server
    /// parameters that plant it.
    public init(name: String, summary: String, serverParameters: ParameterSet = [:]) {
        self.name = name
        self.summary = summary
        self.serverParameters = serverParameters
    }

    /// Whether the bug is the server's (planted through its knobs) rather than the client engine's.
    public var isServerMutant: Bool { !serverParameters.isEmpty }

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
        Mutant(
            name: "removal-before-message-lost",
            summary: "an edit or removal pushed before its message is cached is dropped; a stale page shows the old version"
        ),
        Mutant(
            name: "catch-up-from-live-push",
            summary: "the first live push after LOGIN is the catch-up cursor: the LOGIN gap is never recorded"
        ),
        Mutant(
            name: "duplicate-is-failure",
            summary: "an \"already exists\" answer to a retried send counts as a failure, not as delivered"
        ),
        Mutant(
            name: "outbox-in-memory-while-offline",
            summary: "sends enqueued offline stay in memory: a relaunch while offline loses them"
        ),
        Mutant(name: "send-before-all-uploads", summary: "a multi-photo message goes out after its first upload"),
        Mutant(name: "retry-without-backoff", summary: "a task failing with an error retries at once, uncounted"),
        Mutant(
            name: "own-message-device-time",
            summary: "an acknowledged own message keeps the device clock's time, not the server's"
        ),
        Mutant(
            name: "seq-restart-per-connection",
            summary: "seqs restart on each connection: a stale reply from the last one completes the wrong waiter"
        ),
        Mutant(
            name: "server-no-liveness",
            summary: "(server) a connection whose client vanished without a FIN is never closed",
            serverParameters: ["idleTimeout": .duration(.zero)]
        ),
        Mutant(
            name: "server-keeps-older-sessions",
            summary: "(server) a LOGIN leaves the device's older connections open: two live sessions",
            serverParameters: ["replacesOlderSessions": .bool(false)]
        ),
    ]

    /// The mutant called `name`, or nil.
    public static func named(_ name: String) -> Mutant? { all.first { $0.name == name } }
}
