import FuzzSupport
import SimCore
import SyncProtocol
import SyncSim

/// The DSL validator over generated scenario values.
///
/// Bytes 0-3 seed the explorer's generator (`ExploreGenerator.generate(seed:)`, a valid scenario); every following
/// record is one edit of that value (rename, remove or duplicate a client; set a user, profile, mutant or parameter;
/// change chats, history, timings, labels, actions, expectations, run length, seeds; extreme durations and counts,
/// NaN and infinite rates, names with spaces, '+' and ':'). Then:
/// - `Scenario.problems()` returns, never traps; every problem's text names the scenario;
/// - a scenario without problems resolves its timeline (`withAbsoluteTiming()`) and builds its `World`
///   (`World.init` throws only for what validation should have reported);
/// - `dslSource()` prints any scenario (checked on one input in four).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzDSL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    var seed: UInt64 = 0
    for _ in 0..<4 { seed = seed << 8 | UInt64(input.byte()) }
    var editor = ScenarioEditor(scenario: generator.generate(seed: seed).scenario)
    var edits = 0
    while !input.isAtEnd && edits < 48 {
        editor.edit(&input)
        edits += 1
    }
    let scenario = editor.scenario
    let problems = scenario.problems()
    fuzzLog("\(edits) edits, \(problems.count) problems")
    for problem in problems {
        let text = problem.description
        fuzzLog("problem: \(text)")
        if problem.scenario != scenario.name || !text.contains("scenario '\(scenario.name)'") {
            fuzzFailure("a problem does not name its scenario: \(text)")
        }
    }
    // Printing costs as much as the rest together: one input in four (by length) prints.
    if size % 4 == 0 { _ = scenario.dslSource() }
    guard problems.isEmpty else { return 0 }
    do {
        _ = try scenario.withAbsoluteTiming()
    } catch {
        fuzzFailure("a scenario without problems has an unresolvable timeline: \(error)")
    }
    do {
        _ = try World(scenario: scenario, seed: scenario.seeds[0])
    } catch {
        fuzzFailure("a scenario without problems does not build its world: \(error)")
    }
    return 0
}

let generator = ExploreGenerator()

/// Applies fuzzed edits to a scenario value.
struct ScenarioEditor {
    var scenario: Scenario

    static let names = ["alice", "bob", "carol", "dave", "", "a b", "x+y", "u:v", "alice+bob", "bob+alice", "zed"]
    static let profiles = ["wifi", "lte", "3g", "edge", "offline", "satellite", "", "nope"]
    static let clientParameters = [
        "backoffBase", "backoffCap", "backoffFactor", "backoffJitter", "compressionThresholdBytes",
        "historyPageSize", "initialSeq", "loginChatsCount", "maxTaskAttempts", "photoProcessingTime",
        "pingInterval", "pongTimeout", "prefetchDistance", "requestTimeout", "seqModulus", "taskRetryBase",
        "taskRetryCap", "visibleMessageCount", "typo",
    ]
    static let serverParameters = [
        "idleTimeout", "loginChatsCap", "msgSendErrorsFrom", "msgSendErrorsUntil", "processingDelay",
        "processingJitter", "pushDuplicationProbability", "pushLossProbability", "replacesOlderSessions", "typo",
    ]
    static let opcodes: [Opcode] = [.login, .chatHistory, .msgSend, .photoUpload, .sessionInit, .ping,
                                    Opcode(rawValue: 0), Opcode(rawValue: 65_535)]

    /// A name: a client's or chat's of the scenario, a fixed odd one, or fuzzed text.
    func name(_ input: inout FuzzInput) -> String {
        let choice = input.byte()
        switch choice % 4 {
        case 0 where !scenario.clients.isEmpty:
            return scenario.clients[Int(input.byte()) % scenario.clients.count].name
        case 1 where !scenario.chatNames.isEmpty:
            return scenario.chatNames[Int(input.byte()) % scenario.chatNames.count]
        case 2:
            return Self.names[Int(input.byte()) % Self.names.count]
        default:
            let count = Int(input.byte() % 8)
            return String(decoding: input.take(count), as: UTF8.self)
        }
    }

