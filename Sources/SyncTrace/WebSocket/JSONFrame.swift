import Foundation
import SyncProtocol

/// The field's frames as JSON text, one per WebSocket text message: `{"ver":11,"cmd":0,"seq":1,"opcode":19,
/// "payload":{...}}`. This is how PyMax's `WebClient` up to 2.4 speaks (`pymax/protocol/ws/protocol.py`:
/// `WsProtocol`, `version = 11`; its `OutboundFrame` and `InboundFrame` in `pymax/protocol/models.py` have `ver`,
/// `opcode`, `cmd`, `seq`, `payload`); 2.5.0's `WebClient` sends the binary frames of the TCP transport instead.
/// Parsed here for captures and `syncsim serve`; `syncsim serve` writes them (`JSONFrame.text(for:)`, SyncSimCLI).
public enum JSONFrame {
    /// The version byte of a JSON frame (`WsProtocol.version`, `pymax/protocol/ws/protocol.py`).
    public static let version = 11

    /// The frame a text message carries. The payload's JSON maps to MessagePack as PyMax's own `msgpack` would
    /// pack the same object: integers from 0 up as unsigned, negative ones as signed, other numbers as doubles, object
    /// members in the order of their names (JSON objects have none of their own).
    /// - Throws: `JSONFrameError` naming the field that is missing or of the wrong type.
    public static func frame(fromText text: [UInt8]) throws(JSONFrameError) -> Frame {
        try parse(text).frame
    }

    /// The frame a text message carries, as `frame(fromText:)`, and the message's `ver` field (nil when it has
    /// none; any integer is taken, since the field frame does not depend on it).
    /// - Throws: `JSONFrameError` naming the field that is missing or of the wrong type.
    public static func parse(_ text: [UInt8]) throws(JSONFrameError) -> (frame: Frame, version: UInt64?) {
        let parsed = try parse(text, seqRange: 0...UInt64(UInt16.max))
        return (parsed.frame, parsed.version)
    }

    /// The frame a text message carries, as `parse(_:)`, but with any unsigned integer taken as its `seq`: the frame's
    /// `seq` is then its low 16 bits, and `seq` the message's own. The binary frames' `seq` is 16 bits
    /// (docs/protocol.md), and PyMax 2.x wraps its counter there for JSON frames too (2.5.0 and 2.1.0
    /// `pymax/connection/connection.py`, `next_seq`: `% 0x10000`), but PyMax 1.2.5's `MaxClient`, which speaks JSON
    /// frames over WebSocket, counts on without a bound (`pymax/interfaces.py`, `_make_message`: `self._seq += 1`) and
    /// matches an answer by the exact `seq` it sent (`_handle_pending`), so a server answering it must echo `seq`
    /// whole (`syncsim serve` does: `ConnectionTransport`).
    /// - Throws: `JSONFrameError` naming the field that is missing or of the wrong type.
    public static func parseWideSeq(_ text: [UInt8]) throws(JSONFrameError)
        -> (frame: Frame, version: UInt64?, seq: UInt64) {
        try parse(text, seqRange: 0...UInt64.max)
    }

    private static func parse(_ text: [UInt8], seqRange: ClosedRange<UInt64>) throws(JSONFrameError)
        -> (frame: Frame, version: UInt64?, seq: UInt64) {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(text))
        } catch {
            throw JSONFrameError(reason: "text message is not JSON (\(Self.describe(error)))")
        }
        guard case .map(let pairs) = value.messagePack else {
            throw JSONFrameError(reason: "text message is not a JSON object")
        }
        func field(_ name: String) -> MessagePackValue? {
            pairs.first { $0.key == .string(name) }?.value
        }
        func integer(_ name: String, in range: ClosedRange<UInt64>, default fallback: UInt64? = nil)
            throws(JSONFrameError) -> UInt64 {
            guard let value = field(name) else {
                guard let fallback else { throw JSONFrameError(reason: "field '\(name)' is missing") }
                return fallback
            }
            guard case .uint(let number) = value, range.contains(number) else {
                throw JSONFrameError(reason: "field '\(name)' is \(Self.describe(value)), "
                    + "not an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        let cmdValue = try integer("cmd", in: 0...3, default: 0)
        let seq = try integer("seq", in: seqRange)
        let opcode = try integer("opcode", in: 0...UInt64(UInt16.max))
        let payload = field("payload") ?? .nil
        switch payload {
        case .map, .nil: break
        default:
            throw JSONFrameError(reason: "field 'payload' is \(Self.describe(payload)), "
                + "not an object or null")
        }
        guard let cmd = Command(rawValue: UInt16(cmdValue)) else {
            throw JSONFrameError(reason: "field 'cmd' is \(cmdValue), not 0...3")
        }
        let version: UInt64? = if field("ver") == nil { nil } else { try integer("ver", in: 0...UInt64(UInt32.max)) }
        let frame = Frame(cmd: cmd, seq: UInt16(truncatingIfNeeded: seq), opcode: Opcode(rawValue: UInt16(opcode)),
                          payload: payload)
        return (frame, version, seq)
    }

    /// A JSON value as an error names it: numbers, booleans and short strings as written, others by kind.
    private static func describe(_ value: MessagePackValue) -> String {
        switch value {
        case .nil: "null"
        case .bool(let flag): "\(flag)"
        case .int(let number): "\(number)"
        case .uint(let number): "\(number)"
        case .double(let number): "\(number)"
        case .float(let number): "\(number)"
        case .string(let text): "\"\(text.prefix(40))\""
        case .array: "an array"
        case .map: "an object"
        default: "a value"
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context): return context.underlyingError.map { "\($0)" } ?? context.debugDescription
        default: return "\(decoding)"
        }
    }
}

/// A JSON text message that is no field frame.
public struct JSONFrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the field.
    public var reason: String
    public var description: String { "JSON frame: \(reason)" }
}

/// Any JSON value, decoded by Foundation's `JSONDecoder`, then mapped to MessagePack.
private enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case unsigned(UInt64)
    case signed(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            let keys = object.allKeys.sorted { $0.stringValue < $1.stringValue }
            self = .object(try keys.map { ($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(UInt64.self) {
            self = .unsigned(number)
        } else if let number = try? single.decode(Int64.self) {
            self = .signed(number)
        } else if let number = try? single.decode(Double.self) {
            self = .double(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    var messagePack: MessagePackValue {
        switch self {
        case .null: .nil
        case .bool(let flag): .bool(flag)
        case .unsigned(let number): .uint(number)
        case .signed(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(\.messagePack))
        case .object(let members): .map(members.map { MessagePackPair(.string($0.0), $0.1.messagePack) })
        }
    }
}
