extension Scenario {
    /// Every inconsistency in the scenario, in source order; empty when it can run.
    ///
    /// Checks: a name and at least one seed; unique client names; chats whose members are all clients;
    /// steps that name known clients and chats the client belongs to; resolvable timings; non-negative
    /// durations and counts; probabilities in 0...1; client and server parameter names and values, link profile
    /// and mutant names the world knows (so a typo is an input error before any run, not a failed run).
    public func problems() -> [ScenarioError] {
        var found: [ScenarioError] = []
        func problem(_ text: String, _ location: SourceLocation) {
            found.append(.invalid(text, scenario: name, location: location))
        }
        if name.isEmpty || name.contains(where: \.isWhitespace) {
            problem("name must be non-empty without spaces", location)
        }
        if seeds.isEmpty { problem("needs at least one pinned seed", location) }
        var seen: Set<String> = []
        for client in clients {
            if !seen.insert(client.name).inserted { problem("client '\(client.name)' declared twice", client.location) }
            if client.name.isEmpty || client.name.contains("+") {
                problem("client name '\(client.name)' must be non-empty without '+'", client.location)
            }
        }
        for client in clients {
            do {
                _ = try ClientSetup(client, token: "")
            } catch {
                problem("\(error)", client.location)
            }
            if LinkProfile.named(client.profile.rawValue) == nil {
                problem("\(WorldError.unknownProfile(client.profile.rawValue, client: client.name))", client.location)
            }
        }
        do {
            _ = try ServerSetup(server)
        } catch {
            problem("\(error)", server.location)
        }
        let clientNames = Set(clients.map(\.name))
        let directory = chatDirectory()
        for chat in chats {
            for member in chat.members where !clientNames.contains(member) {
                problem("chat '\(chat.name)': member '\(member)' is not a client", chat.location)
            }
        }
        for seed in server.history {
            for member in directory.members(of: seed.chat) where !clientNames.contains(member) {
                problem("history for chat '\(seed.chat)': member '\(member)' is not a client", server.location)
            }
            if seed.messages < 0 { problem("history for '\(seed.chat)' has a negative count", server.location) }
        }
        for step in steps {
            let action = step.action
            if let client = action.client, !clientNames.contains(client) {
                problem("client '\(client)' is not in the topology", step.location)
            }
            if let chat = action.chat {
                let members = directory.members(of: chat)
                for member in members where !clientNames.contains(member) {
                    problem("chat '\(chat)': member '\(member)' is not a client", step.location)
                }
                if let client = action.client, !members.contains(client) {
                    problem("'\(client)' is not a member of chat '\(chat)'", step.location)
                }
            }
            if let duration = action.duration, duration < .zero {
                problem("negative duration \(duration)", step.location)
            }
            switch action {
            case .scroll(_, _, _, let count) where count <= 0,
                .loseResponses(_, let count) where count <= 0,
                .errorReplies(_, let count) where count <= 0,
                .capLogin(let count) where count <= 0,
                .sendPhoto(_, _, let count, _) where count <= 0:
                problem("count must be positive", step.location)
            case .lossBurst(_, _, let rate) where !(0...1).contains(rate),
                .pushLoss(_, let rate, _) where !(0...1).contains(rate),
                .pushDuplication(_, let rate, _) where !(0...1).contains(rate):
                problem("probability \(rate) is outside 0...1", step.location)
            default:
                break
            }
        }
        do {
            _ = try schedule()
        } catch let error as ScenarioError {
            found.append(error)
        } catch {
            problem("\(error)", location)
        }
        return found
    }
}
