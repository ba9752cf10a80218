/// What a timeline step does: a user action on one client, or a fault injected into the network or server.
///
/// Plain data, so a scenario can be printed back as DSL code and shrunk. Durations are virtual time.
public enum Action: Hashable, Sendable {
    // MARK: User actions

    /// The user opens `chat` on `client` (the engine loads the newest page of history).
    case openChat(client: String, chat: String)
    /// The user scrolls `chat` by `messages` messages in `direction`.
    case scroll(client: String, chat: String, direction: ScrollDirection, messages: Int)
    /// The user sends a text message (the engine enqueues a send-text task).
    case sendText(client: String, chat: String, text: String)
    /// The user sends a photo of `bytes` bytes (process, upload to the CDN, then send the message).
    case sendPhoto(client: String, chat: String, bytes: Int, caption: String)
    /// The user sends one message with `count` photos of `bytes` bytes each (each processed and uploaded, then the
    /// message).
    case sendPhotos(client: String, chat: String, count: Int, bytes: Int, caption: String)
    /// The app goes to the background (the OS may suspend its socket).
    case background(client: String)
    /// The app comes back to the foreground.
    case foreground(client: String)
    /// The app is closed cleanly and reopened from its database.
    case restartApp(client: String)
    /// The app dies at once: whatever was not committed to its database is lost; it is reopened.
    case crashApp(client: String)
    /// The user reads `chat` up to its newest cached message (the engine sends CHAT_MARK as it sees fit).
    case markRead(client: String, chat: String)
    /// The user leaves `chat` (nothing happens when another chat, or none, is open).
    case closeChat(client: String, chat: String)
    /// The user posts `text` into `chat` from a device outside the simulation (a web client): the server stores it
    /// at once and pushes it to every connected member's device, the poster's included.
    case postFromOtherDevice(client: String, chat: String, text: String)
    /// A checkpoint: `condition` must hold at this instant. No side effect.
    case check(Condition)
    /// Another device of the user edits the user's newest message in `chat` to `text` (MSG_EDIT; the chat's
    /// connected members get a NOTIF_MESSAGE with `status` EDITED).
    case editMessage(client: String, chat: String, text: String)
    /// Another device of the user deletes the user's newest message in `chat` (MSG_DELETE; the chat's connected
    /// members get a NOTIF_MSG_DELETE).
    case deleteMessage(client: String, chat: String)

    // MARK: Faults

    /// The client's access link stops carrying packets until `linkUp`, silently or with a RST to both ends.
    case linkDown(client: String, mode: DisconnectMode)
    /// The client's access link carries packets again.
    case linkUp(client: String)
    /// The link is down for `duration`, then up again.
    case outage(client: String, duration: SimDuration, mode: DisconnectMode)
    /// Each packet in either direction is lost with probability `lossRate` (0...1) for `duration`.
    case lossBurst(client: String, duration: SimDuration, lossRate: Double)
    /// Each direction's one-way delay grows by `extraDelay` for `duration` (RFC 3481 §2.4: delay spikes).
    case delaySpike(client: String, extraDelay: SimDuration, duration: SimDuration)
    /// The link keeps accepting packets but delivers none until `release` (a deep buffer that does not drain).
    case clog(client: String)
    /// A clogged link delivers what it holds and works again.
    case release(client: String)
    /// The client moves to another link profile (a handover such as Wi-Fi to EDGE); connections survive.
    case changeProfile(client: String, profile: ProfileName)
    /// The client's current connections go half-open: their packets vanish, no side sees a FIN or RST
    /// (NAT rebinding). New connections work.
    case halfOpen(client: String)
    /// The server restarts: every connection drops, stored data stays; it accepts again after `downtime`.
    case serverRestart(downtime: SimDuration)
    /// Responses to `opcode` requests (of `client`, every client's when nil) arriving within `duration` wait
    /// `extraDelay` more before they leave, so later requests can be answered first (out-of-order responses).
    case delayResponses(opcode: Opcode, extraDelay: SimDuration, duration: SimDuration, client: String? = nil)
    /// The server handles the next `count` requests of `opcode` (of `client`, every client's when nil) but their
    /// responses are lost on the way back.
    case loseResponses(opcode: Opcode, count: Int, client: String? = nil)
    /// Pushes to `client` (every client when nil) are lost with probability `probability` for `duration`.
    case pushLoss(client: String?, probability: Double, duration: SimDuration)
    /// Pushes to `client` (every client when nil) are sent twice with probability `probability` for `duration`.
    case pushDuplication(client: String?, probability: Double, duration: SimDuration)
    /// The server answers the next `count` requests of `opcode` (of `client`, every client's when nil) with an error
    /// reply.
    case errorReplies(opcode: Opcode, count: Int, client: String? = nil)
    /// From now on one LOGIN lists at most `chats` changed chats (the server knob `loginChatsCap`; a gappy sync).
    case capLogin(chats: Int)
    /// The client's device clock moves by `offset` against server time (negative: behind).
    case skewClock(client: String, offset: SimDuration)
    /// Pushes to `client` leaving the server within `duration` are held `extraDelay` longer (pushes only; responses
    /// are untouched; their order is kept).
    case delayPushes(client: String, extraDelay: SimDuration, duration: SimDuration)
    /// The server processes `opcode` requests (of `client`, every client when nil) at once but holds their
    /// responses until `until`, then sends them in order.
    case holdResponses(opcode: Opcode, client: String?, until: Moment)
    /// The OS tells the app its network is lost or back (and the link goes down or up with it, silently).
    case connectivity(client: String, change: ConnectivityChange)

