import SimCore
import SyncClient
import SyncProtocol
import SyncServer

/// Checks the invariants of DESIGN.md §8 over read-only views of the server and the clients during one run.
///
/// The world owns one checker per run (a `final class`: its ledgers outlive app restarts) and feeds it:
/// 1. `register(client:userId:parameters:)` once per client before the run;
/// 2. `observeClientReceived` before a packet reaches a client engine, `observeClientSent` for each packet the
///    engine sends (P1, P2, P4's server times); or `observeClientEvent` before `handle` and
///    `observeClientActions` with what `handle` returned;
/// 3. `afterClientEvent` after a client engine handled an event, `afterServerEvent` after the server did
///    (chunks, tasks, last-sync; only the client and chats that changed are compared again);
/// 4. `appWillRestart` just before an app restart (T6's snapshot; the next `afterClientEvent` compares);
/// 5. the liveness checks on demand: `checkScrolledToTop` (C6), `checkQueueDrained` (T5), `checkConverged` (V1).
///
/// Every call returns the findings it produced (also collected in `findings`). Deterministic: nothing depends on
/// dictionary order.
public final class InvariantChecker {
    // Storage below skips the dynamic exclusivity checks (`swift_beginAccess` was 4% of a 300-client run's
    // instructions, mostly here and in `World`). The checker is single-threaded, and the one access that outlives a
    // statement, `withLedger`'s body on one ledger, never touches `ledgers` itself (read every body: they use the
    // ledger passed in and the other tables only).
    /// What to check and how often.
    public let options: CheckOptions
    /// Every finding so far, in the order found.
    @exclusivity(unchecked) public private(set) var findings: [Finding] = []

    /// Each registered client's ledger, in registration order; `ledgerIndexByClient` finds one by name. An array
    /// rather than a dictionary by name: a client event hashes the name once, and every later step reads the ledger
    /// by position, in place.
    @exclusivity(unchecked) var ledgers: [ClientLedger] = []
    @exclusivity(unchecked) var ledgerIndexByClient: [String: Int] = [:]
    /// The client `ledgerIndex` found last and its index: a client event's three calls into the checker
    /// (`observeClientEvent`, `observeClientActions`, `afterClientEvent`) hash its name once, not three times.
    @exclusivity(unchecked) private var lastLedgerLookup: (client: String, index: Int)?
    /// The registered clients' names, in registration order (the names of `ledgers`).
    @exclusivity(unchecked) var clientNames: [String] = []
    /// The ledger index of each user's client.
    @exclusivity(unchecked) var ledgerIndexByUserId: [Int64: Int] = [:]
    @exclusivity(unchecked) private var reported: Set<ReportKey> = []
    @exclusivity(unchecked) private var clientEventCount = 0
    @exclusivity(unchecked) private var serverEventCount = 0
    /// Server scan state (T2, T4): how many messages of each chat were scanned, and `stats.messagesStored` then.
    @exclusivity(unchecked) var scannedCountByChat: [Int64: Int] = [:]
    @exclusivity(unchecked) var scannedMessagesStored = -1
    /// Server message ids by (sender, cid), in store order.
    @exclusivity(unchecked) var serverMessageIdsByKey: [SenderCid: [Int64]] = [:]
    /// The chat of each server message carrying a cid.
    @exclusivity(unchecked) var chatIdByMessageId: [Int64: Int64] = [:]

    private struct ReportKey: Hashable {
        var invariant: InvariantID
        var client: String?
        var chatId: Int64?
    }

    struct SenderCid: Hashable {
        var sender: Int64
        var cid: Int64
    }

    /// A checker with nothing registered yet.
    /// - Parameter options: invariants to check, sampling, reporting (default: all, every event, first only).
    public init(options: CheckOptions = CheckOptions()) {
        self.options = options
    }

    /// A registered client, as `register` returns it. The per-event calls take it in place of the client's name:
    /// the client's ledger is then found by position, with no hash of the name into a table of every client (at
    /// 10,000 clients, a cache miss on each client event). Only the checker whose `register` returned it knows it.
    public struct RegisteredClient: Hashable, Sendable {
        let index: Int
    }

    /// Declares a client before the run.
    /// - Parameters:
    ///   - client: the name findings use.
    ///   - userId: the server user the client logs in as (to attribute server messages by sender).
    ///   - parameters: its parameters (request and pong timeouts, for P1–P3).
    /// - Returns: the client, for the calls that take a `RegisteredClient` instead of its name.
    @discardableResult
    public func register(client: String, userId: Int64, parameters: ClientParameters) -> RegisteredClient {
        precondition(ledgerIndexByClient[client] == nil, "client \(client) registered twice")
        let registered = RegisteredClient(index: ledgers.count)
        ledgerIndexByClient[client] = registered.index
        ledgerIndexByUserId[userId] = registered.index
        clientNames.append(client)
        ledgers.append(ClientLedger(
            userId: userId, requestTimeout: parameters.requestTimeout, pongTimeout: parameters.pongTimeout,
            maximumHandshakeTimeout: parameters.maximumHandshakeTimeout))
        return registered
    }

