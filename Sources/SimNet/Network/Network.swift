import SimCore

/// The simulated network: hosts with access links, TCP-like connections between them, faults, and the kernel
/// that runs it all in virtual time.
///
/// A packet from host A to host B crosses A's uplink, then B's downlink (the core in between adds nothing; give
/// the delay to the links). Every client host has its own access link shared by all its connections; a server
/// is a host with a fast link (`LinkProfile.datacenter`); a CDN is another such host, reached over the client's
/// same access link.
///
/// The application drives sockets with `connect`, `send`, `close`, `reset` and `abandon`, and learns what
/// happened from `SocketEvent`s: passed to `eventHandler` after each kernel step, or kept for `takeEvents()`
/// when no handler is set. The world schedules its own work with `schedule(after:_:)`, and runs time with
/// `run(until:)`. Randomness comes only from streams derived from the seed and the component's name, so one
/// seed and one scenario give one trace, and the trace digest is the same in every process.
public final class Network {
    /// The connection model's knobs, shared by every connection.
    public var tcpConfiguration: TCPConfiguration { sharedTCPConfiguration.value }
    /// `tcpConfiguration` in the one object every endpoint of this network holds.
    let sharedTCPConfiguration: SharedTCPConfiguration
    /// Every observable step: segments sent, losses and drops, socket events, faults.
    @exclusivity(unchecked) public var trace: TraceLog
    /// Receives socket events after each kernel step; while nil, events wait for `takeEvents()`.
    @exclusivity(unchecked) public var eventHandler: ((SocketEvent) -> Void)?
    /// Sees every segment leaving a host onto its uplink and every segment a host's downlink delivers (a packet
    /// capture on each host); nil by default. Observation only: it never changes what the network does.
    @exclusivity(unchecked) public var linkTap: ((LinkTapRecord) -> Void)?

    let loop: SimulationLoop<NetworkEvent>
    /// `loop.checksInvariantsAfterEveryStep`, fixed at creation: reading the loop's public property from this module
    /// made a dynamic exclusivity check (`swift_beginAccess`) on every event, more than a re-arming timer event's
    /// own work.
    let checksInvariants: Bool
    let streams: RandomStreams
    // The network is single-threaded, and no access to these outlives the statement that makes it except the
    // endpoint in `withEndpoint` (whose body touches only that endpoint): the dynamic exclusivity checks on every
    // access (about 2% of a world's processor time, most of it on the per-segment path) guard nothing here.
    @exclusivity(unchecked) var hostNames: [String] = []
    @exclusivity(unchecked) var hostAccepts: [Bool] = []
    /// Two per host: index `host * 2 + LinkDirection.rawValue`.
    @exclusivity(unchecked) var directions: [LinkDirectionState] = []
    /// Two per connection, indexed by `SocketID.rawValue`; nil before the acceptor exists or after `abandon`.
    @exclusivity(unchecked) var endpoints: [TCPEndpoint?] = []
    @exclusivity(unchecked) var endpointHosts: [HostID] = []
    /// Each endpoint's deadlines and armed timer events, beside `endpoints` (same index), 32 bytes each: a timer event
    /// that only re-arms (most of them) or is stale reads and writes these and never touches the large endpoint,
    /// whose first touch at 10,000 clients is a cache miss. See `EndpointTimers`.
    @exclusivity(unchecked) var endpointTimers: [EndpointTimers] = []
    /// Whether the endpoint was ever created (an acceptor is created by the first SYN, once).
    @exclusivity(unchecked) var endpointExisted: [Bool] = []
    @exclusivity(unchecked) var packets: [Packet?] = []
    @exclusivity(unchecked) var freePacketSlots: [Int] = []
    @exclusivity(unchecked) var pendingEvents: [SocketEvent] = []
    /// An empty batch with capacity, traded with `pendingEvents` by `deliverEvents` so that neither is grown afresh.
    @exclusivity(unchecked) var spareEventBatch: [SocketEvent] = []
    @exclusivity(unchecked) var undeliveredEvents: [SocketEvent] = []
    @exclusivity(unchecked) var isDeliveringEvents = false
    /// Empty output buffers with capacity, lent to an endpoint for one input (`lendBuffers`) and taken back by `flush`.
    @exclusivity(unchecked) var spareOutbox: [Segment] = []
    @exclusivity(unchecked) var spareEvents: [SocketEvent.Kind] = []
    /// The world's scheduled closures, indexed by the slot their `.action` event carries (nil once run or freed), kept
    /// out of the event heap so that its entries are plain values; `actionHandles` holds the handle of each.
    @exclusivity(unchecked) var actions: [ScheduledAction?] = []
    @exclusivity(unchecked) var actionHandles: [TimerHandle?] = []
    @exclusivity(unchecked) var freeActionSlots: [Int] = []
    /// Actions cancelled since the slab was last swept (their closures stay in it until a sweep frees them).
    @exclusivity(unchecked) var cancelledActionCount = 0

