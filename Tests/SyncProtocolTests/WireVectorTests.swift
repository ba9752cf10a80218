import Testing

@testable import SyncProtocol

/// The golden vectors in Fixtures/wire, written by an independent Python encoder (see its README).
@Suite struct WireVectorTests {
    static func decode(_ name: String, layout: HeaderLayout = .standard) throws -> [DecodedFrame] {
        let bytes = try TestSupport.fixture("wire/\(name).bin")
        return try TestSupport.decodeAll(bytes, chunkSizes: [bytes.count], decoder: FrameDecoder(layout: layout))
    }

    @Test("login-response.bin is the LOGIN response the typed model encodes, byte for byte") func loginResponse() throws
    {
        let expected = Packet(
            cmd: .response, seq: 1, opcode: .login,
            body: .loginResponse(
                LoginResponse(
                    profile: Profile(id: 1001, name: "Ada"),
                    chats: [
                        ChatSummary(
                            id: 7, members: [1001, 1002], modified: 1_764_000_005_000,
                            lastMessage: ChatMessage(
                                id: 70005, time: 1_764_000_005_000, sender: 1002, text: "see you at 6", cid: 55)),
                        ChatSummary(id: 9, members: [1001, 1003, 1004], modified: 1_764_000_001_200, lastMessage: nil),
                    ],
                    contacts: [Contact(id: 1002, name: "Grace"), Contact(id: 1003, name: "Линус")],
                    time: 1_764_000_006_000
                )))
        let frames = try Self.decode("login-response")
        #expect(frames.count == 1)
        #expect(try Packet(frame: frames[0].frame) == expected)
        #expect(try FrameEncoder().encode(expected) == TestSupport.fixture("wire/login-response.bin"))
    }

    @Test("history-page-compressed.bin decompresses to 60 typed messages") func compressedHistory() throws {
        let frames = try Self.decode("history-page-compressed")
        #expect(frames.count == 1)
        #expect(frames[0].header.isCompressed)
        #expect(frames[0].payloadByteCount > frames[0].header.payloadLength)
        guard case .chatHistoryResponse(let page) = try Packet(frame: frames[0].frame).body else {
            Issue.record("expected a CHAT_HISTORY response body")
            return
        }
        #expect(page.messages.map(\.id) == Array(70000..<70060))
        // Re-encoded by liblz4 the block differs, but the frame decodes the same.
        let reencoded = try FrameEncoder().encode(frames[0].frame)
        #expect(try TestSupport.decodeAll(reencoded, chunkSizes: [reencoded.count]).map(\.frame) == [frames[0].frame])
    }

    @Test("push-notif-message.bin is a NOTIF_MESSAGE push sent as cmd 0, byte for byte") func push() throws {
        let expected = Packet(
            cmd: .request, seq: 0, opcode: .notifMessage,
            body: .notifMessage(
                NotifMessage(
                    chatId: 7,
                    message: ChatMessage(
                        id: 70006, time: 1_764_000_007_000, sender: 1002, text: "on my way 🚲", cid: -3)
                )))
        let frames = try Self.decode("push-notif-message")
        #expect(try Packet(frame: frames[0].frame) == expected)
        #expect(expected.isPush)
        #expect(try FrameEncoder().encode(expected) == TestSupport.fixture("wire/push-notif-message.bin"))
    }

    @Test("push-zstd.bin (flag 0xFF, a hand-built zstd frame) decodes to the same push as the raw one")
    func zstdPush() throws {
        let zstd = try Self.decode("push-zstd")
        let raw = try Self.decode("push-notif-message")
        #expect(zstd[0].header.compressionFlag == FrameHeader.zstdFlag)
        #expect(zstd.map(\.frame) == raw.map(\.frame))
    }

