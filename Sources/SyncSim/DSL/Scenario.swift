/// A scenario: a topology, a timeline of user actions and faults, expectations and pinned seeds, as plain data.
///
/// Built with result builders and run by a `ScenarioExecutor`; `dslSource()` prints it back as Swift, and the
/// `Shrinker` reduces it. Only custom eventually-conditions hold closures.
///
/// ```swift
/// Scenario("reconnect-during-send", summary: "A send in flight when the link drops is delivered once",
///          seeds: [1, 2, 3]) {
///     Server()
///     Client("alice", profile: .edge)
///     Client("bob", profile: .threeG)
///     Timeline {
///         At(.seconds(1)) { Send(from: "alice", text: "hi", in: "alice+bob") }
///         At(.milliseconds(1_300)) { LinkDown("alice", for: .seconds(8)) }
///     }
///     Expect {
///         Invariants(.all)
///         Eventually(within: .seconds(120), .serverMessageCount(chat: "alice+bob", count: 1))
///     }
/// }
/// ```
public struct Scenario: Sendable {
    /// A unique name in the catalog, lower-case words joined by `-` (`"reconnect-during-send"`).
    public var name: String
    /// One line: the field behaviour the scenario reproduces (shown by `syncsim list`).
    public var summary: String
    /// Seeds every run of the catalog uses; the runner may add random ones.
    public var seeds: [UInt64]
    /// Labels `syncsim run --tag` selects by, sorted and without repeats (empty when none was declared).
    public var tags: [ScenarioTag]
    /// How much virtual time a run lasts at most.
    public var runLength: SimDuration
    /// The virtual server.
    public var server: ServerSpec
    /// The simulated phones, in the order written.
    public var clients: [ClientSpec]
    /// Chats declared with explicit members (chats named `"a+b"` are implicit).
    public var chats: [ChatSpec]
    /// Link profiles of the scenario's own, in the order written: clients and handovers name them as they name the
    /// catalog's (`LinkProfile.catalog`), and a name here may not be a catalog profile's.
    public var linkProfiles: [LinkProfile] = []
    /// Timeline steps in the order written.
    public var steps: [Step]
    /// What a run must show.
    public var expectations: Expectations
    /// Where the scenario was written.
    public var location: SourceLocation

    /// Builds a scenario from its body.
    /// - Parameters:
    ///   - name: unique name in the catalog.
    ///   - summary: one line saying what field behaviour it reproduces.
    ///   - seeds: pinned seeds.
    ///   - tags: labels for `syncsim run --tag` and `syncsim list` (`[.history, .slow]`); none by default.
    ///   - runLength: virtual time a run lasts at most; 10 minutes by default.
    ///   - content: `Server`, `Client`, `Chat`, `LinkProfile`, `Timeline` and `Expect` entries. A body without
    ///     `Server()` gets a default server; without `Invariants` it checks every invariant.
    public init(
        _ name: String,
        summary: String,
        seeds: [UInt64],
        tags: [ScenarioTag] = [],
        runLength: SimDuration = .minutes(10),
        fileID: String = #fileID,
        line: Int = #line,
        @ScenarioBuilder _ content: () -> [ScenarioComponent]
    ) {
        self.name = name
        self.summary = summary
        self.seeds = seeds
        self.tags = Array(Set(tags)).sorted()
        self.runLength = runLength
        self.location = SourceLocation(fileID: fileID, line: line)
        server = ServerSpec()
        clients = []
        chats = []
        steps = []
        var invariants: [InvariantID] = []
        var eventually: [Eventually] = []
        var bounds: [MetricBound] = []
        var always: [Always] = []
        for component in content() {
            switch component {
            case .server(let spec): server = spec
            case .client(let spec): clients.append(spec)
            case .chat(let spec): chats.append(spec)
            case .linkProfile(let profile): linkProfiles.append(profile)
            case .steps(let more): steps.append(contentsOf: more)
            case .expectations(let items):
                for item in items {
                    switch item {
                    case .invariants(let ids): invariants.append(contentsOf: ids)
                    case .eventually(let condition): eventually.append(condition)
                    case .metricBound(let bound): bounds.append(bound)
                    case .always(let condition): always.append(condition)
                    }
                }
            }
        }
        let named = Set(invariants)
        expectations = Expectations(
            invariants: InvariantID.allCases.filter { named.contains($0) },
            eventually: eventually,
            metricBounds: bounds,
            always: always
        )
    }