    /// A network with no hosts at time zero.
    /// - Parameters:
    ///   - seed: the run seed; every random stream derives from it and a component name.
    ///   - tcp: the connection model's knobs (default Linux-like, see `TCPConfiguration`).
    ///   - trace: the trace log to append to (disable it for benchmarks).
    ///   - checksInvariants: debug mode: check the event heap after every step.
    public init(seed: UInt64, tcp: TCPConfiguration = .linux, trace: TraceLog = TraceLog(),
                checksInvariants: Bool = false) {
        sharedTCPConfiguration = SharedTCPConfiguration(tcp)
        self.trace = trace
        self.streams = RandomStreams(runSeed: seed)
        self.loop = SimulationLoop(checksInvariantsAfterEveryStep: checksInvariants, minimumCapacity: 1_024)
        self.checksInvariants = checksInvariants
    }

    /// The current virtual time.
    public var now: SimInstant { loop.now }

    /// Kernel events run so far.
    public var eventsRun: Int { loop.eventsRun }

    // MARK: - Hosts

    /// Adds a host with its own access link.
    /// - Parameters:
    ///   - name: a unique name, used in trace components (`link.<name>.up`) and random stream names.
    ///   - link: the access link's profile (e.g. `.edge` for a phone, `.datacenter` for a server).
    ///   - acceptsConnections: whether SYNs to this host are answered (otherwise with RST).
    /// - Returns: the new host.
    @discardableResult
    public func addHost(named name: String, link: LinkProfile, acceptsConnections: Bool = true) -> HostID {
        let host = HostID(rawValue: hostNames.count)
        hostNames.append(name)
        hostAccepts.append(acceptsConnections)
        for direction in LinkDirection.allCases {
            directions.append(LinkDirectionState(
                component: "link.\(name).\(direction)", profile: link[direction], streams: streams))
            startProfileChains(directionIndex(host, direction))
        }
        trace.record(at: now, component: "net", kind: "host", detail: "\(name) link=\(link.name)")
        return host
    }

    /// The name a host was added with.
    public func name(of host: HostID) -> String { hostNames[host.rawValue] }

    /// The current profile of a host's link.
    public func linkProfile(of host: HostID) -> LinkProfile {
        LinkProfile(name: hostNames[host.rawValue], source: "current",
                    uplink: directions[directionIndex(host, .uplink)].profile,
                    downlink: directions[directionIndex(host, .downlink)].profile)
    }

    /// Counters of one direction of a host's link.
    public func linkStatistics(of host: HostID, _ direction: LinkDirection) -> LinkStatistics {
        directions[directionIndex(host, direction)].statistics
    }

    /// Whether SYNs to `host` are answered.
    public func setAcceptsConnections(_ accepts: Bool, on host: HostID) { hostAccepts[host.rawValue] = accepts }

    func directionIndex(_ host: HostID, _ direction: LinkDirection) -> Int { host.rawValue * 2 + direction.rawValue }

    // MARK: - Sockets

    /// Opens a connection from `source` to `destination`: the SYN leaves at once.
    /// - Returns: the initiator's socket; the acceptor's socket is `socket.peer`, announced by `.accepted`.
    @discardableResult
    public func connect(from source: HostID, to destination: HostID) -> SocketID {
        precondition(source != destination, "a host cannot connect to itself")
        let socket = SocketID(rawValue: endpoints.count)
        endpoints.append(TCPEndpoint(initiator: socket, host: source, peerHost: destination,
                                     configuration: sharedTCPConfiguration, now: now))
        endpoints.append(nil)
        endpointHosts.append(source)
        endpointHosts.append(destination)
        endpointTimers.append(EndpointTimers())
        endpointTimers.append(EndpointTimers())
        endpointExisted.append(true)
        endpointExisted.append(false)
        trace.record(at: now, component: component(socket), kind: "connect", detail: "to=\(name(of: destination))")
        flush(socket)
        deliverEvents()
        return socket
    }