    @Test("a zstd-encoding encoder writes flag 0xFF; the decoder reads it back; corruption and the 5 MiB cap are errors")
    func zstdRoundTrip() throws {
        var encoder = FrameEncoder()
        encoder.codec = .zstd
        let text = String(repeating: "zstd beside LZ4 ", count: 400)
        let frame = Frame(cmd: .response, seq: 9, opcode: .chatHistory,
                          payload: .map([MessagePackPair(.string("text"), .string(text))]))
        var bytes = try encoder.encode(frame)
        #expect(bytes[6] == 0xFF)
        #expect(try TestSupport.decodeAll(bytes, chunkSizes: [bytes.count]).map(\.frame) == [frame])
        bytes[bytes.count - 3] ^= 0x5A
        var decoder = FrameDecoder()
        var buffer = ByteReader(bytes)
        #expect(throws: WireError.self) { _ = try decoder.decode(&buffer) }
        var small = FrameDecoder(maxPayloadBytes: 1000)
        var again = ByteReader(try encoder.encode(frame))
        #expect(throws: WireError.self) { _ = try small.decode(&again) }
        #expect(FrameDecoder.defaultMaxPayloadBytes == 5 * 1024 * 1024)
    }

    @Test("unknown-opcode.bin decodes as a raw frame, not an error") func unknownOpcode() throws {
        let frames = try Self.decode("unknown-opcode")
        let packet = try Packet(frame: frames[0].frame)
        #expect(packet.opcode.rawValue == 999)
        #expect(
            packet.body
                == .raw(
                    .map([
                        MessagePackPair(.string("x"), .uint(1)),
                        MessagePackPair(.string("flags"), .array([.bool(true), .bool(false), .nil])),
                    ])))
    }

    @Test("session-cmd16.bin decodes with the cmd16-seq8 layout") func cmd16Layout() throws {
        let frames = try Self.decode("session-cmd16", layout: .cmd16Seq8)
        #expect(
            try frames.map { try Packet(frame: $0.frame) } == [
                Packet(
                    cmd: .request, seq: 200, opcode: .sessionInit,
                    body: .sessionInit(.mobile(deviceId: "dev-1"))),
                Packet(
                    cmd: .response, seq: 200, opcode: .sessionInit,
                    body: .sessionInitResponse(SessionInitResponse(time: 1_764_000_000_000, callsSeed: 12345))),
            ])
    }

    @Test("push-edit-then-delete.bin is an EDITED NOTIF_MESSAGE then a NOTIF_MSG_DELETE, byte for byte")
    func editThenDelete() throws {
        let expected = [
            Packet(
                cmd: .request, seq: 0, opcode: .notifMessage,
                body: .notifMessage(
                    NotifMessage(
                        chatId: 7,
                        message: ChatMessage(
                            id: 70006, time: 1_764_000_007_000, sender: 1002, text: "on my way, 5 min late", cid: -3,
                            status: "EDITED", updateTime: 1_764_000_008_000)))),
            Packet(
                cmd: .request, seq: 0, opcode: .notifMsgDelete,
                body: .notifMsgDelete(
                    NotifMsgDelete(
                        chatId: 7, messageIds: [70006], updateTime: 1_764_000_009_000,
                        chat: ChatSummary(
                            id: 7, members: [1001, 1002], modified: 1_764_000_009_000,
                            lastMessage: ChatMessage(
                                id: 70006, time: 1_764_000_007_000, sender: 1002, text: "", cid: -3,
                                status: "REMOVED", updateTime: 1_764_000_009_000))))),
        ]
        let frames = try Self.decode("push-edit-then-delete")
        #expect(try frames.map { try Packet(frame: $0.frame) } == expected)
        #expect(try expected.flatMap { try FrameEncoder().encode($0) } == TestSupport.fixture("wire/push-edit-then-delete.bin"))
    }

    @Test("error-unsupported-opcode.bin answers CHAT_INFO with the field's four-key error, byte for byte")
    func unsupportedOpcode() throws {
        let text = "opcode 48 (CHAT_INFO) is not supported by the SyncSim server"
        let error = Packet(
            cmd: .error, seq: 4, opcode: Opcode(rawValue: 48), body: .error(ErrorPayload(error: "proto.opcode", message: text)))
        let frames = try Self.decode("error-unsupported-opcode")
        #expect(try Packet(frame: frames[1].frame) == error)
        #expect(try FrameEncoder().encode(error) == Array(TestSupport.fixture("wire/error-unsupported-opcode.bin").dropFirst(21)))
    }
}
