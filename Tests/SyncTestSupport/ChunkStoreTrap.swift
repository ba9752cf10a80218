import SimCore
import SyncClient
import SyncServer

/// The default `TestWorld` observer: stops the test process when a client's chunk store breaks its own invariants.
///
/// `ChunkStore.invariantViolations()` failing means the engine (the code under test) corrupted its cache, which the
/// engine's tests treat as a programmer error. Checker tests replace it with an `InvariantChecker`, which reports
/// what mutants break instead.
public final class ChunkStoreTrap: TestWorldObserver {
    public init() {}

    public func clientEventDidRun(
        _ name: String, actions: [ClientAction], view: () -> ClientView, server: SyncServer, at now: SimInstant
    ) {
        for (chatId, store) in view().chunkStores {
            let problems = store.invariantViolations()
            precondition(problems.isEmpty, "\(name) chat \(chatId): \(problems)")
        }
    }
}