    /// Queues bytes on a socket (before the handshake completes too).
    /// - Returns: false when the socket is closing, closed or unknown (nothing is queued).
    @discardableResult
    public func send(_ bytes: [UInt8], on socket: SocketID) -> Bool {
        guard isKnown(socket), let accepted = withEndpoint(socket.rawValue, { endpoint -> Bool in
            lendBuffers(to: &endpoint)
            return endpoint.send(bytes, now: now)
        }) else {
            return false
        }
        flush(socket)
        deliverEvents()
        return accepted
    }

    /// Closes a socket gracefully: FIN after the queued bytes. The peer sees `.closed`.
    public func close(_ socket: SocketID) {
        end(socket, kind: "close") { endpoint, now in endpoint.close(now: now) }
    }

    /// Resets a socket: sends RST and forgets it. The peer sees `.reset` if the RST gets through.
    public func reset(_ socket: SocketID) {
        end(socket, kind: "reset") { endpoint, now in endpoint.reset(now: now) }
    }

    /// Closes or resets an open socket: traces `kind`, applies `ending` to its endpoint, sends what it queued.
    private func end(_ socket: SocketID, kind: String, _ ending: (inout TCPEndpoint, SimInstant) -> Void) {
        guard isKnown(socket), endpoints[socket.rawValue] != nil else { return }
        trace.record(at: now, component: component(socket), kind: kind)
        ending(&endpoints[socket.rawValue]!, now)
        flush(socket)
        deliverEvents()
    }

    /// Forgets a socket without sending anything (the app was killed, the NAT mapping is gone). The peer keeps
    /// its socket (half-open) until its own traffic times out, or gets an RST if its segments reach this host.
    public func abandon(_ socket: SocketID) {
        guard isKnown(socket), endpoints[socket.rawValue] != nil else { return }
        trace.record(at: now, component: component(socket), kind: "abandon")
        endpoints[socket.rawValue] = nil
        endpointTimers[socket.rawValue] = EndpointTimers()
    }

    /// A socket's state as its application sees it (`.closed` for an unknown or abandoned socket).
    public func state(of socket: SocketID) -> SocketState {
        guard isKnown(socket) else { return .closed }
        guard let endpoint = endpoints[socket.rawValue] else {
            return endpointExisted[socket.rawValue] ? .closed : .connecting
        }
        return endpoint.publicState
    }

    /// Counters and congestion state of a socket, or nil when it does not exist (yet, or any more).
    public func statistics(of socket: SocketID) -> ConnectionStatistics? {
        guard isKnown(socket) else { return nil }
        return endpoints[socket.rawValue]?.statistics
    }

    /// The host a socket lives on.
    public func host(of socket: SocketID) -> HostID { endpointHosts[socket.rawValue] }

    /// Socket events not yet taken (only collected while `eventHandler` is nil), oldest first; clears them.
    public func takeEvents() -> [SocketEvent] {
        defer { undeliveredEvents.removeAll() }
        return undeliveredEvents
    }

    private func isKnown(_ socket: SocketID) -> Bool { socket.rawValue >= 0 && socket.rawValue < endpoints.count }

    func component(_ socket: SocketID) -> String {
        var text = TraceText()
        Self.writeComponent(of: socket, to: &text)
        return text.string
    }

    /// Writes a socket's trace component, `tcp.3.i` (initiator) or `tcp.3.a` (acceptor), piece by piece.
    static func writeComponent(of socket: SocketID, to text: inout TraceText) {
        text.write(literal: "tcp.")
        text.write(socket.connection)
        text.write(literal: socket.isInitiator ? ".i" : ".a")
    }

    // MARK: - Time

    /// Schedules the world's own work at `time` (not before `now`).
    /// - Returns: a handle for `cancel(_:)`.
    @discardableResult
    public func schedule(at time: SimInstant, _ action: @escaping () -> Void) -> TimerHandle {
        storeAction(action) { loop.schedule($0, at: time) }
    }

    /// Schedules the world's own work `delay` from now.
    /// - Returns: a handle for `cancel(_:)`.
    @discardableResult
    public func schedule(after delay: SimDuration, _ action: @escaping () -> Void) -> TimerHandle {
        storeAction(action) { loop.schedule($0, after: delay) }
    }

