import SimCore
import SyncChecks
import SyncClient
import SyncServer

extension TestWorld {
    /// A world fed to a new `InvariantChecker` (instead of the chunk-store trap).
    /// - Parameters:
    ///   - options: the checker's options.
    ///   - knobs: the server's knobs.
    ///   - seed: the server's random stream.
    public convenience init(checking options: CheckOptions, knobs: ServerKnobs = ServerKnobs(), seed: UInt64 = 1) {
        self.init(knobs: knobs, seed: seed, observer: InvariantChecker(options: options))
    }

    /// The checker this world feeds; only for a world made with `init(checking:)`.
    public var checker: InvariantChecker {
        guard let checker = observer as? InvariantChecker else {
            preconditionFailure("this TestWorld has no InvariantChecker; make it with init(checking:)")
        }
        return checker
    }

    /// Every finding so far.
    public var findings: [Finding] { checker.findings }

    /// The invariants broken so far, without repeats, in declaration order.
    public var brokenInvariants: [InvariantID] { Set(findings.map(\.invariant)).sorted() }

    /// The end-of-run checks (T5, V1) for the given clients.
    public func checkEndOfRun(_ names: [String]) {
        var views: [String: ClientView] = [:]
        for name in names { views[name] = view(name) }
        checker.checkEndOfRun(views: views, server: server, at: now)
    }

    /// C6 for one client and chat, now.
    public func checkScrolledToTop(_ name: String, chatId: Int64) {
        checker.checkScrolledToTop(client: name, chatId: chatId, view: view(name), server: server, at: now)
    }
}
