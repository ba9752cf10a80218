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
    ///   - content: `Server`, `Client`, `Chat`, `Timeline` and `Expect` entries. A body without `Server()` gets a
    ///     default server; without `Invariants` it checks every invariant.
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

    /// The user `client` logs in as: its own name, or for a second device (`"alice:tablet"`) its user's.
    public func userName(of client: String) -> String { self.client(named: client)?.userName ?? client }

    /// Whether `client` (a user's phone or one of its devices) belongs to `chat`.
    public func isMember(_ client: String, of chat: String) -> Bool { members(of: chat).contains(userName(of: client)) }

    /// Every step label, in the order written.
    public var stepLabels: [String] { steps.compactMap(\.label) }

    /// The members of `chat`: the declared ones, or the `+`-separated names of an undeclared chat.
    public func members(of chat: String) -> [String] {
        if let declared = chats.first(where: { $0.name == chat }) { return declared.members }
        return chat.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
    }

    /// Every chat the scenario mentions (declared, seeded with history, or used by a step), in first-mention order.
    public var chatNames: [String] {
        var names: [String] = []
        func add(_ name: String) { if !names.contains(name) { names.append(name) } }
        chats.forEach { add($0.name) }
        server.history.forEach { add($0.chat) }
        steps.compactMap(\.action.chat).forEach(add)
        return names
    }

    /// The same scenario with every client running `mutant` (the `--mutant` option).
    public func withMutant(_ mutant: String) -> Scenario {
        var copy = self
        for index in copy.clients.indices { copy.clients[index].mutant = mutant }
        return copy
    }
}