    /// Cancels work scheduled with `schedule`. - Returns: whether it was still pending.
    @discardableResult
    public func cancel(_ handle: TimerHandle) -> Bool {
        guard loop.cancel(handle) else { return false }
        cancelledActionCount += 1
        if cancelledActionCount >= max(1_024, actions.count - freeActionSlots.count - cancelledActionCount) {
            sweepCancelledActions()
        }
        return true
    }

    /// A closure of the world's in the slab. Wrapped in a struct so that it is stored as the closure it is: an
    /// optional of a bare function type holds it in the generic form, behind a reabstraction thunk that was an
    /// allocation of its own on every `schedule` (a client's request timer, a server connection's idle check) and a
    /// second indirect call when it ran.
    struct ScheduledAction {
        let run: () -> Void
    }

    /// Puts `action` in a free slot of the slab and schedules its event with `schedule`.
    private func storeAction(_ action: @escaping () -> Void,
                             _ schedule: (NetworkEvent) -> TimerHandle) -> TimerHandle {
        let slot: Int
        if let free = freeActionSlots.popLast() {
            slot = free
        } else {
            slot = actions.count
            actions.append(nil)
            actionHandles.append(nil)
        }
        let handle = schedule(.action(slot: slot))
        actions[slot] = ScheduledAction(run: action)
        actionHandles[slot] = handle
        return handle
    }

    /// Frees the slots of cancelled actions (their events never reach `handle`, so the slab would keep them). Runs
    /// when the cancelled ones are at least as many as the live ones: O(slots), amortized O(1) per cancel.
    private func sweepCancelledActions() {
        for slot in actionHandles.indices {
            guard let handle = actionHandles[slot], !loop.isScheduled(handle) else { continue }
            actions[slot] = nil
            actionHandles[slot] = nil
            freeActionSlots.append(slot)
        }
        cancelledActionCount = 0
    }

    /// Runs every event due at or before `deadline`, then sets the clock to `deadline`.
    public func run(until deadline: SimInstant) {
        deliverEvents()
        loop.run(until: deadline) { handle($0) }
    }

    /// Runs for `duration` of virtual time.
    public func run(for duration: SimDuration) { run(until: now + duration) }

    /// Runs until nothing is pending or `maximumEvents` have run. Random outages or spikes keep a network busy
    /// forever; use `run(until:)` then.
    /// - Returns: the number of events run.
    @discardableResult
    public func runUntilIdle(maximumEvents: Int = 100_000_000) -> Int {
        deliverEvents()
        return loop.runUntilIdle(maximumEvents: maximumEvents) { handle($0) }
    }

    /// Checks the kernel's invariants (the event heap) and each link direction's queue bookkeeping (queued bytes
    /// add up, queued packets exist, in the CoDel stage too); traps when one fails. Debug mode calls it after every
    /// step.
    public func checkInvariants() {
        loop.checkInvariants()
        for state in directions {
            let queued = state.queue.elements
            precondition(queued.allSatisfy { packets[$0] != nil }, "\(state.component): a queued packet is gone")
            let bytes = queued.reduce(0) { $0 + packets[$1]!.ipBytes }
            precondition(bytes == state.queuedBytes, "\(state.component): queued bytes do not add up")
            precondition(state.packetInService.map { packets[$0] != nil } ?? true, "\(state.component): lost packet")
            let held = state.codelQueue.elements
            precondition(held.allSatisfy { packets[$0.packet] != nil }, "\(state.component): a CoDel packet is gone")
            precondition(held.reduce(0) { $0 + $1.ipBytes } == state.codelQueuedBytes,
                         "\(state.component): CoDel bytes do not add up")
        }
        for (raw, endpoint) in endpoints.enumerated() {
            guard let endpoint else {
                precondition(endpointTimers[raw].retransmissionArmedAt == EndpointTimers.none
                             && endpointTimers[raw].delayedAckArmedAt == EndpointTimers.none,
                             "\(component(SocketID(rawValue: raw))): timers armed without an endpoint")
                continue
            }
            precondition(!endpoint.hasOutputs, "\(component(SocketID(rawValue: raw))): output left unflushed")
            precondition(endpointTimers[raw].retransmissionDeadline
                         == EndpointTimers.nanoseconds(endpoint.retransmissionDeadline)
                         && endpointTimers[raw].delayedAckDeadline
                         == EndpointTimers.nanoseconds(endpoint.delayedAckDeadline),
                         "\(component(SocketID(rawValue: raw))): the network's copy of the deadlines is stale")
        }
    }

