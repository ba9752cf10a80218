/// Why a world could not be built from a scenario: a name the world does not know, or a timeline that does not
/// resolve.
public struct WorldError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case unknownParameter(String, owner: String, valid: [String])
        case badParameterValue(String, owner: String, expected: String, found: String)
        case unknownProfile(String, client: String)
        case unknownMutant(String, client: String)
        case unresolvableTimeline(String)
        case database(String, client: String)
    }

    private let code: Code

    static func unknownParameter(_ name: String, owner: String, valid: [String]) -> WorldError {
        WorldError(code: .unknownParameter(name, owner: owner, valid: valid))
    }

    static func badParameterValue(_ name: String, owner: String, expected: String, found: String) -> WorldError {
        WorldError(code: .badParameterValue(name, owner: owner, expected: expected, found: found))
    }

    static func unknownProfile(_ name: String, client: String) -> WorldError {
        WorldError(code: .unknownProfile(name, client: client))
    }

    static func unknownMutant(_ name: String, client: String) -> WorldError {
        WorldError(code: .unknownMutant(name, client: client))
    }

    static func unresolvableTimeline(_ detail: String) -> WorldError { WorldError(code: .unresolvableTimeline(detail)) }

    static func database(_ detail: String, client: String) -> WorldError {
        WorldError(code: .database(detail, client: client))
    }

    public var description: String {
        switch code {
        case .unknownParameter(let name, let owner, let valid):
            "\(owner): unknown parameter '\(name)' (valid: \(valid.joined(separator: ", ")))"
        case .badParameterValue(let name, let owner, let expected, let found):
            "\(owner): parameter '\(name)' expects \(expected), found \(found)"
        case .unknownProfile(let name, let client):
            "client '\(client)': unknown link profile '\(name)' (valid: "
                + LinkProfile.catalog.map(\.name).joined(separator: ", ") + ")"
        case .unknownMutant(let name, let client):
            "client '\(client)': unknown mutant '\(name)' (valid: "
                + SyncClient.Mutant.allCases.map(\.rawValue).joined(separator: ", ") + ")"
        case .unresolvableTimeline(let detail):
            "the timeline does not resolve: \(detail)"
        case .database(let detail, let client):
            "client \(client): cannot open its database: \(detail)"
        }
    }
}
