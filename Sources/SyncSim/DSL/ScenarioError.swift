/// A mistake in a scenario: names the scenario, the DSL line and what was expected.
public struct ScenarioError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case unknownStepLabel(String, known: [String])
        case negativeTime(SimInstant)
        case invalid(String)
    }

    private let code: Code
    /// The scenario's name.
    public let scenario: String
    /// The DSL line at fault.
    public let location: SourceLocation

    private init(_ code: Code, scenario: String, location: SourceLocation) {
        self.code = code
        self.scenario = scenario
        self.location = location
    }

    /// An `After(_:step:)` names a label that no earlier step carries.
    /// `labels` lists the labels earlier timed steps carry, for the message.
    public static func unknownStepLabel(
        _ label: String, scenario: String, location: SourceLocation, labels: [String] = []
    ) -> Self {
        Self(.unknownStepLabel(label, known: labels), scenario: scenario, location: location)
    }

    /// A step resolves to a time before the run's start.
    public static func negativeTime(_ time: SimInstant, scenario: String, location: SourceLocation) -> Self {
        Self(.negativeTime(time), scenario: scenario, location: location)
    }

    /// Any other inconsistency, described in `detail` (`"client 'carol' is not in the topology"`).
    public static func invalid(_ detail: String, scenario: String, location: SourceLocation) -> Self {
        Self(.invalid(detail), scenario: scenario, location: location)
    }

    public var description: String { "\(location): scenario '\(scenario)': \(detail)" }

    /// What is wrong, without the scenario's name and line: `"client 'carol' is not in the topology"`.
    public var detail: String {
        switch code {
        case .unknownStepLabel(let label, let known):
            "no earlier step is labelled '\(label)'"
                + (known.isEmpty ? "" : "; earlier labels: " + known.joined(separator: ", "))
        case .negativeTime(let time): "step would start at \(time), before the run's start"
        case .invalid(let text): text
        }
    }
}