    /// A retransmission or delayed-ACK timer event of socket `raw`: ignored unless it is the armed one; a deadline
    /// that moved later re-arms from the compact entry alone; an expired one reaches the endpoint, then a flush.
    private func timerEvent(_ raw: Int, isRetransmission: Bool) {
        let nanoseconds = now.nanosecondsSinceStart
        let deadline: Int64
        if isRetransmission {
            guard endpointTimers[raw].retransmissionArmedAt == nanoseconds else { return }
            endpointTimers[raw].retransmissionArmedAt = EndpointTimers.none
            deadline = endpointTimers[raw].retransmissionDeadline
        } else {
            guard endpointTimers[raw].delayedAckArmedAt == nanoseconds else { return }
            endpointTimers[raw].delayedAckArmedAt = EndpointTimers.none
            deadline = endpointTimers[raw].delayedAckDeadline
        }
        guard deadline <= nanoseconds else {
            scheduleTimers(raw, Self.markTimersArmed(&endpointTimers[raw]))
            return
        }
        let fired = withEndpoint(raw) { endpoint -> Bool in
            lendBuffers(to: &endpoint)
            if isRetransmission {
                endpoint.retransmissionTimerExpired(now: now)
            } else {
                endpoint.delayedAckTimerExpired(now: now)
            }
            return true
        }
        if fired == true { flush(SocketID(rawValue: raw)) }
    }

    private func handle(_ event: NetworkEvent) {
        switch event {
        case .transmissionComplete(let direction):
            completeTransmission(direction)
        case .arrival(let packet):
            arrive(packet)
        case .retransmissionTimer(let raw):
            timerEvent(raw, isRetransmission: true)
        case .delayedAckTimer(let raw):
            timerEvent(raw, isRetransmission: false)
        case .profileOutageStep(let step):
            profileOutageEvent(step.direction, generation: step.generation, isStart: step.isStart)
        case .profileDelaySpikeStep(let step):
            profileDelaySpikeEvent(step.direction, generation: step.generation, isStart: step.isStart)
        case .action(let slot):
            // Taken out before it runs: the slot is free for what the action schedules.
            guard let action = actions[slot].take() else { preconditionFailure("action slot \(slot) is empty") }
            actionHandles[slot] = nil
            freeActionSlots.append(slot)
            action.run()
        }
        deliverEvents()
        if checksInvariants { checkInvariants() }
    }

    // MARK: - Endpoint plumbing

    /// Sends what the endpoint put in its outbox, queues its events and notes, and arms its timers.
    ///
    /// The endpoint is emptied and its timers marked armed in one in-place access (`withEndpoint`; nothing below reads
    /// the endpoint again), then the outputs go out in the same order as before: notes, then the outbox, then the
    /// events (after the transmissions' trace records), then the timer events.
    func flush(_ socket: SocketID) {
        let raw = socket.rawValue
        var notes: [(kind: String, detail: String)] = []
        var outbox: [Segment] = []
        var events: [SocketEvent.Kind] = []
        let deadlines = withEndpoint(raw) { endpoint -> (retransmission: Int64, delayedAck: Int64) in
            if !endpoint.notes.isEmpty { swap(&notes, &endpoint.notes) }
            if endpoint.outbox.capacity > 0 { swap(&outbox, &endpoint.outbox) }
            if endpoint.events.capacity > 0 { swap(&events, &endpoint.events) }
            return (EndpointTimers.nanoseconds(endpoint.retransmissionDeadline),
                    EndpointTimers.nanoseconds(endpoint.delayedAckDeadline))
        }
        guard let deadlines else { return }
        endpointTimers[raw].retransmissionDeadline = deadlines.retransmission
        endpointTimers[raw].delayedAckDeadline = deadlines.delayedAck
        let arms = Self.markTimersArmed(&endpointTimers[raw])
        let host = endpointHosts[raw]
        let peerHost = endpointHosts[raw ^ 1]
        for note in notes {
            trace.record(at: now, kind: note.kind, component: { Self.writeComponent(of: socket, to: &$0) },
                         detail: { $0.write(note.detail) })
        }
        // Each segment moved out in order (a reversed array popped from its end): iterating copied every segment,
        // its payload and SACK blocks retained and released, on its way into the packet slab.
        if outbox.count > 1 { outbox.reverse() }
        while let segment = outbox.popLast() { transmit(segment, from: host, to: peerHost, socket: socket) }
        // Moved out in order, as the segments are (iterating copied each event's bytes twice).
        if events.count > 1 { events.reverse() }
        while let kind = events.popLast() {
            trace.record(at: now, kind: Self.traceKind(kind), component: { Self.writeComponent(of: socket, to: &$0) },
                         detail: { Self.writeTraceDetail(kind, to: &$0) })
            pendingEvents.append(SocketEvent(time: now, host: host, socket: socket, kind: kind))
        }
        scheduleTimers(raw, arms)
        // Keep the emptied buffers to lend to the next endpoint that gets an input (`lendBuffers`).
        if outbox.capacity > spareOutbox.capacity {
            outbox.removeAllKeepingCapacity()
            swap(&outbox, &spareOutbox)
        }
        if events.capacity > spareEvents.capacity {
            events.removeAllKeepingCapacity()
            swap(&events, &spareEvents)
        }
    }

