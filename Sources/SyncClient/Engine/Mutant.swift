/// A deliberately broken variant of the reference engine, each reproducing a known class of field bug.
///
/// Checkers prove their worth by catching these (DESIGN.md §7). Select one by name at run time:
/// `Mutant(rawValue: "parallel-sends")`. Like FoundationDB's BUGGIFY, the engine consults its mutant at the points
/// where it decides (`ReferenceClient.isMutant`); the data structures (`ChunkStore`, `RequestTracker`, the store)
/// know nothing of mutants and hold only the correct algorithm.
public enum Mutant: String, CaseIterable, Hashable, Sendable {
    /// A page that bridges two chunks merges them but does not cache the messages in the gap (C2).
    case mergeSkipsBridge = "merge-skips-bridge"
    /// A chat-list entry with an unknown last message extends the top chunk instead of opening a gap (C2).
    case gapIgnoredAfterLogin = "gap-ignored-after-login"
    /// Last-sync is taken from the newest pushed message's time, so a lost push is never listed again (P4, V1).
    case sinceFromNewestPush = "since-from-newest-push"
    /// Last-sync is taken from the device clock, which may run ahead of the server (P4).
    case sinceFromDeviceClock = "since-from-device-clock"
    /// A retried send gets a new cid, so the server cannot deduplicate it (T2).
    case resendNewCid = "resend-new-cid"
    /// Sends of one chat go out in parallel, so out-of-order responses reorder them on the server (T4).
    case parallelSends = "parallel-sends"
    /// Tasks live only in memory and vanish when the app restarts (T1, T6).
    case tasksNotPersisted = "tasks-not-persisted"
    /// The reconnect backoff resets when TCP connects, before LOGIN succeeds: a reconnect storm.
    case backoffResetOnConnect = "backoff-reset-on-connect"
    /// Seq allocation wraps without skipping seqs still in flight (P1, P2).
    case seqReuseInflight = "seq-reuse-inflight"
    /// Requests in flight at a disconnect are forgotten without telling their owners, so tasks hang (P3, T5).
    case inflightDroppedOnDisconnect = "inflight-dropped-on-disconnect"
    /// An edit or removal pushed for a message not cached yet is dropped, so the message shows its old version
    /// when it arrives later from a stale page (C7).
    case removalBeforeMessageLost = "removal-before-message-lost"
    /// The first live push of a chat after LOGIN is taken as the catch-up cursor: it joins the chunk below across the
    /// gap the LOGIN entry opened, so no gap is recorded (C2). fluux-messenger PR #534.
    case catchUpFromLivePush = "catch-up-from-live-push"
    /// A "duplicate" error answering a retried send (same cid, already stored) counts as a failure: the send is
    /// retried until it fails for good although the server has it. stream-chat-react PR #2331.
    case duplicateIsFailure = "duplicate-is-failure"
    /// Sends enqueued while offline live in memory only: an app relaunch while still offline loses them (T1, T6).
    /// Expensify/App #5987.
    case outboxInMemoryWhileOffline = "outbox-in-memory-while-offline"
    /// A message with several photos is sent once its first upload is done, with only the photos uploaded so far.
    /// session-android PR #979.
    case sendBeforeAllUploads = "send-before-all-uploads"
    /// A task failing with an instant error is retried after 100 ms without counting an attempt: a retry storm
    /// against a failing server. mtxclient #8.
    case retryWithoutBackoff = "retry-without-backoff"
    /// An acknowledged own message keeps the device clock's time instead of the server's, so it sorts by device
    /// time (C3). wire-desktop #352.
    case ownMessageDeviceTime = "own-message-device-time"
    /// The seq counter restarts on each new connection, so a reply to the previous connection's request, which a
    /// server delivers on the new connection, completes the new request that reused its seq (C3: another chat's page
    /// is filed under this one). node-slack-sdk #251.
    case seqRestartPerConnection = "seq-restart-per-connection"
}
