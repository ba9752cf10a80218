import SimCore
import SyncClient
import SyncProtocol
import SyncServer

extension InvariantChecker {
    /// V1 (convergence): call at quiescence (network up, no pending work, the client logged in since the last
    /// server change). See `ConvergenceChecks.v1Problems` for the comparison.
    /// - Parameters:
    ///   - client: a registered client.
    ///   - view: the client's view now.
    ///   - server: the server now.
    ///   - now: virtual time.
    /// - Returns: the new findings (at most one per chat).
    @discardableResult
    public func checkConverged(client: String, view: ClientView, server: SyncServer, at now: SimInstant) -> [Finding] {
        let userId = ledgers[ledgerIndex(client)].userId
        return record(ConvergenceChecks.v1Problems(userId: userId, view: view, server: server).map {
            Finding(invariant: .V1, client: client, chatId: $0.chatId, time: now, expected: $0.expected,
                    found: $0.found)
        })
    }

    /// The end-of-run checks for a run that ended with the network up long enough: T5 and V1 for each client.
    /// - Parameters:
    ///   - views: each registered client's view, by name (order does not matter).
    ///   - server: the server now.
    ///   - now: virtual time.
    /// - Returns: the new findings, by client name.
    @discardableResult
    public func checkEndOfRun(views: [String: ClientView], server: SyncServer, at now: SimInstant) -> [Finding] {
        var new: [Finding] = []
        for client in views.keys.sorted() {
            new += checkQueueDrained(client: client, view: views[client]!, at: now)
            new += checkConverged(client: client, view: views[client]!, server: server, at: now)
        }
        return new
    }
}
