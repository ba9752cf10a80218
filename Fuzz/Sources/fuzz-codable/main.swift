import FuzzSupport
import SyncProtocol

/// Typed (Codable) decoding of each request and response: byte 0 picks a message type (modulo the count), the
/// rest is one MessagePack value decoded into it with `MessagePackDecoder`. A value that decodes must round-trip:
/// encoding it with `MessagePackEncoder` and decoding again gives an equal value. Bytes 1-2 also pick a
/// (cmd, opcode) pair and the value goes through `Packet(frame:)`, which types every body the protocol knows
/// (so message types added later are covered there even before they join the list below).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzCodable(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let typeChoice = Int(input.byte())
    let commandChoice = input.byte()
    let opcodeChoice = Int(input.byte())
    guard let value = try? MessagePackValue(messagePack: Array(input.rest())) else { return 0 }

    let check = MessageTypeChecks.all[typeChoice % MessageTypeChecks.all.count]
    check(value)

    let commands = Command.allCases
    let cmd = commands[Int(commandChoice) % commands.count]
    let opcodes = Opcode.known
    let opcode = opcodeChoice < opcodes.count * 4 ? opcodes[opcodeChoice % opcodes.count]
        : Opcode(rawValue: UInt16(opcodeChoice))
    let frame = Frame(cmd: cmd, seq: 1, opcode: opcode, payload: value)
    guard let packet = try? Packet(frame: frame) else { return 0 }
    // Re-encoding the typed body and typing it again must give the same packet.
    let again = Frame(packet: packet)
    guard let retyped = try? Packet(frame: again) else { fuzzFailure("re-encoded packet no longer types: \(packet)") }
    if retyped != packet && !FuzzChecks.containsNaN(value) {
        fuzzFailure("packet changed after encode/decode\nfirst:  \(packet)\nsecond: \(retyped)")
    }
    return 0
}

/// One decode + round-trip check per message type.
enum MessageTypeChecks {
    static let all: [@Sendable (MessagePackValue) -> Void] = [
        roundTrip(SessionInitRequest.self), roundTrip(SessionInitResponse.self),
        roundTrip(LoginRequest.self), roundTrip(LoginResponse.self),
        roundTrip(ChatHistoryRequest.self), roundTrip(ChatHistoryResponse.self),
        roundTrip(ChatMarkRequest.self),
        roundTrip(MsgSendRequest.self), roundTrip(MsgSendResponse.self),
        roundTrip(PhotoUploadRequest.self), roundTrip(PhotoUploadResponse.self),
        roundTrip(PingRequest.self), roundTrip(NotifMessage.self), roundTrip(NotifMark.self),
        roundTrip(ErrorPayload.self), roundTrip(ChatMessage.self), roundTrip(ChatSummary.self),
        roundTrip(OutgoingMessage.self), roundTrip(Attach.self),
    ]

    static func roundTrip<T: Codable & Equatable>(_ type: T.Type) -> @Sendable (MessagePackValue) -> Void {
        { value in
            guard let decoded = try? MessagePackDecoder().decode(T.self, from: value) else { return }
            let encoded: MessagePackValue
            do {
                encoded = try MessagePackEncoder().encode(decoded)
            } catch {
                fuzzFailure("\(T.self) decoded but does not encode: \(error)\nvalue: \(decoded)")
            }
            do {
                let again = try MessagePackDecoder().decode(T.self, from: encoded)
                if again != decoded {
                    fuzzFailure("\(T.self) changed after encode/decode\nfirst:  \(decoded)\nsecond: \(again)")
                }
            } catch {
                fuzzFailure("\(T.self) encoded value does not decode: \(error)\nencoded: \(encoded)")
            }
        }
    }
}

runFuzzer(fuzzCodable)
