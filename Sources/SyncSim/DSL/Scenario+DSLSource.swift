extension Scenario {
    /// The scenario as Swift source in the DSL: a `Scenario(...) { ... }` expression that compiles in a file that
    /// imports SyncSim (for example after `static let reduced = `), and builds an equal scenario.
    ///
    /// Each step is printed as its own `At` or `After` group, so the timing reads exactly as it resolves.
    /// A custom eventually-condition cannot be printed: it comes out as a stub that names its label and source.
    /// Source locations are not printed (the new code has its own).
    /// - Parameter indent: spaces before every line, for pasting into a type body.
    public func dslSource(indent: Int = 0) -> String {
        var lines: [String] = []
        let head = "Scenario(\(DSLLiteral.string(name)), summary: \(DSLLiteral.string(summary)), seeds: "
            + "[\(seeds.map(DSLLiteral.integer).joined(separator: ", "))]"
            + (tags.isEmpty ? "" : ", tags: [\(tags.map { DSLLiteral.string($0.name) }.joined(separator: ", "))]")
            + (runLength == .minutes(10) ? "" : ", runLength: \(DSLLiteral.duration(runLength))")
            + ") {"
        lines.append(head)
        lines.append("    " + serverSource())
        for profile in linkProfiles { lines += DSLLiteral.linkProfile(profile).map { "    " + $0 } }
        for client in clients { lines.append("    " + clientSource(client)) }
        for chat in chats {
            let members = chat.members.map(DSLLiteral.string).joined(separator: ", ")
            lines.append("    Chat(\(DSLLiteral.string(chat.name)), members: [\(members)])")
        }
        if !steps.isEmpty {
            lines.append("    Timeline {")
            for step in steps { lines.append("        " + stepSource(step)) }
            lines.append("    }")
        }
        let expectationLines = expectationSources()
        if !expectationLines.isEmpty {
            lines.append("    Expect {")
            for line in expectationLines { lines.append("        " + line) }
            lines.append("    }")
        }
        lines.append("}")
        let pad = String(repeating: " ", count: indent)
        return lines.map { $0.isEmpty ? $0 : pad + $0 }.joined(separator: "\n")
    }

    private func serverSource() -> String {
        var arguments: [String] = []
        if !server.parameters.isEmpty { arguments.append("parameters: " + DSLLiteral.parameters(server.parameters)) }
        if !server.history.isEmpty {
            let pairs = server.history.map { "\(DSLLiteral.string($0.chat)): \(DSLLiteral.integer($0.messages))" }
            arguments.append("history: [\(pairs.joined(separator: ", "))]")
        }
        if server.clockOffset != .zero { arguments.append("clockOffset: " + DSLLiteral.duration(server.clockOffset)) }
        return "Server(\(arguments.joined(separator: ", ")))"
    }

    /// The scenario as a catalog entry that compiles as it stands in a file of the Scenarios folder:
    /// `extension Catalog { static let <property> = Scenario(...) }`, with a `///` line carrying the summary.
    public func catalogSource(property: String? = nil) -> String {
        let name = property ?? Self.propertyName(for: self.name)
        return "extension Catalog {\n    /// \(summary)\n    static let \(name) = "
            + dslSource(indent: 4).dropFirst(4) + "\n}\n"
    }

    /// A Swift identifier for a scenario name: `reconnect-during-send-shrunk` -> `reconnectDuringSendShrunk`.
    public static func propertyName(for name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard let first = words.first else { return "scenario" }
        let joined = first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return joined.first?.isNumber == true ? "scenario" + joined : joined
    }

    private func clientSource(_ client: ClientSpec) -> String {
        if let user = client.user {
            let device = String(client.name.dropFirst(user.count + 1))
            var arguments = [DSLLiteral.string(user), DSLLiteral.string(device)]
            if client.profile != .wifi { arguments.append("profile: " + DSLLiteral.profile(client.profile)) }
            if !client.parameters.isEmpty {
                arguments.append("parameters: " + DSLLiteral.parameters(client.parameters))
            }
            return "Device(\(arguments.joined(separator: ", ")))"
        }
        var arguments = [DSLLiteral.string(client.name), "profile: " + DSLLiteral.profile(client.profile)]
        if !client.parameters.isEmpty { arguments.append("parameters: " + DSLLiteral.parameters(client.parameters)) }
        if let mutant = client.mutant { arguments.append("mutant: " + DSLLiteral.string(mutant)) }
        return "Client(\(arguments.joined(separator: ", ")))"
    }

    private func stepSource(_ step: Step) -> String {
        let group = switch step.timing {
        case .at(let offset): "At(\(DSLLiteral.duration(offset)))"
        case .afterPrevious(let delay): "After(\(DSLLiteral.duration(delay)))"
        case .after(let delay, let label): "After(\(DSLLiteral.duration(delay)), step: \(DSLLiteral.string(label)))"
        case .when(let event): "When(\(Self.eventSource(event)))"
        }
        var action = Self.actionSource(step.action)
        if let label = step.label { action += ".named(\(DSLLiteral.string(label)))" }
        return "\(group) { \(action) }"
    }

    /// The DSL call that makes `action` (`Send(from: "alice", text: "hi", in: "alice+bob")`).
    public static func actionSource(_ action: Action) -> String {
        typealias L = DSLLiteral
        switch action {
        case .openChat(let client, let chat):
            return "OpenChat(\(L.string(client)), \(L.string(chat)))"
        case .editMessage(let client, let chat, let text):
            return "EditMessage(from: \(L.string(client)), in: \(L.string(chat)), text: \(L.string(text)))"
        case .deleteMessage(let client, let chat):
            return "DeleteMessage(from: \(L.string(client)), in: \(L.string(chat)))"
        case .scroll(let client, let chat, let direction, let messages):
            let word = direction == .up ? "ScrollUp" : "ScrollDown"
            return "\(word)(\(L.string(client)), in: \(L.string(chat)), messages: \(L.integer(messages)))"
        case .sendText(let client, let chat, let text):
            return "Send(from: \(L.string(client)), text: \(L.string(text)), in: \(L.string(chat)))"
        case .sendPhoto(let client, let chat, let bytes, let caption):
            let captionPart = caption.isEmpty ? "" : ", caption: \(L.string(caption))"
            return "SendPhoto(from: \(L.string(client)), bytes: \(L.integer(bytes))\(captionPart), "
                + "in: \(L.string(chat)))"
        case .sendPhotos(let client, let chat, let count, let bytes, let caption):
            let captionPart = caption.isEmpty ? "" : ", caption: \(L.string(caption))"
            return "SendPhotos(from: \(L.string(client)), count: \(L.integer(count)), bytes: \(L.integer(bytes))"
                + "\(captionPart), in: \(L.string(chat)))"
        case .background(let client): return "Background(\(L.string(client)))"
        case .foreground(let client): return "Foreground(\(L.string(client)))"
        case .restartApp(let client): return "RestartApp(\(L.string(client)))"
        case .crashApp(let client): return "CrashApp(\(L.string(client)))"
        case .linkDown(let client, let mode):
            return "LinkDown(\(L.string(client))\(mode == .withReset ? ", .withReset" : ""))"
        case .linkUp(let client): return "LinkUp(\(L.string(client)))"
        case .outage(let client, let duration, let mode):
            let modePart = mode == .withReset ? ", .withReset" : ""
            return "LinkDown(\(L.string(client)), for: \(L.duration(duration))\(modePart))"
        case .lossBurst(let client, let duration, let rate):
            return "LossBurst(\(L.string(client)), for: \(L.duration(duration)), lossRate: \(L.double(rate)))"
        case .delaySpike(let client, let extra, let duration):
            return "DelaySpike(\(L.string(client)), by: \(L.duration(extra)), for: \(L.duration(duration)))"
        case .clog(let client): return "Clog(\(L.string(client)))"
        case .release(let client): return "Release(\(L.string(client)))"
        case .changeProfile(let client, let profile):
            return "Handover(\(L.string(client)), to: \(L.profile(profile)))"
        case .halfOpen(let client): return "HalfOpen(\(L.string(client)))"
        case .serverRestart(let downtime):
            return downtime == .zero ? "ServerRestart()" : "ServerRestart(downtime: \(L.duration(downtime)))"
        case .delayResponses(let opcode, let extra, let duration, let client):
            let of = client.map { ", of: \(L.string($0))" } ?? ""
            return "DelayResponses(to: \(L.opcode(opcode)), by: \(L.duration(extra)), for: \(L.duration(duration))\(of))"
        case .loseResponses(let opcode, let count, let client):
            let of = client.map { ", of: \(L.string($0))" } ?? ""
            return "LoseResponses(to: \(L.opcode(opcode)), count: \(L.integer(count))\(of))"
        case .pushLoss(let client, let probability, let duration):
            let target = client.map { L.string($0) + ", " } ?? ""
            return "PushLoss(\(target)probability: \(L.double(probability)), for: \(L.duration(duration)))"
        case .pushDuplication(let client, let probability, let duration):
            let target = client.map { L.string($0) + ", " } ?? ""
            return "PushDuplication(\(target)probability: \(L.double(probability)), for: \(L.duration(duration)))"
        case .errorReplies(let opcode, let count, let client):
            let of = client.map { ", of: \(L.string($0))" } ?? ""
            return "ErrorReplies(to: \(L.opcode(opcode)), count: \(L.integer(count))\(of))"
        case .capLogin(let chats):
            return "CapLogin(chats: \(L.integer(chats)))"
        case .skewClock(let client, let offset):
            return "SkewClock(\(L.string(client)), by: \(L.duration(offset)))"
        case .markRead(let client, let chat):
            return "MarkRead(\(L.string(client)), \(L.string(chat)))"
        case .closeChat(let client, let chat):
            return "CloseChat(\(L.string(client)), \(L.string(chat)))"
        case .postFromOtherDevice(let client, let chat, let text):
            return "PostFromOtherDevice(\(L.string(client)), text: \(L.string(text)), in: \(L.string(chat)))"
        case .check(let condition):
            if case .custom(let label, let clients, _) = condition {
                return "Check(\(L.string(label))\(clients.map { ", clients: \(L.strings($0))" } ?? "")) "
                    + customStub(label)
            }
            return "Check(\(conditionSource(condition)))"
        case .delayPushes(let client, let extra, let duration):
            return "DelayPushes(to: \(L.string(client)), by: \(L.duration(extra)), for: \(L.duration(duration)))"
        case .holdResponses(let opcode, let client, let until):
            let of = client.map { ", of: \(L.string($0))" } ?? ""
            return "HoldResponses(to: \(L.opcode(opcode))\(of), until: \(L.moment(until)))"
        case .connectivity(let client, let change):
            return "Connectivity(\(L.string(client)), .\(change.rawValue))"
        }
    }

    /// `.server(receives: .login, from: "bob").nth(2)`.
    static func eventSource(_ event: ProtocolEvent) -> String {
        typealias L = DSLLiteral
        let base = switch event.kind {
        case .serverReceives(let opcode, let client):
            ".server(receives: \(L.opcode(opcode))\(client.map { ", from: \(L.string($0))" } ?? ""))"
        case .serverAnswers(let opcode, let client):
            ".server(answers: \(L.opcode(opcode))\(client.map { ", to: \(L.string($0))" } ?? ""))"
        case .clientReceives(let client, let opcode, let command):
            ".client(\(L.string(client)), receives: \(L.opcode(opcode))\(command.map { ", .\($0)" } ?? ""))"
        case .connected(let client): ".connected(\(L.string(client)))"
        case .disconnected(let client): ".disconnected(\(L.string(client)))"
        }
        return event.occurrence == 1 ? base : base + ".nth(\(event.occurrence))"
    }

    /// A closure body that compiles but says it was not printable.
    static func customStub(_ label: String, _ location: SourceLocation? = nil) -> String {
        let note = "custom condition '\(label)' cannot be printed; "
            + (location.map { "see \($0)" } ?? "restore it from the original scenario")
        return "{ _ in fatalError(\(DSLLiteral.string(note))) }"
    }

    private func expectationSources() -> [String] {
        typealias L = DSLLiteral
        var lines: [String] = []
        let ids = expectations.invariants
        if !ids.isEmpty {
            let groups: [InvariantGroup] = [.all, .chunks, .tasks, .protocolAndSync, .convergence]
            if let group = groups.first(where: { $0.members == ids }) {
                lines.append("Invariants(.\(group.rawValue))")
            } else {
                lines.append("Invariants(\(ids.map { "." + $0.rawValue }.joined(separator: ", ")))")
            }
        }
        for item in expectations.eventually {
            let deadline = L.duration(item.deadline)
            let after = item.anchor.map { ", after: \(L.string($0))" } ?? ""
            if case .custom(let label, let clients, _) = item.condition {
                let clientsPart = clients.map { ", clients: \(L.strings($0))" } ?? ""
                lines.append("Eventually(\(L.string(label)), within: \(deadline)\(after)\(clientsPart)) "
                             + Self.customStub(label, item.location))
            } else {
                lines.append("Eventually(within: \(deadline)\(after), \(Self.conditionSource(item.condition)))")
            }
        }
        for item in expectations.always {
            let word = item.isNegated ? "Never" : "Always"
            var window = ""
            if let from = item.from { window += ", from: \(L.moment(from))" }
            if let until = item.until { window += ", until: \(L.moment(until))" }
            if case .custom(let label, let clients, _) = item.condition {
                let clientsPart = clients.map { ", clients: \(L.strings($0))" } ?? ""
                lines.append("\(word)(\(L.string(label))\(window)\(clientsPart)) "
                             + Self.customStub(label, item.location))
            } else {
                lines.append("\(word)(\(Self.conditionSource(item.condition))\(window))")
            }
        }
        for bound in expectations.metricBounds {
            var arguments = [L.string(bound.metric)]
            if let client = bound.client { arguments.append("client: \(L.string(client))") }
            if let opcode = bound.opcode { arguments.append("opcode: \(L.opcode(opcode))") }
            if let window = bound.window, window != .wholeRun {
                arguments.append("window: MetricWindow(" + [
                    window.from.map { "from: \(L.moment($0))" }, window.until.map { "until: \(L.moment($0))" },
                ].compactMap { $0 }.joined(separator: ", ") + ")")
            } else if bound.window != nil, bound.client == nil, bound.opcode == nil {
                arguments.append("window: .wholeRun")
            }
            if let low = bound.atLeast { arguments.append("atLeast: \(L.double(low))") }
            if let high = bound.atMost { arguments.append("atMost: \(L.double(high))") }
            lines.append("MetricBound(\(arguments.joined(separator: ", ")))")
        }
        return lines
    }

    static func conditionSource(_ condition: Condition) -> String {
        typealias L = DSLLiteral
        switch condition {
        case .serverMessageCount(let chat, let count):
            return ".serverMessageCount(chat: \(L.string(chat)), count: \(L.integer(count)))"
        case .serverTexts(let chat, let texts):
            return ".serverTexts(chat: \(L.string(chat)), texts: \(L.strings(texts)))"
        case .serverOrder(let chat, let texts):
            return ".serverOrder(chat: \(L.string(chat)), texts: \(L.strings(texts)))"
        case .queueDrained(let client): return ".queueDrained(client: \(L.string(client)))"
        case .allQueuesDrained: return ".allQueuesDrained"
        case .historyComplete(let client, let chat):
            return ".historyComplete(client: \(L.string(client)), chat: \(L.string(chat)))"
        case .loggedIn(let client): return ".loggedIn(client: \(L.string(client)))"
        case .converged: return ".converged"
        case .textOnScreen(let client, let chat, let text):
            return ".textOnScreen(client: \(L.string(client)), chat: \(L.string(chat)), text: \(L.string(text)))"
        case .readUpToNewest(let client, let chat):
            return ".readUpToNewest(client: \(L.string(client)), chat: \(L.string(chat)))"
        case .photosComplete(let chat, let caption, let photos):
            return ".photosComplete(chat: \(L.string(chat)), caption: \(L.string(caption)), photos: \(L.integer(photos)))"
        case .serverSessions(let client, let count):
            return ".serverSessions(client: \(L.string(client)), count: \(L.integer(count)))"
        case .custom(let label, let clients, _):
            let clientsPart = clients.map { ", clients: \(L.strings($0))" } ?? ""
            return ".custom(label: \(L.string(label))\(clientsPart), predicate: \(customStub(label)))"
        }
    }
}

