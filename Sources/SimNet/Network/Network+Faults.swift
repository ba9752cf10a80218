import SimCore

// Faults callable at any virtual time, on client and server links alike.
extension Network {
    /// Applies a fault to a host's link now.
    /// - Parameters:
    ///   - fault: what happens.
    ///   - host: whose access link (a client's, or a server's own link).
    ///   - directions: which directions (default both; `changeProfile` takes each chosen direction's new shape).
    public func inject(_ fault: LinkFault, on host: HostID,
                       directions chosen: [LinkDirection] = LinkDirection.allCases) {
        for direction in chosen {
            let index = directionIndex(host, direction)
            let component = directions[index].component
            switch fault {
            case .down:
                directions[index].isDownByFault = true
                trace.record(at: now, component: component, kind: "down")
                dropQueuedPackets(on: index)
            case .up:
                directions[index].isDownByFault = false
                trace.record(at: now, component: component, kind: "up")
            case .outage(let duration):
                directions[index].faultOutageUntil = max(directions[index].faultOutageUntil, now + duration)
                trace.record(at: now, component: component, kind: "outage", detail: "for=\(duration)")
                dropQueuedPackets(on: index)
            case .lossBurst(let probability, let duration):
                directions[index].lossBurst = (probability, now + duration)
                trace.record(at: now, component: component, kind: "loss-burst",
                             detail: "p=\(LossModel.percent(probability)) for=\(duration)")
            case .delaySpike(let extraDelay, let duration):
                directions[index].faultDelaySpikes.append((extraDelay, now + duration))
                trace.record(at: now, component: component, kind: "delay-spike",
                             detail: "extra=\(extraDelay) for=\(duration)")
            case .clog:
                directions[index].isClogged = true
                trace.record(at: now, component: component, kind: "clog")
            case .release:
                directions[index].isClogged = false
                trace.record(at: now, component: component, kind: "release")
                startNextTransmission(on: index)
            case .changeProfile(let profile):
                directions[index].profile = profile[direction]
                trace.record(at: now, component: component, kind: "profile", detail: profile.name)
                if directions[index].profile.rateBitsPerSecond == 0 { dropQueuedPackets(on: index) }
                if case .none = directions[index].profile.activeQueue { leaveCoDelStage(index) }
                startProfileChains(index)
            }
        }
        if case .down(let resetting) = fault, resetting != .none { resetConnections(of: host, resetting) }
        deliverEvents()
    }

    /// After a handover to a profile without CoDel: the packets the old profile's CoDel stage held move to the
    /// drop-tail queue in their order while it has room (the rest are dropped, as a full queue drops), and the
    /// direction sends again. Nothing serves a CoDel stage without CoDel, and `offer` queues every packet behind a
    /// non-empty stage: left there, they stopped the direction for good.
    func leaveCoDelStage(_ direction: Int) {
        guard directions[direction].codelQueuedPacketCount > 0 else { return }
        while let entry = directions[direction].popCoDel() {
            if directions[direction].hasRoom(ipBytes: entry.ipBytes) {
                directions[direction].enqueue(entry.packet, ipBytes: entry.ipBytes)
            } else {
                directions[direction].statistics.packetsDroppedByQueue += 1
                trace.record(at: now, component: directions[direction].component, kind: "drop-queue",
                             detail: packetSummary(entry.packet))
                releasePacket(entry.packet)
            }
        }
        directions[direction].codel = LinkDirectionState.CoDelState()
        startNextTransmission(on: direction)
    }

    /// Schedules a fault on a host's link at `time` (not before now).
    /// - Returns: a handle for `cancel(_:)`.
    @discardableResult
    public func schedule(_ fault: LinkFault, on host: HostID, at time: SimInstant,
                         directions chosen: [LinkDirection] = LinkDirection.allCases) -> TimerHandle {
        schedule(at: time) { [unowned self] in inject(fault, on: host, directions: chosen) }
    }

    /// Takes both directions of a host's link down (see `LinkFault.down`).
    public func setLinkDown(_ host: HostID, resetting: LinkFault.ResetTarget = .none) {
        inject(.down(resetting: resetting), on: host)
    }

    /// Brings both directions of a host's link back up.
    public func setLinkUp(_ host: HostID) { inject(.up, on: host) }

    /// Switches a host's link to another profile from now on (a handover).
    public func changeProfile(of host: HostID, to profile: LinkProfile) { inject(.changeProfile(profile), on: host) }

    /// Resets the live connections with an end on `host`: tells the chosen ends, at once, that they were reset.
    private func resetConnections(of host: HostID, _ target: LinkFault.ResetTarget) {
        for raw in endpoints.indices where endpointHosts[raw] == host {
            guard let endpoint = endpoints[raw], !endpoint.isClosed else { continue }
            var victims: [Int] = []
            if target == .localSide || target == .bothSides { victims.append(raw) }
            if target == .remoteSide || target == .bothSides { victims.append(raw ^ 1) }
            for victim in victims where endpoints[victim] != nil {
                endpoints[victim]!.resetByNetwork()
                flush(SocketID(rawValue: victim))
            }
        }
    }
}
