/// Maps a `ClientSpec`'s DSL parameters onto `ClientParameters` and the world's per-client codec settings.
///
/// Names are `ClientParameters`' own (`historyPageSize`, `prefetchDistance`, `requestTimeout`, `initialSeq`, ...)
/// plus `compressionThresholdBytes` for the client's frame encoder. An unknown name is an error listing the valid
/// ones.
struct ClientSetup {
    var parameters: ClientParameters
    var compressionThresholdBytes = FrameEncoder.defaultCompressionThresholdBytes

    /// Every parameter name a `ClientSpec` may set, sorted.
    static let validNames: [String] = [
        "backoffBase", "backoffCap", "backoffFactor", "backoffJitter", "compressionThresholdBytes",
        "connectTimeout", "historyPageSize", "initialSeq", "loginChatsCount", "maxConcurrentUploads",
        "maxTaskAttempts", "photoProcessingTime", "pingInterval", "pongTimeout", "prefetchDistance", "requestTimeout",
        "seqModulus", "taskRetryBase", "taskRetryCap", "visibleMessageCount",
    ]

    init(_ spec: ClientSpec, token: String) throws {
        parameters = ClientParameters(token: token, deviceId: "device-\(spec.name)")
        let owner = "client '\(spec.name)'"
        if let name = spec.mutant {
            guard let mutant = SyncClient.Mutant(rawValue: name) else {
                throw WorldError.unknownMutant(name, client: spec.name)
            }
            parameters.mutant = mutant
        }
        for entry in spec.parameters.entries {
            let value = entry.value
            func int() throws -> Int {
                guard let number = value.intValue else {
                    throw WorldError.badParameterValue(
                        entry.key, owner: owner, expected: "an integer", found: "\(value)")
                }
                return number
            }
            /// A duration no shorter than `syncsim sweep` takes for the parameter (`SweepParameter`'s lower bound):
            /// a ping interval or a retry delay of zero schedules the engine again at the same instant for ever,
            /// a request timeout of zero fails every request before it leaves.
            func duration() throws -> SimDuration {
                guard let span = value.durationValue else {
                    throw WorldError.badParameterValue(
                        entry.key, owner: owner, expected: "a duration (.duration(.seconds(20)))", found: "\(value)")
                }
                if case .duration(let range)? = SweepParameter.all.first(where: { $0.name == entry.key })?.kind,
                   span < range.lowerBound {
                    throw WorldError.badParameterValue(
                        entry.key, owner: owner, expected: "a duration of at least \(range.lowerBound)",
                        found: "\(value)")
                }
                return span
            }
            func int(atLeast lowest: Int) throws -> Int {
                let number = try int()
                guard number >= lowest else {
                    throw WorldError.badParameterValue(entry.key, owner: owner, expected: "an integer >= \(lowest)",
                                                       found: "\(value)")
                }
                return number
            }
            func double(in range: ClosedRange<Double>) throws -> Double {
                let number: Double
                switch value {
                case .double(let found): number = found
                case .int(let found): number = Double(found)
                default:
                    throw WorldError.badParameterValue(
                        entry.key, owner: owner, expected: "a number", found: "\(value)")
                }
                // NaN fails `contains` too.
                guard range.contains(number) else {
                    throw WorldError.badParameterValue(entry.key, owner: owner,
                                                       expected: "a number in \(range.lowerBound)...\(range.upperBound)",
                                                       found: "\(value)")
                }
                return number
            }
            switch entry.key {
            case "backoffBase": parameters.backoffBase = try duration()
            case "backoffCap": parameters.backoffCap = try duration()
            case "backoffFactor": parameters.backoffFactor = try double(in: 1...1_000)
            case "backoffJitter": parameters.backoffJitter = try double(in: 0...1)
            case "compressionThresholdBytes": compressionThresholdBytes = try int(atLeast: 0)
            case "connectTimeout": parameters.connectTimeout = try duration()
            case "historyPageSize": parameters.historyPageSize = try int(atLeast: 1)
            case "initialSeq": parameters.initialSeq = try int(atLeast: 0)
            case "loginChatsCount": parameters.loginChatsCount = try int(atLeast: 0)
            case "maxConcurrentUploads": parameters.maxConcurrentUploads = try int(atLeast: 1)
            case "maxTaskAttempts": parameters.maxTaskAttempts = try int(atLeast: 1)
            case "photoProcessingTime": parameters.photoProcessingTime = try duration()
            case "pingInterval": parameters.pingInterval = try duration()
            case "pongTimeout": parameters.pongTimeout = try duration()
            case "prefetchDistance": parameters.prefetchDistance = try int(atLeast: 0)
            case "requestTimeout": parameters.requestTimeout = try duration()
            case "seqModulus":
                let modulus = try int()
                guard (2...65_536).contains(modulus) else {
                    throw WorldError.badParameterValue(entry.key, owner: owner, expected: "2...65536 (256, 65536)",
                                                       found: "\(value)")
                }
                parameters.seqModulus = modulus
            case "taskRetryBase": parameters.taskRetryBase = try duration()
            case "taskRetryCap": parameters.taskRetryCap = try duration()
            case "visibleMessageCount": parameters.visibleMessageCount = try int(atLeast: 1)
            default:
                throw WorldError.unknownParameter(entry.key, owner: owner, valid: Self.validNames)
            }
        }
    }
}
