import SimCore
import SyncClient
import SyncServer

/// What a `TestWorld` tells an observer as it runs: a checker plugs in here the way the real world feeds one.
///
/// Every hook has an empty default, so an observer implements only what it needs.
public protocol TestWorldObserver: AnyObject {
    /// A client was added (before its app starts).
    func clientAdded(_ name: String, userId: Int64, parameters: ClientParameters)
    /// An event is about to reach a client engine.
    func clientEventWillRun(_ name: String, event: ClientEvent, at now: SimInstant)
    /// A client engine handled an event and returned `actions`; `view` reads its view (lazily).
    func clientEventDidRun(
        _ name: String, actions: [ClientAction], view: () -> ClientView, server: SyncServer, at now: SimInstant)
    /// The server handled an event (also a restart).
    func serverEventDidRun(server: SyncServer, at now: SimInstant)
    /// A client's app is about to be closed and reopened; `view` is the old engine's last view.
    func appWillRestart(_ name: String, view: ClientView, server: SyncServer, at now: SimInstant)
}

extension TestWorldObserver {
    public func clientAdded(_ name: String, userId: Int64, parameters: ClientParameters) {}
    public func clientEventWillRun(_ name: String, event: ClientEvent, at now: SimInstant) {}
    public func clientEventDidRun(
        _ name: String, actions: [ClientAction], view: () -> ClientView, server: SyncServer, at now: SimInstant
    ) {}
    public func serverEventDidRun(server: SyncServer, at now: SimInstant) {}
    public func appWillRestart(_ name: String, view: ClientView, server: SyncServer, at now: SimInstant) {}
}