    /// Whether this is a fault (network or server) rather than something a user does.
    public var isFault: Bool {
        switch self {
        case .openChat, .scroll, .sendText, .sendPhoto, .sendPhotos, .background, .foreground, .restartApp,
            .crashApp, .markRead, .closeChat, .postFromOtherDevice, .check:
            false
        default: true
        }
    }

    /// The client this action is about, or nil for server-wide faults.
    public var client: String? {
        switch self {
        case .openChat(let client, _), .scroll(let client, _, _, _), .sendText(let client, _, _),
            .sendPhoto(let client, _, _, _), .sendPhotos(let client, _, _, _, _), .background(let client),
            .foreground(let client),
            .restartApp(let client), .crashApp(let client), .linkDown(let client, _), .linkUp(let client),
            .outage(let client, _, _), .lossBurst(let client, _, _), .delaySpike(let client, _, _),
            .clog(let client), .release(let client), .changeProfile(let client, _), .halfOpen(let client),
            .skewClock(let client, _), .markRead(let client, _), .closeChat(let client, _),
            .postFromOtherDevice(let client, _, _), .delayPushes(let client, _, _), .connectivity(let client, _),
            .editMessage(let client, _, _), .deleteMessage(let client, _):
            client
        case .pushLoss(let client, _, _), .pushDuplication(let client, _, _), .holdResponses(_, let client, _),
            .loseResponses(_, _, let client), .errorReplies(_, _, let client), .delayResponses(_, _, _, let client):
            client
        case .serverRestart, .capLogin, .check:
            nil
        }
    }

    /// The chat this action is about, or nil.
    public var chat: String? {
        switch self {
        case .openChat(_, let chat), .scroll(_, let chat, _, _), .sendText(_, let chat, _),
            .sendPhoto(_, let chat, _, _), .sendPhotos(_, let chat, _, _, _), .markRead(_, let chat),
            .closeChat(_, let chat), .postFromOtherDevice(_, let chat, _), .editMessage(_, let chat, _),
            .deleteMessage(_, let chat):
            chat
        default: nil
        }
    }

    /// How long the fault lasts, for faults with a duration; the shrinker shortens these.
    public var duration: SimDuration? {
        switch self {
        case .outage(_, let duration, _), .lossBurst(_, let duration, _), .delaySpike(_, _, let duration),
            .delayResponses(_, _, let duration, _), .pushLoss(_, _, let duration),
            .pushDuplication(_, _, let duration), .delayPushes(_, _, let duration):
            duration
        case .serverRestart(let downtime): downtime
        default: nil
        }
    }

    /// The same action with its duration replaced (unchanged when it has none).
    public func withDuration(_ newDuration: SimDuration) -> Action {
        switch self {
        case .outage(let client, _, let mode): .outage(client: client, duration: newDuration, mode: mode)
        case .lossBurst(let client, _, let rate): .lossBurst(client: client, duration: newDuration, lossRate: rate)
        case .delaySpike(let client, let extra, _):
            .delaySpike(client: client, extraDelay: extra, duration: newDuration)
        case .delayResponses(let opcode, let extra, _, let client):
            .delayResponses(opcode: opcode, extraDelay: extra, duration: newDuration, client: client)
        case .pushLoss(let client, let probability, _):
            .pushLoss(client: client, probability: probability, duration: newDuration)
        case .pushDuplication(let client, let probability, _):
            .pushDuplication(client: client, probability: probability, duration: newDuration)
        case .serverRestart: .serverRestart(downtime: newDuration)
        case .delayPushes(let client, let extra, _):
            .delayPushes(client: client, extraDelay: extra, duration: newDuration)
        default: self
        }
    }
}

/// Which way the user scrolls a chat.
public enum ScrollDirection: String, Hashable, Sendable {
    /// Towards older messages.
    case up
    /// Towards newer messages.
    case down
}

/// How a link going down shows up to the connections over it.
public enum DisconnectMode: String, Hashable, Sendable {
    /// Packets vanish; both ends notice only by their own timeouts.
    case silently
    /// Both ends receive a RST at once (the radio reports the loss, a middlebox resets the flow).
    case withReset
}

/// What the OS tells an app about its network (iOS `NWPathMonitor`, Android `ConnectivityManager` callbacks).
public enum ConnectivityChange: String, Hashable, Sendable {
    /// No usable network: the app should stop trying until it is back.
    case lost
    /// A network is usable again: the app may reconnect at once.
    case restored
}
