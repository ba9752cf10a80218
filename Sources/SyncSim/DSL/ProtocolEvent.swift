/// A protocol event a `When` step waits for, counted per run: the `k`th occurrence (`.nth(k)`, 1 by default) fires
/// the step's actions at that virtual instant.
///
/// Where each event is observed, and so which state the actions see:
/// - `.server(receives:from:)`: a request reached the server, *before* the server processes it (a post made now is
///   stored before the request is handled, so a LOGIN answered now lists it);
/// - `.server(answers:to:)`: the server sent its response (or error) to that request, *after* it processed it;
/// - `.client(_:receives:_:)`: a packet reached the client, *after* its engine handled it;
/// - `.connected(_:)`, `.disconnected(_:)`: the client's chat connection was established or broke, after the engine
///   was told.
///
/// ```swift
/// When(.server(receives: .login, from: "bob").nth(2)) { PostFromOtherDevice("alice", text: "race", in: "alice+bob") }
/// ```
public struct ProtocolEvent: Hashable, Sendable, CustomStringConvertible {
    /// What is observed.
    public enum Kind: Hashable, Sendable {
        /// A request of `opcode` reached the server from `client` (any client when nil), before processing.
        case serverReceives(opcode: Opcode, client: String?)
        /// The server sent its response or error for an `opcode` request of `client` (any when nil).
        case serverAnswers(opcode: Opcode, client: String?)
        /// `client` received a packet of `opcode` and `command` (any command when nil), after its engine handled it.
        case clientReceives(client: String, opcode: Opcode, command: Command?)
        /// `client`'s chat connection was established.
        case connected(client: String)
        /// `client`'s chat connection closed or broke.
        case disconnected(client: String)
    }

    /// What is observed.
    public var kind: Kind
    /// Which occurrence fires the step, counting from 1.
    public var occurrence: Int

    /// Creates the trigger for occurrence `occurrence` (from 1) of `kind`.
    public init(_ kind: Kind, occurrence: Int = 1) {
        self.kind = kind
        self.occurrence = occurrence
    }

    /// A request of `opcode` reaching the server from `client` (any client when nil), before processing.
    public static func server(receives opcode: Opcode, from client: String? = nil) -> ProtocolEvent {
        ProtocolEvent(.serverReceives(opcode: opcode, client: client))
    }

    /// The server answering an `opcode` request of `client` (any client when nil), after processing.
    public static func server(answers opcode: Opcode, to client: String? = nil) -> ProtocolEvent {
        ProtocolEvent(.serverAnswers(opcode: opcode, client: client))
    }

    /// `client` receiving a packet of `opcode` and `command` (any command when nil), after its engine handled it:
    /// `.client("alice", receives: .msgSend, .response)`.
    public static func client(_ client: String, receives opcode: Opcode, _ command: Command? = nil) -> ProtocolEvent {
        ProtocolEvent(.clientReceives(client: client, opcode: opcode, command: command))
    }

    /// `client`'s chat connection being established.
    public static func connected(_ client: String) -> ProtocolEvent { ProtocolEvent(.connected(client: client)) }

    /// `client`'s chat connection closing or breaking.
    public static func disconnected(_ client: String) -> ProtocolEvent {
        ProtocolEvent(.disconnected(client: client))
    }

    /// The same event, firing at its `k`th occurrence (from 1) instead of the first.
    public func nth(_ k: Int) -> ProtocolEvent { ProtocolEvent(kind, occurrence: k) }

    /// The client the event is about, or nil for any client.
    public var client: String? {
        switch kind {
        case .serverReceives(_, let client), .serverAnswers(_, let client): client
        case .clientReceives(let client, _, _), .connected(let client), .disconnected(let client): client
        }
    }

    /// `LOGIN request from bob reaches the server (2nd)`.
    public var description: String {
        let what = switch kind {
        case .serverReceives(let opcode, let client): "\(opcode) request from \(client ?? "any client") reaches the server"
        case .serverAnswers(let opcode, let client): "server answers \(opcode) of \(client ?? "any client")"
        case .clientReceives(let client, let opcode, let command):
            "\(client) receives \(opcode)\(command.map { " \($0)" } ?? "")"
        case .connected(let client): "\(client) connects"
        case .disconnected(let client): "\(client) disconnects"
        }
        return occurrence == 1 ? what : "\(what) (occurrence \(occurrence))"
    }
}