    /// Gives an endpoint about to take an input the network's spare output buffers (empty, with capacity), so that
    /// the segments and events it produces need no allocation; the `flush` after the input takes them back. An
    /// endpoint's outputs are always empty between inputs, so all it keeps between flushes is an empty buffer.
    func lendBuffers(to endpoint: inout TCPEndpoint) {
        if endpoint.outbox.capacity == 0 && spareOutbox.capacity > 0 { swap(&endpoint.outbox, &spareOutbox) }
        if endpoint.events.capacity == 0 && spareEvents.capacity > 0 { swap(&endpoint.events, &spareEvents) }
    }

    /// The timer events to schedule for an endpoint (see `markTimersArmed`).
    struct TimerArms {
        var retransmission: SimInstant?
        var delayedAck: SimInstant?
    }

    /// An endpoint's two deadlines as of its last flush and the times its armed timer events fire, in nanoseconds
    /// since the start, `none` for none. Every input to an endpoint (send, close, reset, segment, timer expiry,
    /// network reset) is followed by a `flush`, which copies the deadlines here and empties the endpoint's outputs,
    /// so between inputs these are the endpoint's deadlines and it has no output: a timer event whose deadline
    /// moved or went away only needs its timers armed, decided from here alone (`checkInvariants` checks both).
    struct EndpointTimers {
        static let none = Int64.max
        var retransmissionDeadline = none
        var delayedAckDeadline = none
        /// When the armed timer events fire (the events may be later than a deadline that moved; the network
        /// re-arms then).
        var retransmissionArmedAt = none
        var delayedAckArmedAt = none

        static func nanoseconds(_ instant: SimInstant?) -> Int64 { instant?.nanosecondsSinceStart ?? none }
    }

    /// Marks as armed each deadline of the endpoint that no armed event covers; returns those deadlines, for which
    /// `scheduleTimers` schedules the events. The armed event comes first when it is due no later; it re-arms for the
    /// later deadline when it fires.
    static func markTimersArmed(_ timers: inout EndpointTimers) -> TimerArms {
        var arms = TimerArms()
        let retransmission = timers.retransmissionDeadline
        if retransmission != EndpointTimers.none && timers.retransmissionArmedAt > retransmission {
            timers.retransmissionArmedAt = retransmission
            arms.retransmission = SimInstant(nanosecondsSinceStart: retransmission)
        }
        let delayedAck = timers.delayedAckDeadline
        if delayedAck != EndpointTimers.none && timers.delayedAckArmedAt > delayedAck {
            timers.delayedAckArmedAt = delayedAck
            arms.delayedAck = SimInstant(nanosecondsSinceStart: delayedAck)
        }
        return arms
    }

    func scheduleTimers(_ raw: Int, _ arms: TimerArms) {
        if let deadline = arms.retransmission { loop.schedule(.retransmissionTimer(socket: raw), at: deadline) }
        if let deadline = arms.delayedAck { loop.schedule(.delayedAckTimer(socket: raw), at: deadline) }
    }

    /// Runs `body` on endpoint `raw` in place; nil when the socket has no endpoint. Reading
    /// `endpoints[raw]!.field` or comparing `endpoints[raw]` with nil went through the array's getter, which copied
    /// the whole endpoint (a retain and a release per buffer in it) several times per segment. `body` must not
    /// touch `endpoints`.
    func withEndpoint<Result>(_ raw: Int, _ body: (inout TCPEndpoint) -> Result) -> Result? {
        Self.inPlace(&endpoints[raw], body)
    }

