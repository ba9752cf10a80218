import SimCore

// The packet path through link directions: drop-tail queue, serialization at the rate, loss, propagation.
extension Network {
    /// Stores a packet in a free slot of the slab (taken, not copied) and returns the slot.
    func storePacket(_ packet: consuming Packet) -> Int {
        if let slot = freePacketSlots.popLast() {
            packets[slot] = packet
            return slot
        }
        packets.append(packet)
        return packets.count - 1
    }

    func releasePacket(_ slot: Int) {
        packets[slot] = nil
        freePacketSlots.append(slot)
    }

    /// Takes a stored packet out of the slab (moved, not copied) and frees its slot.
    func takePacket(_ slot: Int) -> Packet {
        let packet = packets[slot].take()!
        freePacketSlots.append(slot)
        return packet
    }

    /// The IP size of a stored packet. Read in place: `packets[slot]!.ipBytes` copied the whole packet (a retain
    /// and a release of its payload and SACK blocks) to read one integer.
    func ipBytes(ofPacket slot: Int) -> Int {
        Self.field(of: &packets[slot]) { $0.ipBytes }
    }

    static func field<Value>(of packet: inout Packet?, _ read: (inout Packet) -> Value) -> Value {
        read(&packet!)
    }

    /// Hands a packet to a direction: dropped when the direction is down or its queue is full.
    ///
    /// The direction's state is read in place (a `let` copy of it retained and released every buffer it holds).
    func offer(_ slot: Int, to direction: Int) {
        let ipBytes = ipBytes(ofPacket: slot)
        directions[direction].statistics.packetsOffered += 1
        if directions[direction].isDown(at: now) {
            directions[direction].statistics.packetsDroppedWhileDown += 1
            trace.record(at: now, component: directions[direction].component, kind: "drop-down",
                         detail: packetSummary(slot))
            releasePacket(slot)
            return
        }
        if directions[direction].packetInService == nil && !directions[direction].isClogged
            && !directions[direction].hasQueuedPackets && directions[direction].codelQueuedPacketCount == 0 {
            startTransmission(slot, on: direction)
        } else if case .codel = directions[direction].profile.activeQueue,
                  directions[direction].codelQueuedPacketCount > 0
                    || !directions[direction].hasRoom(ipBytes: ipBytes) {
            if directions[direction].codelQueuedPacketCount >= ActiveQueueManagement.codelCapacityPackets {
                directions[direction].statistics.packetsDroppedByQueue += 1
                trace.record(at: now, component: directions[direction].component, kind: "drop-queue",
                             detail: packetSummary(slot))
                releasePacket(slot)
            } else {
                directions[direction].codelQueue.append((slot, now, ipBytes))
                directions[direction].codelQueuedBytes += ipBytes
            }
        } else if !directions[direction].hasRoom(ipBytes: ipBytes) {
            directions[direction].statistics.packetsDroppedByQueue += 1
            trace.record(at: now, component: directions[direction].component, kind: "drop-queue",
                         detail: packetSummary(slot))
            releasePacket(slot)
        } else {
            directions[direction].enqueue(slot, ipBytes: ipBytes)
        }
    }

    func startTransmission(_ slot: Int, on direction: Int) {
        directions[direction].packetInService = slot
        // The size first: a call on `self` inside the profile's method call made the compiler copy the whole
        // profile (its strings and arrays retained and released) for every packet sent.
        let ipBytes = ipBytes(ofPacket: slot)
        let time = directions[direction].profile.serializationTime(ipBytes: ipBytes)
        loop.schedule(.transmissionComplete(direction: direction), after: time)
    }

    func startNextTransmission(on direction: Int) {
        guard directions[direction].packetInService == nil, !directions[direction].isClogged else { return }
        // A zero-rate profile (offline) carries nothing: what waits is dropped, as on a link that is down.
        guard directions[direction].profile.rateBitsPerSecond > 0 else { return dropQueuedPackets(on: direction) }
        let next = directions[direction].dequeue { self.ipBytes(ofPacket: $0) }
        if let next { startTransmission(next, on: direction) }
        refillFromCoDel(direction)
    }

