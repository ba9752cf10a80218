import SyncProtocol

/// Counters the server keeps for reports and checkers.
public struct ServerStats: Hashable, Sendable {
    /// Requests received, by opcode.
    public var requestsByOpcode: [Opcode: Int] = [:]
    /// Messages stored (sent by clients, posted or seeded).
    public var messagesStored = 0
    /// MSG_SENDs whose cid was seen before, answered with the "already exists" error.
    public var duplicateSendsAbsorbed = 0
    /// Pushes sent (a duplicated push counts once here).
    public var pushesSent = 0
    /// Pushes dropped by `pushLossProbability`.
    public var pushesLost = 0
    /// Pushes sent twice by `pushDuplicationProbability`.
    public var pushesDuplicated = 0
    /// Error frames sent, injected ones included.
    public var errorsSent = 0
    /// Error frames sent by `errorRate`.
    public var errorsInjected = 0
    /// Uploads the CDN stored.
    public var uploadsAccepted = 0
    /// Uploads the CDN refused (unknown token or wrong size).
    public var uploadsRefused = 0
    /// Restarts so far.
    public var restarts = 0
    /// Connections closed by server-side liveness (`ServerKnobs.idleTimeout`).
    public var idleConnectionsClosed = 0
    /// Older connections of the same user and device closed by a newer LOGIN (`ServerKnobs.replacesOlderSessions`).
    public var sessionsReplaced = 0
}