    private static func inPlace<Result>(
        _ endpoint: inout TCPEndpoint?, _ body: (inout TCPEndpoint) -> Result
    ) -> Result? {
        guard endpoint != nil else { return nil }
        return body(&endpoint!)
    }

    /// Puts a segment on its source's uplink as a packet. The segment is taken, not copied, into the packet slab.
    func transmit(_ segment: consuming Segment, from source: HostID, to destination: HostID, socket: SocketID?) {
        if let socket {
            trace.record(at: now, kind: "tx", component: { Self.writeComponent(of: socket, to: &$0) },
                         detail: { segment.writeSummary(to: &$0) })
        }
        let ipBytes = tcpConfiguration.headerBytes + segment.sackOptionBytes + segment.payload.count
        let packet = Packet(segment: segment, source: source, destination: destination, hop: 0, ipBytes: ipBytes)
        if let linkTap { linkTap(LinkTapRecord(time: now, host: source, direction: .uplink, packet: packet)) }
        offer(storePacket(packet), to: directionIndex(source, .uplink))
    }

    /// A segment reached its destination host.
    func receive(_ packet: Packet) {
        if let linkTap {
            linkTap(LinkTapRecord(time: now, host: packet.destination, direction: .downlink, packet: packet))
        }
        let segment = packet.segment
        let raw = segment.destination.rawValue
        let isHandled = withEndpoint(raw) { endpoint -> Bool in
            guard endpoint.state != .closedAbruptly else { return false }
            lendBuffers(to: &endpoint)
            endpoint.handle(segment, now: now)
            return true
        }
        if isHandled == true {
            flush(segment.destination)
            return
        }
        let isFreshSyn = segment.flags == .syn && !segment.destination.isInitiator
        if isFreshSyn, !endpointExisted[raw], hostAccepts[packet.destination.rawValue] {
            endpointExisted[raw] = true
            endpoints[raw] = TCPEndpoint(acceptor: segment.destination, host: packet.destination,
                                         peerHost: packet.source, configuration: sharedTCPConfiguration,
                                         syn: segment, now: now)
            flush(segment.destination)
            return
        }
        guard !segment.flags.contains(.rst) else { return }
        // No socket here (never was, abandoned, reset or timed out): answer RST, as a real stack does.
        let reply = Segment(destination: segment.destination.peer, flags: [.rst, .ack],
                            sequence: segment.acknowledgment,
                            acknowledgment: segment.sequence + segment.sequenceLength, payload: [])
        trace.record(at: now, component: "host.\(name(of: packet.destination))", kind: "rst-reply",
                     detail: "to=\(segment.destination.peer)")
        transmit(reply, from: packet.destination, to: packet.source, socket: nil)
    }

    func deliverEvents() {
        guard !isDeliveringEvents else { return }
        isDeliveringEvents = true
        defer { isDeliveringEvents = false }
        while !pendingEvents.isEmpty {
            // The batch is traded for the empty spare: events the handler queues go into a buffer with capacity, and
            // the batch, emptied, is the next spare. Copying the array out and calling `removeAll()` left both
            // without one, so every delivery allocated and grew a new array.
            var batch = spareEventBatch
            spareEventBatch = []
            swap(&batch, &pendingEvents)
            // Each event moved out in order (the batch reversed, then popped): iterating copied every event.
            if batch.count > 1 { batch.reverse() }
            while let event = batch.popLast() {
                if let eventHandler { eventHandler(event) } else { undeliveredEvents.append(event) }
            }
            spareEventBatch = batch
        }
    }

    static func traceKind(_ kind: SocketEvent.Kind) -> String {
        switch kind {
        case .accepted: return "accepted"
        case .connected: return "connected"
        case .received: return "received"
        case .closed: return "closed"
        case .reset: return "reset"
        case .timedOut: return "timed-out"
        }
    }

    /// A socket event's trace detail: `peer=host3`, `bytes=120` or nothing.
    static func writeTraceDetail(_ kind: SocketEvent.Kind, to text: inout TraceText) {
        switch kind {
        case .accepted(let peer):
            text.write("peer=")
            text.write(peer.description)
        case .received(let bytes):
            text.write("bytes=")
            text.write(bytes.count)
        default:
            break
        }
    }
}