/// Swift literal spellings of DSL values, for `Scenario.dslSource()`.
enum DSLLiteral {
    /// A string literal with `\`, `"` and control characters escaped.
    static func string(_ text: String) -> String {
        // Most texts need no escape (every world step's trace record spells its action, a send's text included):
        // one pass over the UTF-8 bytes instead of appending scalar by scalar. A byte that needs one is ASCII.
        if !text.utf8.contains(where: needsEscape) { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Whether a UTF-8 byte is the first of a character `string` escapes (all of them are ASCII).
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"")
    }

    static func strings(_ texts: [String]) -> String { "[" + texts.map(string).joined(separator: ", ") + "]" }

    /// An integer literal, grouped by `_` in thousands from 10 000 up (`180_000`).
    static func integer<T: BinaryInteger>(_ value: T) -> String {
        let digits = String(value.magnitude)
        guard digits.count > 4 else { return value < 0 ? "-" + digits : digits }
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: "_")
    }

    /// A floating-point literal (`0.3`, `1.0`).
    static func double(_ value: Double) -> String { "\(value)" }

    /// The largest exact unit: `.zero`, `.minutes(5)`, `.seconds(8)`, `.milliseconds(1_300)`, ...
    static func duration(_ value: SimDuration) -> String {
        let ns = value.nanoseconds
        if ns == 0 { return ".zero" }
        let units: [(String, Int64)] = [
            ("hours", 3_600_000_000_000), ("minutes", 60_000_000_000), ("seconds", 1_000_000_000),
            ("milliseconds", 1_000_000), ("microseconds", 1_000),
        ]
        for (unit, size) in units where ns % size == 0 { return ".\(unit)(\(integer(ns / size)))" }
        return ".nanoseconds(\(integer(ns)))"
    }

    /// `.seconds(5)` (as `Moment.time`) or a label string.
    static func moment(_ moment: Moment) -> String {
        switch moment {
        case .time(let offset): ".time(\(duration(offset)))"
        case .step(let label): string(label)
        }
    }

    static func profile(_ profile: ProfileName) -> String {
        if let known = ProfileName.known.first(where: { $0.profile == profile }) { return "." + known.swiftName }
        return string(profile.rawValue)
    }

    /// A `LinkProfile(...)` expression over three lines (name and source, uplink, downlink), each direction with the
    /// arguments that differ from `LinkDirectionProfile.init`'s defaults, in its order.
    static func linkProfile(_ profile: LinkProfile) -> [String] {
        [
            "LinkProfile(",
            "    name: \(string(profile.name)), source: \(string(profile.source)),",
            "    uplink: \(linkDirection(profile.uplink)),",
            "    downlink: \(linkDirection(profile.downlink))",
            ")",
        ]
    }

    static func linkDirection(_ direction: LinkDirectionProfile) -> String {
        let defaults = LinkDirectionProfile(rateBitsPerSecond: 0, oneWayDelay: .zero)
        var arguments = [
            "rateBitsPerSecond: \(integer(direction.rateBitsPerSecond))",
            "oneWayDelay: \(duration(direction.oneWayDelay))",
        ]
        if direction.perPacketOverheadBytes != defaults.perPacketOverheadBytes {
            arguments.append("perPacketOverheadBytes: \(integer(direction.perPacketOverheadBytes))")
        }
        switch direction.jitter {
        case .none: break
        case .uniform(let maximum): arguments.append("jitter: .uniform(maximum: \(duration(maximum)))")
        case .exponential(let mean): arguments.append("jitter: .exponential(mean: \(duration(mean)))")
        }
        if direction.reordersPackets { arguments.append("reordersPackets: true") }
        if direction.queueCapacityBytes != defaults.queueCapacityBytes {
            arguments.append("queueCapacityBytes: \(integer(direction.queueCapacityBytes))")
        }
        switch direction.loss {
        case .none: break
        case .bernoulli(let probability): arguments.append("loss: .bernoulli(probability: \(double(probability)))")
        case .gilbertElliott(let p, let r, let oneMinusH, let oneMinusK):
            arguments.append("loss: .gilbertElliott(p: \(double(p)), r: \(double(r)), oneMinusH: \(double(oneMinusH)), "
                             + "oneMinusK: \(double(oneMinusK)))")
        case .gilbertElliottTimed(let meanGood, let meanBad, let oneMinusH, let oneMinusK):
            arguments.append("loss: .gilbertElliottTimed(meanGood: \(duration(meanGood)), meanBad: \(duration(meanBad)), "
                             + "oneMinusH: \(double(oneMinusH)), oneMinusK: \(double(oneMinusK)))")
        }
        switch direction.outages {
        case .none: break
        case .scheduled(let windows):
            let items = windows.map { "OutageWindow(start: \(duration($0.start)), length: \(duration($0.length)))" }
            arguments.append("outages: .scheduled([\(items.joined(separator: ", "))])")
        case .random(let meanInterval, let meanLength):
            arguments.append("outages: .random(meanInterval: \(duration(meanInterval)), "
                             + "meanLength: \(duration(meanLength)))")
        }
        if let spikes = direction.delaySpikes {
            arguments.append("delaySpikes: DelaySpikeModel(meanInterval: \(duration(spikes.meanInterval)), "
                             + "meanLength: \(duration(spikes.meanLength)), extraDelay: \(duration(spikes.extraDelay)))")
        }
        if let packets = direction.queueCapacityPackets {
            arguments.append("queueCapacityPackets: \(integer(packets))")
        }
        switch direction.activeQueue {
        case .none: break
        case .codel(let target, let interval):
            arguments.append("activeQueue: .codel(target: \(duration(target)), interval: \(duration(interval)))")
        }
        return ".init(\(arguments.joined(separator: ", ")))"
    }

    /// The opcodes the printer writes by their Swift name (`.chatsList`), in the order the DSL reference lists them;
    /// any other as `Opcode(rawValue: n)`. Those the reference engine sends and the server pushes to it.
    static let namedOpcodes: [(Opcode, String)] = [
        (.ping, "ping"), (.sessionInit, "sessionInit"), (.login, "login"), (.chatHistory, "chatHistory"),
        (.chatMark, "chatMark"), (.chatsList, "chatsList"), (.msgSend, "msgSend"), (.msgEdit, "msgEdit"),
        (.msgDelete, "msgDelete"), (.photoUpload, "photoUpload"), (.notifMessage, "notifMessage"),
        (.notifMark, "notifMark"), (.notifAttach, "notifAttach"), (.notifMsgDelete, "notifMsgDelete"),
    ]

    static func opcode(_ opcode: Opcode) -> String {
        if let known = namedOpcodes.first(where: { $0.0 == opcode }) { return "." + known.1 }
        return "Opcode(rawValue: \(opcode.rawValue))"
    }

    static func parameters(_ set: ParameterSet) -> String {
        let pairs = set.entries.map { entry -> String in
            let value = switch entry.value {
            case .int(let number): integer(number)
            case .double(let number): double(number)
            case .duration(let span): ".duration(\(duration(span)))"
            case .bool(let flag): flag ? "true" : "false"
            case .string(let text): string(text)
            }
            return "\(string(entry.key)): \(value)"
        }
        return "[" + pairs.joined(separator: ", ") + "]"
    }
}