    /// Runs the per-event checks for a client whose engine just handled an event (C1–C5, T1–T4, T6, P3, P4).
    ///
    /// Only chats whose chunk store changed since the last check are compared with the server again. With
    /// `sampling` N, only every Nth call runs these checks, except the first call after `appWillRestart`; a call
    /// after `observeClientSent` saw a MSG_SEND still reads the view to link the packet's cid to its task (T2 then
    /// holds whatever the sampling: a retry's new cid may never be seen in a sampled view). Call it after
    /// `observeClientSent` for the packets the event sent.
    /// - Parameters:
    ///   - client: a registered client.
    ///   - server: the server now.
    ///   - now: virtual time.
    ///   - checksTimeouts: false leaves out P3's deadlines, for the events a resumed app receives before its
    ///     overdue timers (they were deferred while it was suspended).
    ///   - view: the client's view; evaluated only when this event is checked.
    /// - Returns: the new findings.
    @discardableResult
    public func afterClientEvent(
        client: String, server: SyncServer, at now: SimInstant, checksTimeouts: Bool = true,
        view: () -> ClientView
    ) -> [Finding] {
        // The name is hashed once; the ledger is read in place by position from here on.
        afterClientEvent(RegisteredClient(index: ledgerIndex(client)), server: server, at: now,
                         checksTimeouts: checksTimeouts, view: view)
    }

    /// `afterClientEvent(client:server:at:checksTimeouts:view:)` for a client as `register` returned it.
    @discardableResult
    public func afterClientEvent(
        _ client: RegisteredClient, server: SyncServer, at now: SimInstant, checksTimeouts: Bool = true,
        view: () -> ClientView
    ) -> [Finding] {
        let index = client.index
        clientEventCount += 1
        let isRestartCheck = ledgers[index].unfinishedBeforeRestart != nil
        guard isRestartCheck || clientEventCount % options.sampling == 0 else {
            guard !ledgers[index].sentCidsToLink.isEmpty else { return [] }
            linkSentCids(index, view: view())
            return record(linkTaskCids(index, at: now))
        }
        return checkClient(index, view: view(), server: server, at: now, checksTimeouts: checksTimeouts)
    }

    /// Every per-event check of one client's view, whatever the sampling.
    /// `checksTimeouts` false leaves out P3's deadlines: a suspended app's timers cannot fire.
    func checkClient(_ index: Int, view current: ClientView, server: SyncServer, at now: SimInstant,
                     checksTimeouts: Bool = true) -> [Finding] {
        linkSentCids(index, view: current)
        var new: [Finding] = []
        let client = clientNames[index]
        withLedger(index) { ledger in
            func report(_ invariant: InvariantID, _ chatId: Int64?, _ expected: String, _ found: String) {
                new.append(Finding(invariant: invariant, client: client, chatId: chatId, time: now, expected: expected,
                                   found: found))
            }
            checkChunks(&ledger, view: current, server: server, report: report)
            checkEdits(ledger, view: current, report: report)
            checkTasks(&ledger, view: current, report: report)
            checkRunningTasks(view: current, report: report)
            checkRequestsAndLastSync(&ledger, view: current, server: server, now: now,
                                     checksTimeouts: checksTimeouts, report: report)
        }
        // Appended only when there is something to append (nearly never): `+=` of an empty array still cost a call.
        let linked = linkTaskCids(index, at: now)
        if !linked.isEmpty { new += linked }
        let scanned = scanServer(server, at: now)
        if !scanned.isEmpty { new += scanned }
        return new.isEmpty ? [] : record(new)
    }

    /// Runs the server-side checks after the server handled an event (T2, T4 over newly stored messages).
    /// - Returns: the new findings.
    @discardableResult
    public func afterServerEvent(server: SyncServer, at now: SimInstant) -> [Finding] {
        serverEventCount += 1
        guard serverEventCount % options.sampling == 0 else { return [] }
        let new = scanServer(server, at: now)
        return new.isEmpty ? [] : record(new)
    }

    /// The ledger index of a registered client (its name hashed once per call into the checker).
    func ledgerIndex(_ client: String) -> Int {
        if let last = lastLedgerLookup, last.client == client { return last.index }
        guard let index = ledgerIndexByClient[client] else { preconditionFailure("unregistered client \(client)") }
        lastLedgerLookup = (client, index)
        return index
    }

    /// Runs `body` on the ledger at `index` in place. Copying the ledger out of the table and back made every
    /// collection it changed copy itself first (copy-on-write against the table's reference): work on every event
    /// that grew with the ledger. `body` must not touch `ledgers` (it holds exclusive access to the table).
    func withLedger<Result>(_ index: Int, _ body: (inout ClientLedger) throws -> Result) rethrows -> Result {
        try body(&ledgers[index])
    }

    /// Keeps findings the options allow, once per (invariant, client, chat) unless told otherwise.
    func record(_ candidates: [Finding]) -> [Finding] {
        var kept: [Finding] = []
        for finding in candidates where options.enabled.contains(finding.invariant) {
            if options.reportsFirstOnly {
                let key = ReportKey(invariant: finding.invariant, client: finding.client, chatId: finding.chatId)
                guard reported.insert(key).inserted else { continue }
            }
            kept.append(finding)
        }
        findings += kept
        return kept
    }
}
