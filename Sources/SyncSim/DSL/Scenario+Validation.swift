extension Scenario {
    /// Every inconsistency in the scenario, in source order; empty when it can run.
    ///
    /// Checks: a name and at least one seed; unique client names; chats whose members are all clients;
    /// steps that name known clients and chats the client belongs to; resolvable timings; non-negative
    /// durations and counts; probabilities in 0...1; client and server parameter names and values, link profile
    /// names (clients' and handovers') and mutant names the world knows; the scenario's own link profiles (unique
    /// names that are not the catalog's, figures a link can run) (so a typo is an input error before any run, not a failed run).
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
            if client.name.isEmpty || client.name.contains("+") || (client.user == nil && client.name.contains(":")) {
                problem("client name '\(client.name)' must be non-empty without '+' or ':'", client.location)
            }
            if let user = client.user, self.client(named: user)?.user != nil || self.client(named: user) == nil {
                problem("device '\(client.name)': user '\(user)' is not a client\(Self.choices(userNames))",
                        client.location)
            }
        }
        for client in clients {
            do {
                _ = try ClientSetup(client, token: "")
            } catch {
                problem("\(error)", client.location)
            }
            if linkProfile(named: client.profile.rawValue) == nil {
                problem("client '\(client.name)': unknown link profile '\(client.profile)'\(profileChoices)",
                        client.location)
            }
        }
        var profileNamesSeen: Set<String> = []
        for profile in linkProfiles {
            if !profileNamesSeen.insert(profile.name.lowercased()).inserted {
                problem("link profile '\(profile.name)' declared twice", location)
            }
            if let taken = LinkProfile.named(profile.name) {
                problem("link profile '\(profile.name)' has the name of the catalog's '\(taken.name)'; choose another",
                        location)
            }
            for text in profile.problems() { problem("link profile '\(profile.name)': \(text)", location) }
        }
        do {
            _ = try ServerSetup(server)
        } catch {
            problem("\(error)", server.location)
        }
        let clientNames = Set(clients.map(\.name))
        let users = Set(userNames)
        // Names resolve through dictionaries built once: validation stays linear in the scenario's size.
        let directory = chatDirectory()
        var userNameByClient: [String: String] = [:]
        for client in clients where userNameByClient[client.name] == nil {
            userNameByClient[client.name] = client.userName
        }
        for chat in chats {
            for member in chat.members where !users.contains(member) {
                problem("chat '\(chat.name)': member '\(member)' is not a client\(Self.choices(userNames))",
                        chat.location)
            }
        }
        for seed in server.history {
            for member in directory.members(of: seed.chat) where !users.contains(member) {
                problem("history for chat '\(seed.chat)': member '\(member)' is not a client"
                        + Self.choices(userNames), server.location)
            }
            if seed.messages < 0 { problem("history for '\(seed.chat)' has a negative count", server.location) }
            if seed.messages > Self.largestSeededHistory {
                problem("history for '\(seed.chat)' has \(seed.messages) messages; at most \(Self.largestSeededHistory)",
                        server.location)
            }
        }
        let labels = stepLabels
        func checkClient(_ client: String, _ location: SourceLocation) {
            if !clientNames.contains(client) {
                problem("client '\(client)' is not in the topology\(Self.choices(clients.map(\.name)))", location)
            }
        }
        func checkChat(_ chat: String, _ location: SourceLocation) {
            for member in directory.members(of: chat) where !users.contains(member) {
                let known = directory.names.filter { $0 != chat }
                problem("chat '\(chat)': member '\(member)' is not a client\(Self.choices(userNames))"
                        + (known.isEmpty ? "" : "; chats: \(known.joined(separator: ", "))"), location)
            }
        }
        func checkLabel(_ moment: Moment?, _ what: String, _ location: SourceLocation) {
            guard let label = moment?.label else { return }
            if !labels.contains(label) {
                problem("\(what) refers to step label '\(label)', which no step carries"
                        + (labels.isEmpty ? " (no step is labelled; use .named(...))" : "; labels: "
                           + labels.joined(separator: ", ")), location)
            }
        }
        func checkCondition(_ condition: Condition, _ location: SourceLocation) {
            if case .custom = condition {
                for client in condition.clients ?? [] { checkClient(client, location) }
                return
            }
            for client in condition.clients ?? [] { checkClient(client, location) }
            if let chat = condition.chat { checkChat(chat, location) }
        }
        var seenLabels: Set<String> = []
        for step in steps {
            if let label = step.label, !seenLabels.insert(label).inserted {
                problem("step label '\(label)' is used twice", step.location)
            }
        }
        for step in steps {
            let action = step.action
            if let client = action.client { checkClient(client, step.location) }
            if let client = step.timing.event?.client { checkClient(client, step.location) }
            if let occurrence = step.timing.event?.occurrence, occurrence < 1 {
                problem("nth(\(occurrence)): occurrences count from 1", step.location)
            }
            if let chat = action.chat {
                checkChat(chat, step.location)
                if let client = action.client, let user = userNameByClient[client],
                   !directory.members(of: chat).contains(user) {
                    let members = directory.members(of: chat)
                    problem("'\(client)' is not a member of chat '\(chat)'; "
                            + (members.isEmpty ? "it has no members" : "members: " + members.joined(separator: ", ")),
                            step.location)
                }
            }
            if case .check(let condition) = action { checkCondition(condition, step.location) }
            if case .holdResponses(_, _, let moment) = action { checkLabel(moment, "HoldResponses", step.location) }
            if case .after(_, let label) = step.timing, let anchor = steps.first(where: { $0.label == label }),
               anchor.timing.event != nil {
                problem("After(step: '\(label)') cannot follow a When step (it has no time ahead of the run); "
                        + "use Eventually(after:) or Always(from:)", step.location)
            }
            if case .changeProfile(_, let profile) = action, linkProfile(named: profile.rawValue) == nil {
                problem("Handover: unknown link profile '\(profile)'\(profileChoices)", step.location)
            }
            if let duration = action.duration, duration < .zero {
                problem("negative duration \(duration)", step.location)
            }
            switch action {
            case .delayPushes(_, let extra, _) where extra < .zero:
                problem("negative delay \(extra)", step.location)
            case .scroll(_, _, _, let count) where count <= 0,
                .loseResponses(_, let count, _) where count <= 0,
                .errorReplies(_, let count, _) where count <= 0,
                .capLogin(let count) where count <= 0,
                .sendPhoto(_, _, let count, _) where count <= 0,
                .sendPhotos(_, _, let count, _, _) where count <= 0,
                .sendPhotos(_, _, _, let count, _) where count <= 0:
                problem("count must be positive", step.location)
            case .sendPhoto(_, _, let bytes, _) where bytes > Self.largestPhotoBytes,
                .sendPhotos(_, _, _, let bytes, _) where bytes > Self.largestPhotoBytes:
                problem("a photo of \(bytes) bytes; at most \(Self.largestPhotoBytes)", step.location)
            case .sendPhotos(_, _, let count, _, _) where count > Self.mostPhotosPerMessage:
                problem("\(count) photos in one message; at most \(Self.mostPhotosPerMessage)", step.location)
            case .lossBurst(_, _, let rate) where !(0...1).contains(rate),
                .pushLoss(_, let rate, _) where !(0...1).contains(rate),
                .pushDuplication(_, let rate, _) where !(0...1).contains(rate):
                problem("probability \(rate) is outside 0...1", step.location)
            default:
                break
            }
        }
        for item in expectations.eventually {
            checkCondition(item.condition, item.location)
            checkLabel(item.anchor.map(Moment.step), "Eventually(after:)", item.location)
            if item.deadline < .zero { problem("negative deadline \(item.deadline)", item.location) }
        }
        for item in expectations.always {
            checkCondition(item.condition, item.location)
            checkLabel(item.from, "from:", item.location)
            checkLabel(item.until, "until:", item.location)
        }
        for bound in expectations.metricBounds {
            if let client = bound.client { checkClient(client, bound.location) }
            checkLabel(bound.window?.from, "window", bound.location)
            checkLabel(bound.window?.until, "window", bound.location)
            if bound.isWindowed, WindowMetric(rawValue: bound.metric) == nil {
                problem("windowed metric '\(bound.metric)' is unknown; metrics: "
                        + WindowMetric.allCases.map(\.rawValue).joined(separator: ", "), bound.location)
            }
        }
        checkDurations(problem)
        do {
            _ = try schedule()
        } catch let error as ScenarioError {
            found.append(error)
        } catch {
            problem("\(error)", location)
        }
        return found
    }

    /// The most messages a chat's seeded history may hold: 1,000,000. The world builds every seeded message before the
    /// run starts, so a larger figure is a typo, not a workload (the catalog's largest is hundreds).
    public static let largestSeededHistory = 1_000_000

    /// The largest photo a send may carry: 100 MiB (the world allocates the upload's bytes).
    public static let largestPhotoBytes = 100 << 20

    /// The most photos one message may carry: 100.
    public static let mostPhotosPerMessage = 100

    /// The longest duration a scenario may name, and the latest instant a step may start at: 365 days.
    ///
    /// Virtual time is Int64 nanoseconds (about 292 years), and the world adds scenario durations to instants and to
    /// each other (a fault's end, a deadline, a skewed clock); with every figure at most a year, those sums cannot
    /// overflow. No scenario needs more: the catalog's longest run is hours.
    public static let longestDuration = SimDuration.hours(24 * 365)

    /// Reports every duration of the scenario longer than `longestDuration` either way (run length, step timings,
    /// fault durations, delays, clock offsets, deadlines, windows, duration parameters).
    func checkDurations(_ problem: (String, SourceLocation) -> Void) {
        let limit = Self.longestDuration
        func check(_ duration: SimDuration, _ what: String, _ location: SourceLocation) {
            guard duration.nanoseconds > limit.nanoseconds || duration.nanoseconds < -limit.nanoseconds else { return }
            problem("\(what) \(duration) is longer than the longest scenario duration (\(limit))", location)
        }
        func check(_ moment: Moment?, _ what: String, _ location: SourceLocation) {
            if case .time(let offset) = moment { check(offset, what, location) }
        }
        func check(_ parameters: ParameterSet, _ owner: String, _ location: SourceLocation) {
            for entry in parameters.entries {
                if let duration = entry.value.durationValue { check(duration, "\(owner) '\(entry.key)'", location) }
            }
        }
        check(runLength, "run length", location)
        check(server.clockOffset, "server clock offset", server.location)
        check(server.parameters, "server parameter", server.location)
        for client in clients { check(client.parameters, "parameter", client.location) }
        for step in steps {
            switch step.timing {
            case .at(let offset): check(offset, "step time", step.location)
            case .afterPrevious(let delay), .after(let delay, _): check(delay, "step delay", step.location)
            case .when: break
            }
            let action = step.action
            if let duration = action.duration { check(duration, "duration", step.location) }
            switch action {
            case .delaySpike(_, let extra, _), .delayResponses(_, let extra, _, _), .delayPushes(_, let extra, _):
                check(extra, "extra delay", step.location)
            case .skewClock(_, let offset): check(offset, "clock offset", step.location)
            case .holdResponses(_, _, let until): check(until, "HoldResponses until", step.location)
            default: break
            }
        }
        for item in expectations.eventually { check(item.deadline, "deadline", item.location) }
        for item in expectations.always {
            check(item.from, "from:", item.location)
            check(item.until, "until:", item.location)
        }
        for bound in expectations.metricBounds {
            check(bound.window?.from, "window start", bound.location)
            check(bound.window?.until, "window end", bound.location)
        }
    }

    /// The user names (clients that are not second devices), in topology order.
    var userNames: [String] { clients.filter { $0.user == nil }.map(\.name) }

    /// `"; clients: alice, bob"`, or `"; no clients are declared"`.
    /// "; profiles: 2G-rural, GPRS, ...": the catalog's link profiles, then the scenario's own.
    var profileChoices: String {
        "; profiles: " + (LinkProfile.catalog + linkProfiles).map(\.name).joined(separator: ", ")
    }

    static func choices(_ names: [String]) -> String {
        names.isEmpty ? "; no clients are declared" : "; clients: " + names.joined(separator: ", ")
    }
}