    /// A chat name: a declared or implicit chat, `a+b` of two clients, or any name.
    func chat(_ input: inout FuzzInput) -> String {
        if input.byte() % 2 == 0, !scenario.chatNames.isEmpty {
            return scenario.chatNames[Int(input.byte()) % scenario.chatNames.count]
        }
        return name(&input) + "+" + name(&input)
    }

    /// A duration: small, negative, or at the edges of Int64 nanoseconds.
    func duration(_ input: inout FuzzInput) -> SimDuration {
        switch input.byte() % 8 {
        case 0: .zero
        case 1: SimDuration(nanoseconds: .max)
        case 2: SimDuration(nanoseconds: .min)
        case 3: SimDuration(nanoseconds: .max / 2 + Int64(input.byte()))
        case 4: SimDuration.milliseconds(-Int64(input.uint16()))
        case 5: SimDuration.seconds(Int64(input.uint16()))
        default: SimDuration.milliseconds(Int64(input.uint16()))
        }
    }

    /// A count: small, zero, negative or extreme.
    func count(_ input: inout FuzzInput) -> Int {
        switch input.byte() % 6 {
        case 0: 0
        case 1: -Int(input.byte())
        case 2: .max
        case 3: .min
        default: Int(input.byte())
        }
    }

    /// A rate or probability: in range, out of range, NaN or infinite.
    func rate(_ input: inout FuzzInput) -> Double {
        switch input.byte() % 6 {
        case 0: .nan
        case 1: .infinity
        case 2: -Double(input.byte()) / 100
        case 3: Double(input.uint16()) / 100
        default: Double(input.byte() % 101) / 100
        }
    }

    func parameterValue(_ input: inout FuzzInput) -> ParameterValue {
        switch input.byte() % 5 {
        case 0: .int(count(&input))
        case 1: .double(rate(&input))
        case 2: .duration(duration(&input))
        case 3: .bool(input.byte() % 2 == 0)
        default: .string(name(&input))
        }
    }

    func action(_ input: inout FuzzInput) -> Action {
        let client = name(&input)
        switch input.byte() % 16 {
        case 0: return .openChat(client: client, chat: chat(&input))
        case 1: return .scroll(client: client, chat: chat(&input), direction: input.byte() % 2 == 0 ? .up : .down,
                               messages: count(&input))
        case 2: return .sendText(client: client, chat: chat(&input), text: name(&input))
        case 3: return .sendPhoto(client: client, chat: chat(&input), bytes: count(&input), caption: "")
        case 4: return .sendPhotos(client: client, chat: chat(&input), count: count(&input), bytes: count(&input),
                                   caption: "")
        case 5: return .outage(client: client, duration: duration(&input),
                               mode: input.byte() % 2 == 0 ? .silently : .withReset)
        case 6: return .lossBurst(client: client, duration: duration(&input), lossRate: rate(&input))
        case 7: return .delaySpike(client: client, extraDelay: duration(&input), duration: duration(&input))
        case 8: return .changeProfile(client: client, profile: ProfileName(rawValue: name(&input)))
        case 9: return .serverRestart(downtime: duration(&input))
        case 10: return .delayResponses(opcode: opcode(&input), extraDelay: duration(&input),
                                        duration: duration(&input))
        case 11: return .loseResponses(opcode: opcode(&input), count: count(&input))
        case 12: return .pushLoss(client: input.byte() % 2 == 0 ? nil : client, probability: rate(&input),
                                  duration: duration(&input))
        case 13: return .capLogin(chats: count(&input))
        case 14: return .skewClock(client: client, offset: duration(&input))
        default:
            let moment: Moment = input.byte() % 2 == 0 ? .time(duration(&input)) : .step(name(&input))
            return .holdResponses(opcode: opcode(&input), client: client, until: moment)
        }
    }