    /// The invariants a run checks: those named, or all when none was.
    public var checkedInvariants: [InvariantID] {
        expectations.invariants.isEmpty ? InvariantID.allCases : expectations.invariants
    }

    /// The client called `name`, or nil.
    public func client(named name: String) -> ClientSpec? { clients.first { $0.name == name } }

    /// The link profile a client or handover of this scenario names: one of the scenario's own
    /// (`linkProfiles`), else the catalog's (`LinkProfile.named`); names compare ignoring case. Nil when neither has it.
    public func linkProfile(named name: String) -> LinkProfile? { LinkProfile.named(name, among: linkProfiles) }

    /// The user `client` logs in as: its own name, or for a second device (`"alice:tablet"`) its user's.
    public func userName(of client: String) -> String { self.client(named: client)?.userName ?? client }

    /// Whether `client` (a user's phone or one of its devices) belongs to `chat`.
    public func isMember(_ client: String, of chat: String) -> Bool { members(of: chat).contains(userName(of: client)) }

    /// Every step label, in the order written.
    public var stepLabels: [String] { steps.compactMap(\.label) }

    /// The members of `chat`: the declared ones, or the `+`-separated names of an undeclared chat.
    /// - Complexity: O(declared chats); resolve many names through one `chatDirectory()` instead.
    public func members(of chat: String) -> [String] {
        if let declared = chats.first(where: { $0.name == chat }) { return declared.members }
        return Self.implicitMembers(of: chat)
    }

    /// Every chat the scenario mentions (declared, seeded with history, or used by a step), in first-mention order.
    /// - Complexity: O(chats + history seeds + steps).
    public var chatNames: [String] {
        var names: [String] = []
        var seen: Set<String> = []
        func add(_ name: String) { if seen.insert(name).inserted { names.append(name) } }
        chats.forEach { add($0.name) }
        server.history.forEach { add($0.chat) }
        for step in steps {
            if let chat = step.action.chat { add(chat) }
        }
        return names
    }

    /// The chat names and their members, resolved once, for code that looks up many (the world, validation).
    /// - Complexity: O(chats + history seeds + steps); each lookup in the result is then O(1) on average.
    public func chatDirectory() -> ChatDirectory { ChatDirectory(self) }

    /// The `+`-separated names of an undeclared chat (`"alice+bob"`).
    static func implicitMembers(of chat: String) -> [String] {
        chat.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
    }

    /// The same scenario with every client running `mutant` (the `--mutant` option).
    /// A server mutant (`Mutant.isServerMutant`) sets its server parameters instead, over the scenario's own.
    public func withMutant(_ mutant: String) -> Scenario {
        var copy = self
        if let server = Mutant.named(mutant), server.isServerMutant {
            for entry in server.serverParameters.entries { copy.server.parameters[entry.key] = entry.value }
            return copy
        }
        for index in copy.clients.indices { copy.clients[index].mutant = mutant }
        return copy
    }
}

/// A scenario's chats resolved once: every chat name in first-mention order (`Scenario.chatNames`) and each chat's
/// members (`Scenario.members(of:)`), by name.
public struct ChatDirectory: Sendable {
    /// Every chat the scenario mentions, in first-mention order.
    public let names: [String]
    /// The members of each declared chat (the first declaration of a name, as `members(of:)` reads it).
    private let declaredMembers: [String: [String]]

    /// Resolves the chats of `scenario`.
    /// - Complexity: O(chats + history seeds + steps).
    public init(_ scenario: Scenario) {
        names = scenario.chatNames
        var declared: [String: [String]] = [:]
        for chat in scenario.chats where declared[chat.name] == nil { declared[chat.name] = chat.members }
        declaredMembers = declared
    }

    /// The members of `chat`, as `Scenario.members(of:)` gives them.
    /// - Complexity: O(1) on average for a declared chat; O(length of the name) for an implicit one.
    public func members(of chat: String) -> [String] {
        declaredMembers[chat] ?? Scenario.implicitMembers(of: chat)
    }
}
