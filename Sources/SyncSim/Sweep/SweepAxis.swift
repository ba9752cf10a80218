/// One varied parameter of a sweep and its values, in the order given (`--param historyPageSize=10,30,50`).
public struct SweepAxis: Hashable, Sendable {
    /// The parameter.
    public var parameter: SweepParameter
    /// Its values, in the order given, each once.
    public var values: [ParameterValue]

    /// An axis of already parsed values.
    public init(parameter: SweepParameter, values: [ParameterValue]) {
        self.parameter = parameter
        self.values = values
    }

    /// Parses `NAME=V1,V2,...`.
    /// - Throws: `SweepError` for a missing `=`, an unknown name, an empty, repeated or out-of-range value.
    public init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "=") else {
            throw SweepError.invalid("--param '\(text)': expected NAME=V1,V2,... (e.g. historyPageSize=10,30,50)")
        }
        parameter = try SweepParameter.named(String(text[..<equals]))
        let list = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
        values = []
        for item in list {
            let value = try parameter.parse(String(item))
            if values.contains(value) {
                throw SweepError.invalid("parameter \(parameter.name): value '\(item)' given twice")
            }
            values.append(value)
        }
    }
}