    /// Moves packets from the CoDel stage into the drop-tail queue while it has room, dropping at the head as CoDel
    /// decides (RFC 8289 §5.2 `dequeue`), as ns-3's queue disc does when its device queue wakes up.
    func refillFromCoDel(_ direction: Int) {
        guard case .codel(let target, let interval) = directions[direction].profile.activeQueue else { return }
        while directions[direction].codelQueuedPacketCount > 0 {
            let headBytes = directions[direction].codelQueue.first!.ipBytes
            guard directions[direction].hasRoom(ipBytes: headBytes) else { return }
            guard let entry = codelDequeue(direction, target: target, interval: interval) else { return }
            if directions[direction].packetInService == nil && !directions[direction].isClogged
                && !directions[direction].hasQueuedPackets {
                startTransmission(entry.packet, on: direction)
            } else {
                directions[direction].enqueue(entry.packet, ipBytes: entry.ipBytes)
            }
        }
    }

    private func codelDequeue(_ direction: Int, target: SimDuration,
                              interval: SimDuration) -> (packet: Int, enqueuedAt: SimInstant, ipBytes: Int)? {
        guard var entry = directions[direction].popCoDel() else { return nil }
        var isOkToDrop = directions[direction].isOkToDrop(enqueuedAt: entry.enqueuedAt, now: now, target: target,
                                                          interval: interval)
        func dropHead() -> Bool {
            directions[direction].statistics.packetsDroppedByQueue += 1
            trace.record(at: now, component: directions[direction].component, kind: "drop-codel",
                         detail: packetSummary(entry.packet))
            releasePacket(entry.packet)
            guard let next = directions[direction].popCoDel() else { return false }
            entry = next
            isOkToDrop = directions[direction].isOkToDrop(enqueuedAt: entry.enqueuedAt, now: now, target: target,
                                                          interval: interval)
            return true
        }
        if directions[direction].codel.isDropping {
            if !isOkToDrop {
                directions[direction].codel.isDropping = false
            } else {
                while now >= directions[direction].codel.dropNext && directions[direction].codel.isDropping {
                    directions[direction].codel.count += 1
                    guard dropHead() else { return nil }
                    if !isOkToDrop {
                        directions[direction].codel.isDropping = false
                    } else {
                        directions[direction].codel.dropNext = LinkDirectionState.controlLaw(
                            directions[direction].codel.dropNext, interval: interval,
                            count: directions[direction].codel.count)
                    }
                }
            }
        } else if isOkToDrop {
            guard dropHead() else { return nil }
            var codel = directions[direction].codel
            codel.isDropping = true
            let delta = codel.count - codel.lastCount
            codel.count = delta > 1 && now - codel.dropNext < interval * 16 ? delta : 1
            codel.dropNext = LinkDirectionState.controlLaw(now, interval: interval, count: codel.count)
            codel.lastCount = codel.count
            directions[direction].codel = codel
        }
        return entry
    }

    func completeTransmission(_ direction: Int) {
        guard let slot = directions[direction].packetInService else { return }
        directions[direction].packetInService = nil
        directions[direction].statistics.packetsSerialized += 1
        directions[direction].statistics.bytesSerialized +=
            ipBytes(ofPacket: slot) + directions[direction].profile.perPacketOverheadBytes
        if directions[direction].isDown(at: now) {
            directions[direction].statistics.packetsDroppedWhileDown += 1
            trace.record(at: now, component: directions[direction].component, kind: "drop-down",
                         detail: packetSummary(slot))
            releasePacket(slot)
        } else if directions[direction].drawLoss(at: now) {
            directions[direction].statistics.packetsLost += 1
            trace.record(at: now, component: directions[direction].component, kind: "loss",
                         detail: packetSummary(slot))
            releasePacket(slot)
        } else {
            var arrival = now + directions[direction].drawDelay(at: now)
            if !directions[direction].profile.reordersPackets {
                arrival = max(arrival, directions[direction].lastArrival)
                directions[direction].lastArrival = arrival
            }
            directions[direction].statistics.packetsPassed += 1
            loop.schedule(.arrival(packet: slot), at: arrival)
        }
        startNextTransmission(on: direction)
    }

