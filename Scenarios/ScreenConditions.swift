import SyncSim

// Conditions on what a client's screen shows, for scenarios that judge the view (rounds 38 and 38 E of the
// hand-written field sequences). Custom conditions: `Eventually("...", clients:, viewAtNewest(...))`.

/// The open chat shows the server's newest message that is not removed (or a newer one: an own message shown below
/// the chunk) at the bottom of the view; false while another chat (or none) is open.
func viewAtNewest(_ client: String, _ chat: String) -> @Sendable (any WorldProbe) -> Bool {
    { world in
        let screen = world.screen(of: client)
        guard screen.openChat == chat,
              let newest = world.serverMessages(in: chat).last(where: { !$0.isRemoved })?.id else { return false }
        return (screen.visibleMessageIds.max() ?? .min) >= newest
    }
}

/// The open chat shows the server's oldest message first (the user reached the top); false while another chat (or
/// none) is open.
func viewAtOldest(_ client: String, _ chat: String) -> @Sendable (any WorldProbe) -> Bool {
    { world in
        let screen = world.screen(of: client)
        guard screen.openChat == chat, let oldest = world.serverMessages(in: chat).first?.id else { return false }
        return screen.visibleMessageIds.first == oldest
    }
}
