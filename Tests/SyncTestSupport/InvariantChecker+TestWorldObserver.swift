import SimCore
import SyncChecks
import SyncClient
import SyncServer

/// A checker plugged into a `TestWorld` is fed the way the real world feeds it: packets as they reach or leave a
/// client, the per-event checks after every client and server event, the T6 snapshot before an app restart.
extension InvariantChecker: TestWorldObserver {
    public func clientAdded(_ name: String, userId: Int64, parameters: ClientParameters) {
        register(client: name, userId: userId, parameters: parameters)
    }

    public func clientEventWillRun(_ name: String, event: ClientEvent, at now: SimInstant) {
        observeClientEvent(client: name, event: event, at: now)
    }

    public func clientEventDidRun(
        _ name: String, actions: [ClientAction], view: () -> ClientView, server: SyncServer, at now: SimInstant
    ) {
        // The order the SyncSim world uses: the packets an event sent, then the event's checks.
        observeClientActions(client: name, actions: actions, at: now)
        afterClientEvent(client: name, server: server, at: now, view: view)
    }

    public func serverEventDidRun(server: SyncServer, at now: SimInstant) {
        afterServerEvent(server: server, at: now)
    }

    public func appWillRestart(_ name: String, view: ClientView, server: SyncServer, at now: SimInstant) {
        appWillRestart(client: name, view: view, server: server, at: now)
    }
}
