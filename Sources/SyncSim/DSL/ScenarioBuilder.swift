/// A piece of a scenario's body: the server, a client, a chat, timeline steps or expectations.
public enum ScenarioComponent: Sendable {
    case server(ServerSpec)
    case client(ClientSpec)
    case chat(ChatSpec)
    case steps([Step])
    case expectations([ExpectationItem])
}

/// Builds a scenario body from `Server`, `Client`, `Chat`, `Timeline` and `Expect`, with `if` and `for`.
@resultBuilder
public enum ScenarioBuilder {
    public static func buildExpression(_ server: Server) -> [ScenarioComponent] { [.server(server.spec)] }
    public static func buildExpression(_ client: Client) -> [ScenarioComponent] { [.client(client.spec)] }
    public static func buildExpression(_ chat: Chat) -> [ScenarioComponent] { [.chat(chat.spec)] }
    public static func buildExpression(_ timeline: Timeline) -> [ScenarioComponent] { [.steps(timeline.steps)] }
    public static func buildExpression(_ expect: Expect) -> [ScenarioComponent] { [.expectations(expect.items)] }
    public static func buildBlock(_ parts: [ScenarioComponent]...) -> [ScenarioComponent] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[ScenarioComponent]]) -> [ScenarioComponent] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [ScenarioComponent]?) -> [ScenarioComponent] { part ?? [] }
    public static func buildEither(first part: [ScenarioComponent]) -> [ScenarioComponent] { part }
    public static func buildEither(second part: [ScenarioComponent]) -> [ScenarioComponent] { part }
}

/// Builds a timeline from `At` and `After` groups, with `if` and `for`.
@resultBuilder
public enum TimelineBuilder {
    public static func buildExpression(_ group: At) -> [Step] { group.steps }
    public static func buildExpression(_ group: After) -> [Step] { group.steps }
    public static func buildBlock(_ parts: [Step]...) -> [Step] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[Step]]) -> [Step] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Step]?) -> [Step] { part ?? [] }
    public static func buildEither(first part: [Step]) -> [Step] { part }
    public static func buildEither(second part: [Step]) -> [Step] { part }
}

/// Builds the actions of one `At` or `After` group.
@resultBuilder
public enum ActionBuilder {
    public static func buildExpression(_ action: some TimelineAction) -> [ActionItem] { [action.item] }
    public static func buildBlock(_ parts: [ActionItem]...) -> [ActionItem] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[ActionItem]]) -> [ActionItem] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [ActionItem]?) -> [ActionItem] { part ?? [] }
    public static func buildEither(first part: [ActionItem]) -> [ActionItem] { part }
    public static func buildEither(second part: [ActionItem]) -> [ActionItem] { part }
}

/// One entry of an `Expect` block.
public enum ExpectationItem: Sendable {
    case invariants([InvariantID])
    case eventually(Eventually)
    case metricBound(MetricBound)
}

/// Builds an `Expect` block from `Invariants`, `Eventually` and `MetricBound`.
@resultBuilder
public enum ExpectationBuilder {
    public static func buildExpression(_ invariants: Invariants) -> [ExpectationItem] { [.invariants(invariants.ids)] }
    public static func buildExpression(_ eventually: Eventually) -> [ExpectationItem] { [.eventually(eventually)] }
    public static func buildExpression(_ bound: MetricBound) -> [ExpectationItem] { [.metricBound(bound)] }
    public static func buildBlock(_ parts: [ExpectationItem]...) -> [ExpectationItem] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[ExpectationItem]]) -> [ExpectationItem] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [ExpectationItem]?) -> [ExpectationItem] { part ?? [] }
    public static func buildEither(first part: [ExpectationItem]) -> [ExpectationItem] { part }
    public static func buildEither(second part: [ExpectationItem]) -> [ExpectationItem] { part }
}