    func arrive(_ slot: Int) {
        let destination = Self.field(of: &packets[slot]) { packet -> HostID? in
            guard packet.hop == 0 else { return nil }
            packet.hop = 1
            return packet.destination
        }
        if let destination {
            offer(slot, to: directionIndex(destination, .downlink))
        } else {
            receive(takePacket(slot))
        }
    }

    /// Drops every queued packet of a direction that just went down.
    func dropQueuedPackets(on direction: Int) {
        while let entry = directions[direction].popCoDel() {
            directions[direction].statistics.packetsDroppedWhileDown += 1
            trace.record(at: now, component: directions[direction].component, kind: "drop-down",
                         detail: packetSummary(entry.packet))
            releasePacket(entry.packet)
        }
        while let slot = directions[direction].dequeue(ipBytesOf: { self.ipBytes(ofPacket: $0) }) {
            directions[direction].statistics.packetsDroppedWhileDown += 1
            trace.record(at: now, component: directions[direction].component, kind: "drop-down",
                         detail: packetSummary(slot))
            releasePacket(slot)
        }
    }

    func packetSummary(_ slot: Int) -> String {
        let packet = packets[slot]!
        return "\(component(packet.segment.destination.peer)) \(packet.segment.summary)"
    }

    // MARK: - Outages and delay spikes that come with a profile

    /// Starts the profile's outage and delay-spike chains afresh (on creation and on every profile change).
    func startProfileChains(_ direction: Int) {
        directions[direction].profileGeneration += 1
        directions[direction].isInProfileOutage = false
        directions[direction].profileDelaySpikeExtra = .zero
        let generation = directions[direction].profileGeneration
        switch directions[direction].profile.outages {
        case .none:
            break
        case .scheduled(let windows):
            for window in windows {
                loop.schedule(.profileOutage(direction: direction, generation: generation, isStart: true),
                              at: now + window.start)
                loop.schedule(.profileOutage(direction: direction, generation: generation, isStart: false),
                              at: now + window.start + window.length)
            }
        case .random(let meanInterval, _):
            let gap = drawExponential(mean: meanInterval, direction: direction)
            loop.schedule(.profileOutage(direction: direction, generation: generation, isStart: true), after: gap)
        }
        if let spikes = directions[direction].profile.delaySpikes {
            let gap = drawExponential(mean: spikes.meanInterval, direction: direction)
            loop.schedule(.profileDelaySpike(direction: direction, generation: generation, isStart: true), after: gap)
        }
    }

    func profileOutageEvent(_ direction: Int, generation: Int, isStart: Bool) {
        guard generation == directions[direction].profileGeneration else { return }
        directions[direction].isInProfileOutage = isStart
        trace.record(at: now, component: directions[direction].component,
                     kind: isStart ? "outage-start" : "outage-end")
        if isStart { dropQueuedPackets(on: direction) }
        guard case .random(let meanInterval, let meanLength) = directions[direction].profile.outages else { return }
        let gap = drawExponential(mean: isStart ? meanLength : meanInterval, direction: direction)
        loop.schedule(.profileOutage(direction: direction, generation: generation, isStart: !isStart), after: gap)
    }

    func profileDelaySpikeEvent(_ direction: Int, generation: Int, isStart: Bool) {
        guard generation == directions[direction].profileGeneration,
              let spikes = directions[direction].profile.delaySpikes else { return }
        directions[direction].profileDelaySpikeExtra = isStart ? spikes.extraDelay : .zero
        trace.record(at: now, component: directions[direction].component,
                     kind: isStart ? "spike-start" : "spike-end", detail: isStart ? "extra=\(spikes.extraDelay)" : "")
        let gap = drawExponential(mean: isStart ? spikes.meanLength : spikes.meanInterval, direction: direction)
        loop.schedule(.profileDelaySpike(direction: direction, generation: generation, isStart: !isStart), after: gap)
    }

    private func drawExponential(mean: SimDuration, direction: Int) -> SimDuration {
        let draw = directions[direction].outageGenerator.nextExponential(mean: Double(mean.nanoseconds))
        return .nanoseconds(max(1, Int64(draw)))
    }
}
