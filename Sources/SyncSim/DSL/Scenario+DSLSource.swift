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
            + (runLength == .minutes(10) ? "" : ", runLength: \(DSLLiteral.duration(runLength))")
            + ") {"
        lines.append(head)
        lines.append("    " + serverSource())
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

    private func clientSource(_ client: ClientSpec) -> String {
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
        case .delayResponses(let opcode, let extra, let duration):
            return "DelayResponses(to: \(L.opcode(opcode)), by: \(L.duration(extra)), for: \(L.duration(duration)))"
        case .loseResponses(let opcode, let count):
            return "LoseResponses(to: \(L.opcode(opcode)), count: \(L.integer(count)))"
        case .pushLoss(let client, let probability, let duration):
            let target = client.map { L.string($0) + ", " } ?? ""
            return "PushLoss(\(target)probability: \(L.double(probability)), for: \(L.duration(duration)))"
        case .pushDuplication(let client, let probability, let duration):
            let target = client.map { L.string($0) + ", " } ?? ""
            return "PushDuplication(\(target)probability: \(L.double(probability)), for: \(L.duration(duration)))"
        case .errorReplies(let opcode, let count):
            return "ErrorReplies(to: \(L.opcode(opcode)), count: \(L.integer(count)))"
        case .capLogin(let chats):
            return "CapLogin(chats: \(L.integer(chats)))"
        case .skewClock(let client, let offset):
            return "SkewClock(\(L.string(client)), by: \(L.duration(offset)))"
        }
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
            if case .custom(let label, _) = item.condition {
                let note = "custom condition '\(label)' cannot be printed; see \(item.location)"
                let stub = "{ _ in fatalError(\(L.string(note))) }"
                lines.append("Eventually(\(L.string(label)), within: \(deadline)) \(stub)")
            } else {
                lines.append("Eventually(within: \(deadline), \(Self.conditionSource(item.condition)))")
            }
        }
        for bound in expectations.metricBounds {
            var arguments = [L.string(bound.metric)]
            if let low = bound.atLeast { arguments.append("atLeast: \(L.double(low))") }
            if let high = bound.atMost { arguments.append("atMost: \(L.double(high))") }
            lines.append("MetricBound(\(arguments.joined(separator: ", ")))")
        }
        return lines
    }

    private static func conditionSource(_ condition: Condition) -> String {
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
        case .custom(let label, _): return ".custom(label: \(L.string(label)), predicate: { _ in false })"
        }
    }
}

/// Swift literal spellings of DSL values, for `Scenario.dslSource()`.
enum DSLLiteral {
    /// A string literal with `\`, `"` and control characters escaped.
    static func string(_ text: String) -> String {
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

    static func profile(_ profile: ProfileName) -> String {
        if let known = ProfileName.known.first(where: { $0.profile == profile }) { return "." + known.swiftName }
        return string(profile.rawValue)
    }

    static func opcode(_ opcode: Opcode) -> String {
        let names: [(Opcode, String)] = [
            (.ping, "ping"), (.sessionInit, "sessionInit"), (.login, "login"), (.chatHistory, "chatHistory"),
            (.chatMark, "chatMark"), (.msgSend, "msgSend"), (.photoUpload, "photoUpload"),
            (.notifMessage, "notifMessage"), (.notifMark, "notifMark"), (.notifAttach, "notifAttach"),
        ]
        if let known = names.first(where: { $0.0 == opcode }) { return "." + known.1 }
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
