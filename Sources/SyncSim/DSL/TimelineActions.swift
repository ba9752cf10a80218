// The action words of a timeline, one small struct each, wrapping an `Action` with its source location.
// Kept together: each is three lines of sugar; `Action` documents what they do.

/// Something an `At` or `After` group can hold.
public protocol TimelineAction: Sendable {
    /// The action with its label and source location.
    var item: ActionItem { get }
}

extension TimelineAction {
    /// The same action with a label, so later steps can say `After(.seconds(2), step: label)`.
    public func named(_ label: String) -> ActionItem {
        var item = self.item
        item.label = label
        return item
    }
}

/// An action with its optional label and where it was written.
public struct ActionItem: TimelineAction, Hashable {
    /// What the step does.
    public var action: Action
    /// A name other steps can anchor to, or nil.
    public var label: String?
    /// Where it was written.
    public var location: SourceLocation

    /// Wraps `action` with an optional `label` and the source `location` where it was written.
    public init(_ action: Action, label: String? = nil, location: SourceLocation) {
        self.action = action
        self.label = label
        self.location = location
    }

    /// Itself.
    public var item: ActionItem { self }
}

/// The client's access link goes down, until `LinkUp` or for `duration`, silently or with a RST:
/// `LinkDown("alice", for: .seconds(8))`.
public struct LinkDown: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Takes `client`'s link down until `LinkUp`, or for `duration` when given, in `mode`; call site recorded.
    public init(
        _ client: String,
        for duration: SimDuration? = nil,
        _ mode: DisconnectMode = .silently,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        let action: Action = if let duration {
            .outage(client: client, duration: duration, mode: mode)
        } else {
            .linkDown(client: client, mode: mode)
        }
        item = ActionItem(action, location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The user opens a chat: `OpenChat("alice", "alice+bob")`.
public struct OpenChat: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Opens `chat` (a chat's name) on `client` (a client's name); `fileID` and `line` record the call site.
    public init(_ client: String, _ chat: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.openChat(client: client, chat: chat), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The user scrolls towards older messages: `ScrollUp("alice", in: "alice+bob", messages: 60)`.
public struct ScrollUp: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Scrolls `chat` on `client` up by `messages` messages (a count); `fileID` and `line` record the call site.
    public init(_ client: String, in chat: String, messages: Int, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(
            .scroll(client: client, chat: chat, direction: .up, messages: messages),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The user scrolls towards newer messages.
public struct ScrollDown: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Scrolls `chat` on `client` down by `messages` messages (a count); `fileID` and `line` record the call site.
    public init(_ client: String, in chat: String, messages: Int, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(
            .scroll(client: client, chat: chat, direction: .down, messages: messages),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The user sends a text: `Send(from: "alice", text: "hi", in: "alice+bob")`.
public struct Send: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Sends `text` from `client` into `chat` (both names); `fileID` and `line` record the call site.
    public init(from client: String, text: String, in chat: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(
            .sendText(client: client, chat: chat, text: text),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The user sends a photo of `bytes` bytes: `SendPhoto(from: "alice", bytes: 180_000, in: "alice+bob")`.
public struct SendPhoto: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Sends a photo of `bytes` bytes with `caption` from `client` into `chat`; call site recorded.
    public init(
        from client: String,
        bytes: Int,
        caption: String = "",
        in chat: String,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        item = ActionItem(
            .sendPhoto(client: client, chat: chat, bytes: bytes, caption: caption),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The app goes to the background.
public struct Background: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Sends `client`'s app to the background; `fileID` and `line` record the call site.
    public init(_ client: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.background(client: client), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The app comes back to the foreground.
public struct Foreground: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Brings `client`'s app back to the foreground; `fileID` and `line` record the call site.
    public init(_ client: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.foreground(client: client), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The app is closed cleanly and reopened from its database.
public struct RestartApp: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Closes `client`'s app cleanly and reopens it from its database; `fileID` and `line` record the call site.
    public init(_ client: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.restartApp(client: client), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The app dies; what was not committed is lost; it is reopened.
public struct CrashApp: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Crashes `client`'s app and reopens it; `fileID` and `line` record the call site.
    public init(_ client: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.crashApp(client: client), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The client's access link works again.
public struct LinkUp: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Brings `client`'s access link back up; `fileID` and `line` record the call site.
    public init(_ client: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.linkUp(client: client), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// Packets are lost with probability `lossRate` (0...1) for a while: `LossBurst("alice", for: .seconds(5), lossRate:
/// 0.3)`.
public struct LossBurst: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Loses each packet of `client`'s link with probability `lossRate` (0...1) for `duration`; call site recorded.
    public init(
        _ client: String,
        for duration: SimDuration,
        lossRate: Double,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        item = ActionItem(
            .lossBurst(client: client, duration: duration, lossRate: lossRate),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// One-way delay grows by `extraDelay` for a while (RFC 3481 §2.4).
public struct DelaySpike: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Adds `extraDelay` to `client`'s one-way delay for `duration`; `fileID` and `line` record the call site.
    public init(
        _ client: String,
        by extraDelay: SimDuration,
        for duration: SimDuration,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        item = ActionItem(
            .delaySpike(client: client, extraDelay: extraDelay, duration: duration),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The link accepts packets but delivers none until `Release`.
public struct Clog: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Clogs `client`'s link until `Release`; `fileID` and `line` record the call site.
    public init(_ client: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.clog(client: client), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// A clogged link delivers what it holds and works again.
public struct Release: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Releases `client`'s clogged link; `fileID` and `line` record the call site.
    public init(_ client: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.release(client: client), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The client moves to another link profile (Wi-Fi to EDGE): `Handover("alice", to: .edge)`.
public struct Handover: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Moves `client` to the link profile `profile`; `fileID` and `line` record the call site.
    public init(_ client: String, to profile: ProfileName, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(
            .changeProfile(client: client, profile: profile),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The client's connections go half-open (NAT rebinding): packets vanish, no FIN or RST.
public struct HalfOpen: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Makes `client`'s connections half-open; `fileID` and `line` record the call site.
    public init(_ client: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.halfOpen(client: client), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The server restarts: connections drop, data stays; it accepts again after `downtime`.
public struct ServerRestart: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Restarts the server, accepting again after `downtime` (default zero); call site recorded.
    public init(downtime: SimDuration = .zero, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.serverRestart(downtime: downtime), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// Responses to `opcode` requests arriving within `duration` wait `extraDelay` more (out-of-order responses).
public struct DelayResponses: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Holds responses to `opcode` requests of `client` (every client's when nil) arriving within `duration` back by
    /// `extraDelay`; call site recorded. Server-wide, the delay replaces the server's processing delay for the
    /// opcode; for one client it is added to it (the other clients' requests are answered as before).
    public init(
        to opcode: Opcode,
        by extraDelay: SimDuration,
        for duration: SimDuration,
        of client: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        item = ActionItem(
            .delayResponses(opcode: opcode, extraDelay: extraDelay, duration: duration, client: client),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The server handles the next `count` requests of `opcode`, but their responses are lost.
public struct LoseResponses: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Loses the responses to the next `count` (default 1) `opcode` requests of `client` (every client's when nil);
    /// `fileID` and `line` record the call site.
    public init(to opcode: Opcode, count: Int = 1, of client: String? = nil, fileID: String = #fileID,
                line: Int = #line) {
        item = ActionItem(
            .loseResponses(opcode: opcode, count: count, client: client),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// Pushes to a client (all when nil) are lost with a probability for a while.
public struct PushLoss: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Loses pushes to `client` (every client when nil) with `probability` (0...1) for `duration`; call site recorded.
    public init(
        _ client: String? = nil,
        probability: Double,
        for duration: SimDuration,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        item = ActionItem(
            .pushLoss(client: client, probability: probability, duration: duration),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// Pushes to a client (all when nil) are sent twice with a probability for a while.
public struct PushDuplication: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Sends pushes to `client` (every client when nil) twice with `probability` (0...1) for `duration`.
    public init(
        _ client: String? = nil,
        probability: Double,
        for duration: SimDuration,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        item = ActionItem(
            .pushDuplication(client: client, probability: probability, duration: duration),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The server answers the next `count` requests of `opcode` with an error reply.
public struct ErrorReplies: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Answers the next `count` `opcode` requests of `client` (every client's when nil) with an error reply;
    /// `fileID` and `line` record the call site.
    public init(to opcode: Opcode, count: Int, of client: String? = nil, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(
            .errorReplies(opcode: opcode, count: count, client: client),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// From now on one LOGIN lists at most `chats` changed chats (a gappy sync: the rest show up only through a later
/// LOGIN or a push). LOGIN always carries only each chat's last message, so every catch-up after an absence leaves a
/// gap below it.
public struct CapLogin: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Caps LOGIN at `chats` changed chats from now on; `fileID` and `line` record the call site.
    public init(chats: Int, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.capLogin(chats: chats), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The client's device clock moves by `offset` against server time.
public struct SkewClock: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Skews `client`'s device clock by `offset` (negative: behind); `fileID` and `line` record the call site.
    public init(_ client: String, by offset: SimDuration, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(
            .skewClock(client: client, offset: offset),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The user reads a chat up to its newest cached message: `MarkRead("alice", "alice+bob")`.
public struct MarkRead: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Marks `chat` read on `client`; `fileID` and `line` record the call site.
    public init(_ client: String, _ chat: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.markRead(client: client, chat: chat), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The user leaves a chat: `CloseChat("alice", "alice+bob")` (no effect unless that chat is open).
public struct CloseChat: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Closes `chat` on `client`; `fileID` and `line` record the call site.
    public init(_ client: String, _ chat: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.closeChat(client: client, chat: chat), location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The user posts from a device outside the simulation (a web client): stored at once, pushed to every connected
/// device of the chat's members, the poster's own included: `PostFromOtherDevice("alice", text: "hi", in: "alice+bob")`.
public struct PostFromOtherDevice: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Posts `text` as `client`'s user into `chat`; `fileID` and `line` record the call site.
    public init(_ client: String, text: String, in chat: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(
            .postFromOtherDevice(client: client, chat: chat, text: text),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// A checkpoint: the condition must hold at this instant; no side effect:
/// `At(.seconds(30)) { Check(.loggedIn(client: "alice")) }`.
public struct Check: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Checks `condition` when the step runs; `fileID` and `line` record the call site.
    public init(_ condition: Condition, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.check(condition), location: SourceLocation(fileID: fileID, line: line))
    }

    /// Checks a custom predicate named `label`; `clients` lists the clients it looks at (shrinking keeps them).
    public init(
        _ label: String,
        clients: [String]? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ predicate: @escaping @Sendable (any WorldProbe) -> Bool
    ) {
        item = ActionItem(
            .check(.custom(label: label, clients: clients, predicate: predicate)),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// Pushes to a client are held longer for a while (pushes only, order kept):
/// `DelayPushes(to: "bob", by: .seconds(3), for: .seconds(20))`.
public struct DelayPushes: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Holds pushes to `client` leaving within `duration` back by `extraDelay`; call site recorded.
    public init(
        to client: String,
        by extraDelay: SimDuration,
        for duration: SimDuration,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        item = ActionItem(
            .delayPushes(client: client, extraDelay: extraDelay, duration: duration),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The server processes requests at once but answers later:
/// `HoldResponses(to: .msgSend, of: "alice", until: .seconds(40))` or `until: "release"` (a step label).
public struct HoldResponses: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Holds the responses to `opcode` requests of `client` (every client when nil) until `moment`; a moment
    /// already past releases them at once; call site recorded. A held response whose connection closed before the
    /// release is lost, or, when the scenario's server has `repliesFollowDevice`, goes to the newest connection of
    /// the same user and device (as `DelayResponses` answers do).
    public init(
        to opcode: Opcode,
        of client: String? = nil,
        until moment: Moment,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        item = ActionItem(
            .holdResponses(opcode: opcode, client: client, until: moment),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// The OS tells the app its network is lost or back; the link goes down (silently) or up with it:
/// `Connectivity("alice", .lost)`.
public struct Connectivity: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Reports `change` to `client`'s app; `fileID` and `line` record the call site.
    public init(_ client: String, _ change: ConnectivityChange, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(
            .connectivity(client: client, change: change),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}
