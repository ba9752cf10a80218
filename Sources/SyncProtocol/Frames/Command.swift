/// A frame's `cmd` field: what kind of frame it is (DESIGN.md §3).
public enum Command: UInt16, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Client to server; expects a response with the same seq.
    case request = 0
    /// Server to client; answers the request with the same seq.
    case response = 1
    /// Server to client, unsolicited (an event such as NOTIF_MESSAGE).
    case push = 2
    /// Server to client; answers the request with the same seq with an error payload.
    case error = 3

    public var description: String {
        switch self {
        case .request: "request"
        case .response: "response"
        case .push: "push"
        case .error: "error"
        }
    }
}
