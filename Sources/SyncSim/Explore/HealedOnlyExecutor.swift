/// An executor for shrinking generated scenarios: a candidate that leaves a fault unhealed when its timeline ends (a
/// link down without its `LinkUp`, a clog without its `Release`, an app left in the background, a handover to
/// offline without the way back, a LOGIN cap never lifted, pushes lost with no reconnect after the loss) passes
/// without running.
///
/// The shrinker removes steps one by one; without this guard it would remove a fault's healing step, and a
/// liveness check would then fail because the network never came back, not because of the engine.
public struct HealedOnlyExecutor: ScenarioExecutor {
    /// Runs the candidates that keep every fault healed.
    public var executor: any ScenarioExecutor

    /// Wraps `executor`.
    public init(_ executor: any ScenarioExecutor) { self.executor = executor }

    public func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        guard scenario.unhealedFaults.isEmpty else {
            return RunResult(scenario: scenario.name, seed: seed, mutant: options.mutant, digest: 0)
        }
        return executor.run(scenario, seed: seed, options: options)
    }
}

extension Scenario {
    /// Faults still in force when the timeline ends, one line each (`"alice: link down"`), in schedule order of the
    /// clients and kinds; empty when every fault the timeline started has ended (durations aside, which end alone).
    public var unhealedFaults: [String] {
        guard let schedule = try? schedule() else { return ["the timeline does not resolve"] }
        var open: [String] = []
        func set(_ item: String, _ isOpen: Bool) {
            open.removeAll { $0 == item }
            if isOpen { open.append(item) }
        }
        /// Clients whose lost pushes no reconnect has repaired yet, with the end of the loss: only a LOGIN after
        /// it lists what was lost.
        var lostPushes: [(client: String, until: SimInstant)] = []
        func reconnects(_ clients: [String], at time: SimInstant) {
            for client in clients where lostPushes.contains(where: { $0.client == client && $0.until <= time }) {
                lostPushes.removeAll { $0.client == client && $0.until <= time }
                if !lostPushes.contains(where: { $0.client == client }) { set("\(client): pushes lost", false) }
            }
        }
        for step in schedule {
            switch step.step.action {
            case .pushLoss(let client, _, let duration):
                for name in client.map({ [$0] }) ?? clients.map(\.name) {
                    lostPushes.append((name, step.time + duration))
                    set("\(name): pushes lost", true)
                }
            case .outage(let client, _, .withReset), .linkDown(let client, .withReset):
                reconnects([client], at: step.time)
            case .serverRestart:
                reconnects(clients.map(\.name), at: step.time)
            default: break
            }
            switch step.step.action {
            case .linkDown(let client, _): set("\(client): link down", true)
            case .linkUp(let client): set("\(client): link down", false)
            case .clog(let client): set("\(client): clogged", true)
            case .release(let client): set("\(client): clogged", false)
            case .background(let client): set("\(client): in the background", true)
            case .foreground(let client): set("\(client): in the background", false)
            case .restartApp(let client), .crashApp(let client):
                set("\(client): in the background", false)
                reconnects([client], at: step.time)
            case .changeProfile(let client, let profile): set("\(client): offline", profile == .offline)
            case .capLogin(let chats): set("LOGIN capped", chats < 1_000_000)
            case .connectivity(let client, let change): set("\(client): network lost", change == .lost)
            default: break
            }
        }
        return open
    }
}
