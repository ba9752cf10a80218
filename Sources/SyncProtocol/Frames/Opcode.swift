/// A frame's operation code (bytes 4-5 of the header). Unknown values are kept, never rejected.
///
/// Numbers are those seen in the field's public client implementations (DESIGN.md §3).
public struct Opcode: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let ping = Opcode(rawValue: 1)
    public static let sessionInit = Opcode(rawValue: 6)
    public static let login = Opcode(rawValue: 19)
    public static let chatHistory = Opcode(rawValue: 49)
    public static let chatMark = Opcode(rawValue: 50)
    public static let msgSend = Opcode(rawValue: 64)
    public static let photoUpload = Opcode(rawValue: 80)
    public static let notifMessage = Opcode(rawValue: 128)
    public static let notifMark = Opcode(rawValue: 130)
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
