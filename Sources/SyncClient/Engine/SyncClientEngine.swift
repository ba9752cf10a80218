import SimCore

/// A client sync engine: a sans-IO state machine the world drives. Plug in your own by conforming to it.
///
/// The driver owns time, sockets and the database handle. On an app restart it drops the engine (and cancels all
/// of its timers) and creates a new one over the same database, then feeds `.start`.
public protocol SyncClientEngine {
    /// Feeds one event at virtual time `now`.
    /// - Returns: the actions for the driver, in order.
    mutating func handle(_ event: ClientEvent, now: SimInstant) -> [ClientAction]
    /// A read-only snapshot for checkers.
    var view: ClientView { get }
    /// The metrics collected since this engine instance started.
    var metrics: ClientMetrics { get }
}

/// Builds a client's engine over its database: the world calls it at launch and after every app restart.
/// - Parameters: the client's parameters, its database (the same handle across restarts) and its random stream.
public typealias SyncClientEngineFactory =
    (ClientParameters, SQLiteDatabase, SeededGenerator) -> any SyncClientEngine
