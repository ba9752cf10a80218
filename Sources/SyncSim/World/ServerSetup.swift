/// Maps a `ServerSpec`'s DSL parameters onto `ServerKnobs`.
///
/// Names: `processingDelay` (a duration every request waits), `processingJitter` (each request waits a further delay
/// drawn uniformly from zero up to this duration, so responses may overtake each other, as on a multi-threaded
/// server; with both, a request waits `processingDelay` plus that draw, in whichever order they are given, as
/// netem's `delay D jitter J` adds its jitter to the delay), `loginChatsCap` (chats per LOGIN), `pushLossProbability`,
/// `pushDuplicationProbability`, `msgSendErrorsFrom` / `msgSendErrorsUntil` (durations from the start: every MSG_SEND in between is answered at once
/// with an error; either alone means from the start or until the end), `idleTimeout` (server-side liveness; zero:
/// never), `replacesOlderSessions` (a LOGIN closes older connections of the same user and device), `historyEditLag`
/// (history pages show edits and deletes only once they are this old, as a lagging read replica; zero: at once),
/// `repliesFollowDevice` (a reply whose connection closed goes to the device's newest connection, node-slack-sdk #251),
/// `fullListKeys` (LOGIN and CHATS_LIST answers carry the profile, contact and chat keys PyMax 1.x requires, as
/// `syncsim serve` sends them; `ServerKnobs.fullListKeys`), `deleteNotice` (how clients hear of deletes:
/// `"notif-msg-delete"`, the default, or `"removed-message"`, a NOTIF_MESSAGE per deleted message as PyMax 1.2.5
/// reads them; `DeleteNotice`). An unknown name is an error listing the valid ones.
struct ServerSetup {
    var knobs = ServerKnobs()

    /// Every parameter name a `ServerSpec` may set, sorted.
    static let validNames = [
        "deleteNotice", "fullListKeys", "historyEditLag", "idleTimeout", "loginChatsCap", "msgSendErrorsFrom", "msgSendErrorsUntil", "processingDelay",
        "processingJitter", "pushDuplicationProbability", "pushLossProbability", "replacesOlderSessions",
        "repliesFollowDevice",
    ]

    init(_ spec: ServerSpec) throws {
        var sendErrors: (from: SimDuration?, until: SimDuration?) = (nil, nil)
        var processing: (delay: SimDuration, jitter: SimDuration?) = (.zero, nil)
        defer {
            // One distribution from both knobs: the jitter widens the delay instead of replacing it.
            if let jitter = processing.jitter {
                knobs.defaultProcessingDelay = .uniform(processing.delay, processing.delay + jitter)
            } else if processing.delay != .zero {
                knobs.defaultProcessingDelay = .fixed(processing.delay)
            }
            if sendErrors.from != nil || sendErrors.until != nil {
                knobs.failingPeriods.append(.init(
                    opcode: .msgSend, start: .start + (sendErrors.from ?? .zero),
                    end: sendErrors.until.map { .start + $0 } ?? SimInstant(nanosecondsSinceStart: .max)))
            }
        }
        for entry in spec.parameters.entries {
            let value = entry.value
            switch (entry.key, value) {
            case ("idleTimeout", .duration(let timeout)): knobs.idleTimeout = timeout > .zero ? timeout : nil
            case ("replacesOlderSessions", .bool(let replaces)): knobs.replacesOlderSessions = replaces
            case ("historyEditLag", .duration(let lag)): knobs.historyEditLag = lag > .zero ? lag : nil
            case ("historyEditLag", _):
                throw WorldError.badParameterValue(entry.key, owner: "server", expected: "a duration",
                                                   found: "\(value)")
            case ("idleTimeout", _):
                throw WorldError.badParameterValue(entry.key, owner: "server", expected: "a duration",
                                                   found: "\(value)")
            case ("repliesFollowDevice", .bool(let follows)): knobs.repliesFollowDevice = follows
            case ("fullListKeys", .bool(let full)): knobs.fullListKeys = full
            case ("deleteNotice", .string(let name)) where DeleteNotice(rawValue: name) != nil:
                knobs.deleteNotice = DeleteNotice(rawValue: name)!
            case ("deleteNotice", _):
                throw WorldError.badParameterValue(
                    entry.key, owner: "server",
                    expected: DeleteNotice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or "),
                    found: "\(value)")
            case ("replacesOlderSessions", _), ("repliesFollowDevice", _), ("fullListKeys", _):
                throw WorldError.badParameterValue(entry.key, owner: "server", expected: "true or false",
                                                   found: "\(value)")
            case ("msgSendErrorsFrom", .duration(let from)): sendErrors.from = from
            case ("msgSendErrorsUntil", .duration(let until)): sendErrors.until = until
            case ("msgSendErrorsFrom", _), ("msgSendErrorsUntil", _):
                throw WorldError.badParameterValue(entry.key, owner: "server", expected: "a duration",
                                                   found: "\(value)")
            case ("processingDelay", .duration(let delay)): processing.delay = delay
            case ("processingJitter", .duration(let jitter)): processing.jitter = jitter
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
