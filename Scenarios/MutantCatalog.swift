import SyncSim

/// Which catalog scenarios are expected to catch each engine mutant: data for the mutation check, which runs
/// each listed scenario with `--mutant NAME` and expects a violation.
public enum MutantCatalog {
    /// (mutant name, scenario names), in `Mutant.all` order.
    public static let expectations: [(mutant: String, scenarios: [String])] = [
        (
            "merge-skips-bridge",
            [
                "scroll-through-gaps-to-start",
                "history-gap-after-login",
                "background-beyond-login-window",
                "crash-at-pushes-while-scrolling",
            ]
        ),
        (
            "gap-ignored-after-login",
            ["history-gap-after-login", "background-beyond-login-window", "chats-list-server-restarts"]
        ),
        ("since-from-newest-push", ["messages-while-socket-down", "push-before-catch-up"]),
        ("since-from-device-clock", ["clock-skew-last-sync", "clock-jumps-mid-page-server-behind"]),
        (
            "resend-new-cid",
            [
                "resend-while-first-copy-queued",
                "response-lost-after-store",
                "reconnect-during-send",
                "gprs-flap-then-scroll",
            ]
        ),
        ("parallel-sends", ["offline-sends-in-order", "weak-link-send-order"]),
        (
            "tasks-not-persisted",
            [
                "restart-with-pending-tasks",
                "half-open-switch-then-restart",
                "crash-mid-photo-upload",
            ]
        ),
        ("backoff-reset-on-connect", ["login-rejected-backoff-grows"]),
        (
            "seq-reuse-inflight",
            ["seq-wrap-long-pending", "seq4-slow-history-reset", "seq2-photo-mark-open", "seq2-jitter-mixed-resets"]
        ),
        (
            "inflight-dropped-on-disconnect",
            [
                "stuck-send-flushes-after-handover",
                "half-open-connection",
                "server-restart",
                "gprs-flap-then-scroll",
            ]
        ),
        ("removal-before-message-lost", ["changes-before-messages-cached"]),
        ("catch-up-from-live-push", ["catch-up-cursor-from-live-push"]),
        ("duplicate-is-failure", ["retry-answered-already-exists"]),
        ("outbox-in-memory-while-offline", ["outbox-survives-offline-relaunch"]),
        (
            "send-before-all-uploads",
            ["message-waits-for-all-uploads", "hours-offline-photos-gsm-restarts"]
        ),
        ("retry-without-backoff", ["retry-storm-on-instant-errors"]),
        (
            "own-message-device-time",
            ["own-messages-server-time", "clock-jumps-mid-page-server-behind"]
        ),
        ("seq-restart-per-connection", ["stale-reply-on-new-connection"]),
        ("server-no-liveness", ["server-detects-dead-connection"]),
        ("server-keeps-older-sessions", ["one-session-per-device"]),
    ]

    /// The scenarios expected to catch `mutant`, or empty for an unknown mutant.
    public static func scenarios(catching mutant: String) -> [String] {
        expectations.first { $0.mutant == mutant }?.scenarios ?? []
    }
}
