import SimCore
@testable import SimNet

/// A small world for tests: one server host (data-centre link) and one client host, events collected per socket.
final class TestWorld {
    let network: Network
    let server: HostID
    let client: HostID
    private(set) var received: [SocketID: [UInt8]] = [:]
    private(set) var lastByteTime: [SocketID: SimInstant] = [:]
    private(set) var events: [SocketEvent] = []

    init(seed: UInt64, client profile: LinkProfile, tcp: TCPConfiguration = .linux, keepsRecords: Bool = true) {
        network = Network(seed: seed, tcp: tcp, trace: TraceLog(keepsRecords: keepsRecords), checksInvariants: false)
        server = network.addHost(named: "server", link: .datacenter)
        client = network.addHost(named: "phone", link: profile)
        network.eventHandler = { [unowned self] event in
            events.append(event)
            if case .received(let bytes) = event.kind {
                received[event.socket, default: []].append(contentsOf: bytes)
                lastByteTime[event.socket] = event.time
            }
        }
    }

    func events(of socket: SocketID) -> [SocketEvent.Kind] { events.filter { $0.socket == socket }.map(\.kind) }

    func bytes(at socket: SocketID) -> [UInt8] { received[socket] ?? [] }

    /// Bytes 0, 1, ..., 250, 0, 1, ... shifted by `salt`: any loss, duplicate or reordering changes them.
    static func pattern(count: Int, salt: Int = 0) -> [UInt8] { (0..<count).map { UInt8((($0 + salt) % 251)) } }

    /// Server connects to the client and sends `count` bytes at once (the ns-3 reference transfer); runs until
    /// the client has them all or `limit` passes. - Returns: the time from connect to the last byte, or nil.
    func transferFromServer(bytes count: Int, limit: SimDuration = .hours(1)) -> SimDuration? {
        let start = network.now
        let socket = network.connect(from: server, to: client)
        network.send(Self.pattern(count: count), on: socket)
        let deadline = start + limit
        while bytes(at: socket.peer).count < count && network.now < deadline {
            network.run(until: min(deadline, network.now + .milliseconds(1_000)))
        }
        guard bytes(at: socket.peer).count == count, let last = lastByteTime[socket.peer] else { return nil }
        return last - start
    }
}

/// Byte-for-byte equality, as a Bool so a failing expectation does not print megabytes.
func sameBytes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool { lhs == rhs }
