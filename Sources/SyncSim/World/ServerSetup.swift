/// Maps a `ServerSpec`'s DSL parameters onto `ServerKnobs`.
///
/// Names: `processingDelay` (a duration every request waits), `processingJitter` (each request waits a delay
/// drawn uniformly from zero up to this duration, so responses may overtake each other, as on a multi-threaded
/// server), `loginChatsCap` (chats per LOGIN), `pushLossProbability`, `pushDuplicationProbability`.
/// An unknown name is an error listing the valid ones.
struct ServerSetup {
    var knobs = ServerKnobs()

    /// Every parameter name a `ServerSpec` may set, sorted.
    static let validNames = [
        "loginChatsCap", "processingDelay", "processingJitter", "pushDuplicationProbability", "pushLossProbability",
    ]

    init(_ spec: ServerSpec) throws {
        for entry in spec.parameters.entries {
            let value = entry.value
            switch (entry.key, value) {
            case ("processingDelay", .duration(let delay)): knobs.defaultProcessingDelay = .fixed(delay)
            case ("processingJitter", .duration(let jitter)): knobs.defaultProcessingDelay = .uniform(.zero, jitter)
            case ("loginChatsCap", .int(let cap)): knobs.loginChatsCap = cap
            case ("pushLossProbability", .double(let probability)): knobs.pushLossProbability = probability
            case ("pushDuplicationProbability", .double(let probability)):
                knobs.pushDuplicationProbability = probability
            case ("processingDelay", _), ("processingJitter", _), ("loginChatsCap", _), ("pushLossProbability", _),
                ("pushDuplicationProbability", _):
                throw WorldError.badParameterValue(
                    entry.key, owner: "server",
                    expected: entry.key.hasPrefix("processing") ? "a duration" : entry.key == "loginChatsCap"
                        ? "an integer" : "a probability (0.25)",
                    found: "\(value)")
            default:
                throw WorldError.unknownParameter(entry.key, owner: "server", valid: Self.validNames)
            }
        }
    }
}
