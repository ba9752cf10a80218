/// A frame's operation code (bytes 4-5 of the header). Unknown values are kept, never rejected.
///
/// Numbers are those seen in the field's public client implementations (DESIGN.md §3).
public struct Opcode: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The opcode number as carried in header bytes 4-5, big-endian.
    public var rawValue: UInt16

    /// Wraps an opcode number, known to the model or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// PING (1): keep-alive request, `{interactive}`.
    public static let ping = Opcode(rawValue: 1)
    /// SESSION_INIT (6): the first request on every connection, `{deviceId, clientVersion}`.
    public static let sessionInit = Opcode(rawValue: 6)
    /// LOGIN (19): authenticates and returns chats and contacts changed since the last sync.
    public static let login = Opcode(rawValue: 19)
    /// CHAT_HISTORY (49): a page of a chat's messages around a message id.
    public static let chatHistory = Opcode(rawValue: 49)
    /// CHAT_MARK (50): marks a chat read up to a message id.
    public static let chatMark = Opcode(rawValue: 50)
    /// MSG_SEND (64): sends a message with an idempotency key `cid`.
    public static let msgSend = Opcode(rawValue: 64)
    /// PHOTO_UPLOAD (80): asks for a CDN token to upload a photo under.
    public static let photoUpload = Opcode(rawValue: 80)
    /// NOTIF_MESSAGE (128): push of a new message in one of the user's chats.
    public static let notifMessage = Opcode(rawValue: 128)
    /// NOTIF_MARK (130): push that another member read a chat up to a message id.
    public static let notifMark = Opcode(rawValue: 130)
    /// NOTIF_ATTACH (136): push about an attachment; known by number, its payload stays raw.
    public static let notifAttach = Opcode(rawValue: 136)

    /// Every opcode the model knows, in numeric order.
    public static let known: [Opcode] = [
        .ping, .sessionInit, .login, .chatHistory, .chatMark, .msgSend, .photoUpload, .notifMessage, .notifMark,
        .notifAttach,
    ]

    /// The protocol's name (`"LOGIN"`), or nil for an opcode the model does not know.
    public var name: String? {
        switch rawValue {
        case 1: "PING"
        case 6: "SESSION_INIT"
        case 19: "LOGIN"
        case 49: "CHAT_HISTORY"
        case 50: "CHAT_MARK"
        case 64: "MSG_SEND"
        case 80: "PHOTO_UPLOAD"
        case 128: "NOTIF_MESSAGE"
        case 130: "NOTIF_MARK"
        case 136: "NOTIF_ATTACH"
        default: nil
        }
    }

    /// The name, or `OPCODE_<n>` for an unknown opcode.
    public var description: String { name ?? "OPCODE_\(rawValue)" }

    public static func < (lhs: Opcode, rhs: Opcode) -> Bool { lhs.rawValue < rhs.rawValue }
}
