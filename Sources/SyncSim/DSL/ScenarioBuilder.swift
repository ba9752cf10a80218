/// A piece of a scenario's body: the server, a client, a chat, timeline steps or expectations.
public enum ScenarioComponent: Sendable {
    /// The server's specification.
    case server(ServerSpec)
    /// One client's specification.
    case client(ClientSpec)
    /// One chat's specification.
    case chat(ChatSpec)
    /// Timeline steps, in the order written.
    case steps([Step])
    /// Entries of an `Expect` block.
    case expectations([ExpectationItem])
    /// A link profile of the scenario's own, which its clients and handovers may name beside the catalog's.
    case linkProfile(LinkProfile)
}

/// Builds a scenario body from `Server`, `Client`, `Chat`, `LinkProfile`, `Timeline` and `Expect`, with `if` and `for`.
@resultBuilder
public enum ScenarioBuilder {
    /// Turns a `Server` into its components.
    public static func buildExpression(_ server: Server) -> [ScenarioComponent] { [.server(server.spec)] }
    /// Turns a `Client` into its components.
    public static func buildExpression(_ client: Client) -> [ScenarioComponent] { [.client(client.spec)] }
    /// Turns a `Device` into its components (a client of an existing user).
    public static func buildExpression(_ device: Device) -> [ScenarioComponent] { [.client(device.spec)] }
    /// Turns a `Chat` into its components.
    public static func buildExpression(_ chat: Chat) -> [ScenarioComponent] { [.chat(chat.spec)] }
    /// Turns a `LinkProfile` into a profile of the scenario's own (`Client("alice", profile: "LTE-M")` names it).
    public static func buildExpression(_ profile: LinkProfile) -> [ScenarioComponent] { [.linkProfile(profile)] }
    /// Turns a `Timeline` into its components.
    public static func buildExpression(_ timeline: Timeline) -> [ScenarioComponent] { [.steps(timeline.steps)] }
    /// Turns an `Expect` into its components.
    public static func buildExpression(_ expect: Expect) -> [ScenarioComponent] { [.expectations(expect.items)] }
    /// Joins the parts of a block in the order written.
    public static func buildBlock(_ parts: [ScenarioComponent]...) -> [ScenarioComponent] { parts.flatMap { $0 } }
    /// Joins the parts a `for` loop produced, in iteration order.
    public static func buildArray(_ parts: [[ScenarioComponent]]) -> [ScenarioComponent] { parts.flatMap { $0 } }
    /// The parts of an `if` without `else`: empty when the condition is false.
    public static func buildOptional(_ part: [ScenarioComponent]?) -> [ScenarioComponent] { part ?? [] }
    /// The parts of the `if` branch that ran.
    public static func buildEither(first part: [ScenarioComponent]) -> [ScenarioComponent] { part }
    /// The parts of the `else` branch that ran.
    public static func buildEither(second part: [ScenarioComponent]) -> [ScenarioComponent] { part }
}

/// Builds a timeline from `At` and `After` groups, with `if` and `for`.
@resultBuilder
public enum TimelineBuilder {
    /// Turns an `At` group into its steps.
    public static func buildExpression(_ group: At) -> [Step] { group.steps }
    /// Turns an `After` group into its steps.
    public static func buildExpression(_ group: After) -> [Step] { group.steps }
    /// Turns a `When` group into its steps.
    public static func buildExpression(_ group: When) -> [Step] { group.steps }
    /// Joins the parts of a block in the order written.
    public static func buildBlock(_ parts: [Step]...) -> [Step] { parts.flatMap { $0 } }
    /// Joins the parts a `for` loop produced, in iteration order.
    public static func buildArray(_ parts: [[Step]]) -> [Step] { parts.flatMap { $0 } }
    /// The parts of an `if` without `else`: empty when the condition is false.
    public static func buildOptional(_ part: [Step]?) -> [Step] { part ?? [] }
    /// The parts of the `if` branch that ran.
    public static func buildEither(first part: [Step]) -> [Step] { part }
    /// The parts of the `else` branch that ran.
    public static func buildEither(second part: [Step]) -> [Step] { part }
}

/// Builds the actions of one `At` or `After` group.
@resultBuilder
public enum ActionBuilder {
    /// Turns a timeline action into its `ActionItem`.
    public static func buildExpression(_ action: some TimelineAction) -> [ActionItem] { [action.item] }
    /// Joins the parts of a block in the order written.
    public static func buildBlock(_ parts: [ActionItem]...) -> [ActionItem] { parts.flatMap { $0 } }
    /// Joins the parts a `for` loop produced, in iteration order.
    public static func buildArray(_ parts: [[ActionItem]]) -> [ActionItem] { parts.flatMap { $0 } }
    /// The parts of an `if` without `else`: empty when the condition is false.
    public static func buildOptional(_ part: [ActionItem]?) -> [ActionItem] { part ?? [] }
    /// The parts of the `if` branch that ran.
    public static func buildEither(first part: [ActionItem]) -> [ActionItem] { part }
    /// The parts of the `else` branch that ran.
    public static func buildEither(second part: [ActionItem]) -> [ActionItem] { part }
}

/// One entry of an `Expect` block.
public enum ExpectationItem: Sendable {
    /// The invariants to check, by id.
    case invariants([InvariantID])
    /// A condition that must hold by a deadline.
    case eventually(Eventually)
    /// A bound on a run metric.
    case metricBound(MetricBound)
    /// A condition that must hold (or, for `Never`, must not hold) after every world step of a window.
    case always(Always)
}

/// Builds an `Expect` block from `Invariants`, `Eventually`, `Always`, `Never` and `MetricBound`.
@resultBuilder
public enum ExpectationBuilder {
    /// Turns an `Invariants` list into its components.
    public static func buildExpression(_ invariants: Invariants) -> [ExpectationItem] { [.invariants(invariants.ids)] }
    /// Turns an `Eventually` into its components.
    public static func buildExpression(_ eventually: Eventually) -> [ExpectationItem] { [.eventually(eventually)] }
    /// Turns a `MetricBound` into its components.
    public static func buildExpression(_ bound: MetricBound) -> [ExpectationItem] { [.metricBound(bound)] }
    /// Turns an `Always` into its components.
    public static func buildExpression(_ always: Always) -> [ExpectationItem] { [.always(always)] }
    /// Joins the parts of a block in the order written.
    public static func buildBlock(_ parts: [ExpectationItem]...) -> [ExpectationItem] { parts.flatMap { $0 } }
    /// Joins the parts a `for` loop produced, in iteration order.
    public static func buildArray(_ parts: [[ExpectationItem]]) -> [ExpectationItem] { parts.flatMap { $0 } }
    /// The parts of an `if` without `else`: empty when the condition is false.
    public static func buildOptional(_ part: [ExpectationItem]?) -> [ExpectationItem] { part ?? [] }
    /// The parts of the `if` branch that ran.
    public static func buildEither(first part: [ExpectationItem]) -> [ExpectationItem] { part }
    /// The parts of the `else` branch that ran.
    public static func buildEither(second part: [ExpectationItem]) -> [ExpectationItem] { part }
}
