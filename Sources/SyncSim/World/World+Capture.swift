import SyncTrace

extension World {
    /// Starts capturing every segment that crosses a client's access link into `capture` (pcapng, see
    /// `LinkCapture`). Call before `run()`; capturing observes only, the run and its digest stay the same.
    public func startCapture() {
        guard capture == nil, !clients.isEmpty else { return }
        capture = LinkCapture(clients: clients.enumerated().map { index, client in
            (client.name, client.host, scenario.clients[index].profile.rawValue)
        })
        network.linkTap = { [unowned self] record in capture?.add(record) }
    }
}
