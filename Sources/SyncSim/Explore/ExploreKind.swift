/// A kind of timeline step the explorer generates, one switch of swarm testing: a whole kind is on or off in a run.
///
/// User kinds are things people do with the app; fault kinds break the network or the server. The raw values are
/// the names `syncsim explore` prints in its coverage summary.
public enum ExploreKind: String, CaseIterable, Hashable, Comparable, Sendable {
    // MARK: User actions
    /// Open a chat (`OpenChat`).
    case openChat
    /// Scroll towards older messages, sometimes to the start of history (`ScrollUp`).
    case scrollUp
    /// Scroll towards newer messages (`ScrollDown`).
    case scrollDown
    /// Send a text (`Send`).
    case sendText
    /// Send a photo (`SendPhoto`).
    case sendPhoto
    /// Send one message with 2 to 4 photos (`SendPhotos`); an `Always(.photosComplete)` checks it goes out whole.
    case sendPhotos
    /// Background the app, then foreground it again (`Background`, `Foreground`).
    case background
    /// Close and reopen the app cleanly (`RestartApp`).
    case restartApp
    /// Kill the app (`CrashApp`).
    case crashApp
    /// Read a chat up to its newest message (`MarkRead`).
    case markRead
    /// Leave a chat (`CloseChat`).
    case closeChat
    /// Post from a device outside the simulation (`PostFromOtherDevice`).
    case postFromOtherDevice
    /// Edit a user's newest message of a chat from another device (`EditMessage`).
    case editMessage
    /// Delete a user's newest message of a chat from another device (`DeleteMessage`).
    case deleteMessage

    // MARK: Faults
    /// The link goes down silently, then up (`LinkDown` for a time, or `LinkDown` and `LinkUp`).
    case linkDown
    /// The link goes down with a RST to both ends, then up.
    case linkReset
    /// A burst of random loss (`LossBurst`).
    case lossBurst
    /// A delay spike (`DelaySpike`).
    case delaySpike
    /// A deep buffer that stops draining, then releases (`Clog`, `Release`).
    case clog
    /// A handover to another profile, offline included, and back (`Handover`).
    case handover
    /// The client's connections go half-open (`HalfOpen`).
    case halfOpen
    /// The server restarts (`ServerRestart`).
    case serverRestart
    /// Responses to one opcode are held back (`DelayResponses`).
    case delayResponses
    /// A few responses are lost after the server acted (`LoseResponses`).
    case loseResponses
    /// A few requests get error replies (`ErrorReplies`).
    case errorReplies
    /// Pushes are lost (`PushLoss`).
    case pushLoss
    /// Pushes are sent twice (`PushDuplication`).
    case pushDuplication
    /// LOGIN lists only a few changed chats, until the cap is lifted before the quiet tail (`CapLogin`).
    case capLogin
    /// A device clock jumps (`SkewClock`).
    case skewClock
    /// Pushes to a client are held back (`DelayPushes`).
    case delayPushes
    /// Responses to one opcode are held until a later instant, then sent in order (`HoldResponses`).
    case holdResponses
    /// The OS reports the network lost, then restored (`Connectivity`).
    case connectivity
    /// For one period the server answers every MSG_SEND at once with an error (server parameters
    /// `msgSendErrorsFrom`/`msgSendErrorsUntil`), with a send inside it; a `requests` bound per client that only a
    /// task retry backoff keeps.
    case sendErrors
    /// History pages show edits and deletes late, as a lagging read replica (server parameter `historyEditLag`) for
    /// the whole run: a change pushed before its message is cached must survive a stale page (C7).
    case editLag
    /// The server rejects every LOGIN for the whole run: no liveness then, but a bound on login attempts that only
    /// a growing reconnect backoff keeps (`ErrorReplies(to: .login, ...)` from the start, `MetricBound`).
    case loginStorm

    /// Whether the kind is a fault rather than a user action.
    public var isFault: Bool {
        switch self {
        case .openChat, .scrollUp, .scrollDown, .sendText, .sendPhoto, .sendPhotos, .background, .restartApp,
            .crashApp, .markRead, .closeChat, .postFromOtherDevice, .editMessage, .deleteMessage:
            false
        default: true
        }
    }

    /// The user-action kinds, in declaration order.
    public static var userKinds: [ExploreKind] { allCases.filter { !$0.isFault } }

    /// The fault kinds, in declaration order.
    public static var faultKinds: [ExploreKind] { allCases.filter(\.isFault) }

    public static func < (lhs: ExploreKind, rhs: ExploreKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

extension Action {
    /// The DSL call's name (`Send`, `LinkDown`, `Handover`): what coverage counts and failure signatures use, so
    /// an action added to the DSL later is counted without a table to update.
    public var dslName: String {
        let source = Scenario.actionSource(self)
        return String(source.prefix { $0 != "(" })
    }
}
