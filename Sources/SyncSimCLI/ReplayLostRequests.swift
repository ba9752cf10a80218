import SimCore
import SyncSim

/// Requests a capture lost: the bytes of a client-to-server stream no captured packet carried (a gap) held a request
/// whose answer the capture shows. Replayed without it, the rebuilt server never gets the request, so its answer is
/// missing and what the request changed is missing from every later answer (a lost MSG_SEND: the message absent from
/// every page after, its pushes missing), and the world model took the message it stored for one that existed
/// before the capture, so pages asked before the send held it.
///
/// A lost MSG_SEND of a plain message (text and formatting, no attachment or link), answered with a response, is
/// restored: a request is rebuilt from its captured answer (chat, text, `cid`, elements) and put into the timeline
/// where the server took it (`restoring`). Any other lost request is only named: its captured answer is no
/// difference of the server's, and what it changed may make later answers differ.
enum ReplayLostRequests {
    /// A request the capture lost, known by its captured answer.
    struct Lost {
        var connection: Int
        var seq: UInt16
        var opcode: Opcode
        /// When its answer was captured.
        var answeredAt: SimInstant
        /// The gap of the connection's client-to-server stream it was lost in.
        var gap: ReplayTimeline.LostBytes
        /// Whether a request rebuilt from the answer was put into the timeline in its place.
        var restored: Bool
    }

    /// `timeline` with every lost MSG_SEND that can be rebuilt from its answer put back, and every lost request
    /// whose answer the capture shows, in connection order, then answer order.
    static func restoring(_ timeline: ReplayTimeline) -> (timeline: ReplayTimeline, lost: [Lost]) {
        var result = timeline
        var lost: [Lost] = []
        for position in result.connections.indices {
            let connection = result.connections[position]
            guard !connection.tcp.clientGaps.isEmpty else { continue }
            var restoredEntries: [(before: Int, entry: ReplayTimeline.Entry)] = []
            // Requests seen and not answered yet, by seq and opcode.
            var pending: [RequestName: Int] = [:]
            for (index, entry) in connection.entries.enumerated() {
                let name = RequestName(seq: entry.packet.seq, opcode: entry.packet.opcode)
                if entry.direction == .clientToServer {
                    if entry.packet.cmd == .request { pending[name, default: 0] += 1 }
                    continue
                }
                guard entry.packet.cmd == .response || entry.packet.cmd == .error else { continue }
                if let count = pending[name], count > 0 {
                    pending[name] = count - 1
                    continue
                }
                // An answer to no captured request: lost in the last gap before the first request captured after
                // the answer.
                let later = connection.entries[(index + 1)...].first { $0.direction == .clientToServer }
                let bound = later?.bytes.lowerBound ?? .max
                guard let gap = connection.tcp.clientGaps.last(where: { $0.end <= bound })
                    ?? connection.tcp.clientGaps.first else { continue }
                let request = rebuiltRequest(answering: entry.packet)
                if let request {
                    // It reached the server after the connection's request captured before the gap, and by the
                    // time the server acknowledged the lost bytes or answered it, whichever the capture shows
                    // first. Where in between, the answers tell (`ReplayAgainstServer.feedTimes`).
                    let earliest = connection.entries[..<index].last {
                        $0.direction == .clientToServer && $0.bytes.upperBound <= gap.offset
                    }?.time ?? connection.opensAt
                    let acknowledged = connection.tcp.serverAcknowledged.first { $0.offset >= gap.end }?.time
                    let latest = max(earliest, min(acknowledged ?? entry.time, entry.time))
                    restoredEntries.append((index, ReplayTimeline.Entry(
                        time: earliest, connection: connection.number, direction: .clientToServer, packet: request,
                        bytes: gap.offset..<gap.end, reachedServerBy: latest)))
                }
                lost.append(Lost(connection: connection.number, seq: entry.packet.seq, opcode: entry.packet.opcode,
                                 answeredAt: entry.time, gap: gap, restored: request != nil))
            }
            // Each rebuilt request goes before its answer, after every entry captured before its time.
            for (before, entry) in restoredEntries.reversed() {
                var at = before
                while at > 0, result.connections[position].entries[at - 1].time > entry.time { at -= 1 }
                result.connections[position].entries.insert(entry, at: at)
            }
        }
        return (result, lost)
    }

    /// A request's seq and opcode, which its answer carries.
    private struct RequestName: Hashable {
        var seq: UInt16
        var opcode: Opcode
    }

    /// The MSG_SEND request a captured MSG_SEND response answered, when the answer tells all of it: a message with a
    /// `cid`, no attachment and no link (a reply or forward), sent to a chat the answer names. Nil otherwise.
    static func rebuiltRequest(answering answer: Packet) -> Packet? {
        guard answer.cmd == .response, case .msgSendResponse(let response) = answer.body else { return nil }
        let message = response.message
        guard let cid = message.cid, message.attaches?.isEmpty ?? true, message.link == nil,
              message.status == nil else { return nil }
        let request = MsgSendRequest(chatId: response.chatId, message: OutgoingMessage(
            text: message.text, cid: cid, elements: message.elements))
        return Packet(cmd: .request, seq: answer.seq, opcode: .msgSend, body: .msgSend(request))
    }
}