    func opcode(_ input: inout FuzzInput) -> Opcode { Self.opcodes[Int(input.byte()) % Self.opcodes.count] }

    func timing(_ input: inout FuzzInput) -> StepTiming {
        switch input.byte() % 4 {
        case 0: return .at(duration(&input))
        case 1: return .afterPrevious(duration(&input))
        case 2:
            let labels = scenario.stepLabels
            let label = labels.isEmpty || input.byte() % 4 == 0 ? name(&input)
                : labels[Int(input.byte()) % labels.count]
            return .after(duration(&input), step: label)
        default:
            return .when(.connected(name(&input)))
        }
    }

    /// Applies the edit the next record describes.
    mutating func edit(_ input: inout FuzzInput) {
        let operation = input.byte()
        let clientIndex = scenario.clients.isEmpty ? nil : Int(input.byte()) % scenario.clients.count
        let stepIndex = scenario.steps.isEmpty ? nil : Int(input.byte()) % scenario.steps.count
        let chatIndex = scenario.chats.isEmpty ? nil : Int(input.byte()) % scenario.chats.count
        switch operation % 22 {
        case 0: if let clientIndex { scenario.clients[clientIndex].name = name(&input) }
        case 1: if let clientIndex { scenario.clients[clientIndex].user = input.byte() % 3 == 0 ? nil : name(&input) }
        case 2: if let clientIndex { scenario.clients.remove(at: clientIndex) }
        case 3: if let clientIndex { scenario.clients.append(scenario.clients[clientIndex]) }
        case 4:
            if let clientIndex {
                scenario.clients[clientIndex].profile = ProfileName(
                    rawValue: Self.profiles[Int(input.byte()) % Self.profiles.count])
            }
        case 5:
            if let clientIndex {
                let key = Self.clientParameters[Int(input.byte()) % Self.clientParameters.count]
                scenario.clients[clientIndex].parameters[key] = parameterValue(&input)
            }
        case 6: if let clientIndex { scenario.clients[clientIndex].mutant = input.byte() % 2 == 0 ? nil : name(&input) }
        case 7:
            let key = Self.serverParameters[Int(input.byte()) % Self.serverParameters.count]
            scenario.server.parameters[key] = parameterValue(&input)
        case 8: scenario.server.history.append(ChatHistorySeed(chat: chat(&input), messages: count(&input)))
        case 9: scenario.server.clockOffset = duration(&input)
        case 10:
            if let chatIndex {
                var members = scenario.chats[chatIndex].members
                if !members.isEmpty, input.byte() % 2 == 0 {
                    members[Int(input.byte()) % members.count] = name(&input)
                } else {
                    members.append(name(&input))
                }
                scenario.chats[chatIndex].members = members
            }
        case 11: scenario.chats.append(ChatSpec(name: name(&input), members: [name(&input), name(&input)]))
        case 12: if let stepIndex { scenario.steps[stepIndex].timing = timing(&input) }
        case 13:
            if let stepIndex { scenario.steps[stepIndex].label = input.byte() % 3 == 0 ? nil : name(&input) }
        case 14: if let stepIndex { scenario.steps[stepIndex].action = action(&input) }
        case 15:
            scenario.steps.insert(Step(timing: timing(&input), action: action(&input), location: .generated),
                                  at: stepIndex ?? 0)
        case 16: if let stepIndex { scenario.steps.remove(at: stepIndex) }
        case 17:
            scenario.expectations.eventually.append(Eventually(
                within: duration(&input), after: input.byte() % 2 == 0 ? nil : name(&input),
                .serverMessageCount(chat: chat(&input), count: count(&input))))
        case 18:
            scenario.expectations.eventually.append(Eventually(
                within: duration(&input), .historyComplete(client: name(&input), chat: chat(&input))))
        case 19: scenario.runLength = duration(&input)
        case 20: if input.byte() % 2 == 0 { scenario.seeds = [] } else { scenario.seeds.append(UInt64.max) }
        default: scenario.name = name(&input)
        }
    }
}

runFuzzer(fuzzDSL)
