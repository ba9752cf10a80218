import SyncSim
import SyncTrace

/// Turns a capture into a DSL scenario that replays its timeline: one client per captured client address (named
/// after the user it logged in as), a server holding the chats' earlier messages, and the user actions the
/// requests show, each `After` the step before by the capture's gap.
///
/// The mapping: a MSG_SEND becomes `Send` (a re-sent cid only once), a chat's first CHAT_HISTORY `OpenChat` and
/// later ones `ScrollUp` by the page asked for; a connection that closes while the capture goes on becomes
/// `LinkDown(for:)` lasting until the client's next connection opens. The link profile is the catalog profile whose
/// round trip is nearest the smallest request→response time seen; the server's `processingDelay` is the median of
/// each response time less that smallest one (the server's share of a response time).
struct ReplayScenarioEmitter {
    let timeline: ReplayTimeline
    let model: ReplayWorldModel

    func scenario(named name: String) -> Scenario {
        var scenario = Scenario(name, summary: "replays a captured timeline (syncsim replay --emit-scenario)",
                                seeds: [1]) {}
        let clientNames = clientNamesByAddress()
        let chatNames = chatNamesById(clientNames: clientNames)
        let latencies = responseTimes()
        let smallest = latencies.min() ?? .zero
        var serverParameters: ParameterSet = [:]
        let shares = latencies.map { $0 - smallest }.sorted()
        if let median = shares.isEmpty ? nil : shares[shares.count / 2], median >= .milliseconds(1) {
            serverParameters["processingDelay"] = .duration(.milliseconds(median.nanoseconds / 1_000_000))
        }
        let history = model.history.compactMap { chat in
            chatNames[chat.chatId].map { ChatHistorySeed(chat: $0, messages: chat.messages.count) }
        }
        scenario.server = ServerSpec(parameters: serverParameters, history: history)
        scenario.clients = clientNames.map { ClientSpec(name: $0.name, profile: Self.profile(roundTrip: smallest)) }
        scenario.chats = chatNames.keys.sorted().compactMap { id in
            guard let chat = model.chats.first(where: { $0.id == id }), let name = chatNames[id],
                  name != chat.members.compactMap({ model.name(ofUser: $0) }).joined(separator: "+") else { return nil }
            return ChatSpec(name: name, members: chat.members.compactMap { memberId in
                clientNames.first { $0.userId == memberId }?.name
            })
        }
        var timed: [(time: SimInstant, action: Action)] = []
        var openedChats: Set<String> = []
        var sentCids: Set<Int64> = []
        for connection in timeline.connections {
            guard let client = clientNames.first(where: { connection.client.hasPrefix($0.address + ":") }) else {
                continue
            }
            for entry in connection.entries where entry.direction == .clientToServer {
                switch entry.packet.body {
                case .msgSend(let request):
                    guard sentCids.insert(request.message.cid).inserted, let chat = chatNames[request.chatId] else {
                        continue
                    }
                    timed.append((entry.time, .sendText(client: client.name, chat: chat, text: request.message.text)))
                case .chatHistory(let request):
                    guard let chat = chatNames[request.chatId] else { continue }
                    if openedChats.insert("\(client.name) \(chat)").inserted {
                        timed.append((entry.time, .openChat(client: client.name, chat: chat)))
                    } else {
                        timed.append((entry.time, .scroll(client: client.name, chat: chat, direction: .up,
                                                          messages: max(1, request.backward))))
                    }
                default:
                    break
                }
            }
            if let closesAt = connection.closesAt,
               let reconnect = timeline.connections.first(where: {
                   $0.client.hasPrefix(client.address + ":") && $0.opensAt > closesAt }) {
                let downtime = Self.rounded(reconnect.opensAt - closesAt)
                timed.append((closesAt, .outage(client: client.name, duration: downtime, mode: .silently)))
            }
        }
        timed.sort { $0.time < $1.time }
        var previous = SimInstant.start
        scenario.steps = timed.enumerated().map { index, item in
            let gap = Self.rounded(item.time - previous)
            previous = item.time
            return Step(timing: index == 0 ? .at(gap) : .afterPrevious(gap), action: item.action,
                        location: .generated)
        }
        scenario.expectations = Expectations(
            invariants: InvariantID.allCases,
            eventually: [Eventually(within: .minutes(3), .converged)])
        return scenario
    }

    /// Client addresses with the user name each logged in as (`client1`... when the capture has no LOGIN answer).
    private func clientNamesByAddress() -> [(address: String, name: String, userId: Int64?)] {
        timeline.clientAddresses.enumerated().map { index, address in
            let userId = model.userIdByClient.first { $0.client == address }?.userId
            let name = userId.flatMap(model.name(ofUser:)) ?? "client\(index + 1)"
            return (address, Self.identifier(name), userId)
        }
    }

    /// Chat names: members joined by `+` (`alice+bob`) when every member is a captured client, else `chat<id>`.
    private func chatNamesById(clientNames: [(address: String, name: String, userId: Int64?)]) -> [Int64: String] {
        var names: [Int64: String] = [:]
        for chat in model.chats {
            let members = chat.members.map { id in clientNames.first { $0.userId == id }?.name }
            if members.count >= 2, members.allSatisfy({ $0 != nil }) {
                names[chat.id] = members.compactMap { $0 }.joined(separator: "+")
            } else {
                names[chat.id] = "chat\(chat.id)"
            }
        }
        return names
    }

    /// Request→response times (capture time of the answer less that of the request), per answered request.
    private func responseTimes() -> [SimDuration] {
        var times: [SimDuration] = []
        for connection in timeline.connections {
            var sent: [UInt16: SimInstant] = [:]
            for entry in connection.entries {
                if entry.direction == .clientToServer, entry.packet.cmd == .request {
                    sent[entry.packet.seq] = entry.time
                } else if entry.direction == .serverToClient,
                          entry.packet.cmd == .response || entry.packet.cmd == .error,
                          let start = sent.removeValue(forKey: entry.packet.seq) {
                    times.append(entry.time - start)
                }
            }
        }
        return times
    }

    /// The catalog profile whose round trip (sum of both one-way delays) is nearest `roundTrip`.
    static func profile(roundTrip: SimDuration) -> ProfileName {
        let candidates: [(ProfileName, Int64)] = [
            (.twoGRural, 1_300), (.gprs, 1_000), (.edge, 840), (.threeG, 200), (.fourG, 150), (.wifi, 20),
        ]
        let milliseconds = roundTrip.nanoseconds / 1_000_000
        return candidates.min { abs($0.1 - milliseconds) < abs($1.1 - milliseconds) }!.0
    }

    /// A gap rounded to whole milliseconds (the DSL prints milliseconds at the finest).
    /// Capture times may be anything (a corrupt timestamp): no `+ 500_000` that overflows near Int64.max, and the
    /// result stays within what `SimDuration.milliseconds` can hold.
    static func rounded(_ duration: SimDuration) -> SimDuration {
        let (whole, rest) = duration.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000)
        return .milliseconds(min(max(0, whole + (rest >= 500_000 ? 1 : 0)), Int64.max / 1_000_000))
    }

    /// A client name the DSL and chat names accept: letters, digits, `-` and `_`.
    static func identifier(_ text: String) -> String {
        let kept = text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }
        return kept.isEmpty ? "client" : String(kept)
    }
}
