extension SweepParameter {
    /// Two parameters whose values only make sense in one order: `lower` below `upper`, or equal to it unless
    /// `isStrict`.
    public struct Ordering: Hashable, Sendable {
        /// The parameter that must be the smaller (`initialSeq`, `taskRetryBase`).
        public var lower: String
        /// The parameter that bounds it (`seqModulus`, `taskRetryCap`).
        public var upper: String
        /// Whether equal values contradict each other too.
        public var isStrict: Bool
        /// Why, for the error: `initialSeq must be below seqModulus (seqs run 0...seqModulus-1)`.
        public var reason: String
    }

    /// The pairs a command refuses when its values contradict each other. The engine would not fail on them, it
    /// would silently run something else: `RequestTracker` takes `initialSeq` modulo `seqModulus`, and a first
    /// retry or reconnect delay above its cap is cut to the cap, so the base would have no effect.
    public static let orderings: [Ordering] = [
        Ordering(lower: "initialSeq", upper: "seqModulus", isStrict: true,
                 reason: "initialSeq must be below seqModulus (seqs run 0...seqModulus-1)"),
        Ordering(lower: "taskRetryBase", upper: "taskRetryCap", isStrict: false,
                 reason: "the first task retry delay cannot exceed its cap"),
        Ordering(lower: "backoffBase", upper: "backoffCap", isStrict: false,
                 reason: "the first reconnect delay cannot exceed its cap"),
    ]

    /// Checks the values given on the command line against each other and against the values in effect for the
    /// parameters not given; a pair is checked only when at least one of its values was given.
    /// - Parameters:
    ///   - given: the values given (`--param NAME=VALUE`, or one combination of a sweep's axes).
    ///   - otherwise: the value in effect for a parameter not given, with where it comes from for the error
    ///     (`scenario client 'alice'`); nil for the engine's default.
    /// - Throws: `SweepError` naming both parameters, their values and the rule: `parameters initialSeq=300 and
    ///   seqModulus=256 (scenario client 'alice') contradict each other: initialSeq must be below seqModulus ...`.
    public static func requireConsistent(
        _ given: ParameterSet,
        otherwise: (String) -> (value: ParameterValue, origin: String)? = { _ in nil }
    ) throws {
        func setting(_ name: String) -> (value: ParameterValue, origin: String?)? {
            if let value = given[name] { return (value, nil) }
            if let found = otherwise(name) { return (found.value, found.origin) }
            guard let parameter = all.first(where: { $0.name == name }),
                let value = try? parameter.parse(parameter.defaultValue)
            else { return nil }
            return (value, "default")
        }
        for ordering in orderings where given[ordering.lower] != nil || given[ordering.upper] != nil {
            guard let lower = setting(ordering.lower), let upper = setting(ordering.upper),
                let low = magnitude(lower.value), let high = magnitude(upper.value)
            else { continue }
            guard ordering.isStrict ? low >= high : low > high else { continue }
            func spelled(_ name: String, _ found: (value: ParameterValue, origin: String?)) -> String {
                "\(name)=\(found.value)" + (found.origin.map { " (\($0))" } ?? "")
            }
            throw SweepError.invalid(
                "parameters \(spelled(ordering.lower, lower)) and \(spelled(ordering.upper, upper)) contradict each "
                    + "other: \(ordering.reason)")
        }
    }

    /// A value on one scale for comparing two parameters of one kind: an integer, a fraction, or nanoseconds.
    private static func magnitude(_ value: ParameterValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        case .duration(let span): Double(span.nanoseconds)
        case .bool, .string: nil
        }
    }
}
