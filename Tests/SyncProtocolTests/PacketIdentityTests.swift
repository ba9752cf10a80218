import Testing

@testable import SyncProtocol

@Suite struct PacketIdentityTests {
    static func push(text: String, status: String? = nil, attaches: [Attach]? = nil) -> Packet {
        let message = ChatMessage(
            id: 5, time: 1_700_000_000_000, sender: 2, text: text, cid: 9, attaches: attaches, status: status,
            elements: [MessageElement(type: "STRONG", from: 0, length: 1)])
        return Packet(cmd: .request, seq: 0, opcode: .notifMessage,
                      body: .notifMessage(NotifMessage(chatId: 7, message: message)))
    }

    @Test("the same push is identical; canonically equal strings of other bytes are not")
    func identity() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let push = Self.push(text: composed, attaches: [.photo(token: composed)])
        #expect(push.isIdenticalPush(to: push))
        for other in [
            Self.push(text: decomposed, attaches: [.photo(token: composed)]),
            Self.push(text: composed, attaches: [.photo(token: decomposed)]),
            Self.push(text: composed, status: "EDITED", attaches: [.photo(token: composed)]),
        ] {
            #expect(!other.isIdenticalPush(to: push))
        }
        let canonicallyEqual = Self.push(text: decomposed, attaches: [.photo(token: decomposed)])
        #expect(canonicallyEqual == push)
        #expect(!canonicallyEqual.isIdenticalPush(to: push))
        #expect(try FrameEncoder().encode(canonicallyEqual) != FrameEncoder().encode(push))
        var response = push
        response.cmd = .response
        #expect(!response.isIdenticalPush(to: push))
        let mark = Packet(cmd: .request, seq: 0, opcode: .notifMark,
                          body: .notifMark(NotifMark(chatId: 7, userId: 2, mark: 3)))
        #expect(mark.isIdenticalPush(to: mark))
        #expect(!mark.isIdenticalPush(to: push))
        let ping = Packet(cmd: .request, seq: 1, opcode: .ping, body: .ping(PingRequest(interactive: true)))
        #expect(!ping.isIdenticalPush(to: ping), "only NOTIF_MESSAGE and NOTIF_MARK bodies are compared")
    }

    @Test("a copy shares its body's box and is identical; a body changed in a copy is compared by its content")
    func sharedBox() {
        let push = Self.push(text: "caf\u{E9}")
        let copy = push
        #expect(copy.isIdenticalPush(to: push))
        #expect(MemoryLayout<Packet.Body>.size == MemoryLayout<UnsafeRawPointer>.size, "the body is one reference")
        // Built apart: two boxes with the same content, so the comparison looks inside.
        #expect(Self.push(text: "caf\u{E9}").isIdenticalPush(to: push))
        var changed = push
        guard case .notifMessage(var notif) = changed.body else { Issue.record("not a push"); return }
        notif.message.text = "cafe\u{301}"
        changed.body = .notifMessage(notif)
        #expect(!changed.isIdenticalPush(to: push))
        #expect(!push.isIdenticalPush(to: changed))
        // A copy of a body that is not a push shares its box too, and is still not compared.
        let ping = Packet(cmd: .request, seq: 1, opcode: .ping, body: .ping(PingRequest(interactive: true)))
        let pingCopy = ping
        #expect(!pingCopy.isIdenticalPush(to: ping))
    }

    /// `Packet.isIdenticalPush(to:)` lists the string fields of these types by hand: a new stored property must be
    /// considered there (compared by bytes if it holds a string), then counted here.
    @Test("the types the push comparison lists fields of have the fields it knows")
    func fieldCounts() {
        let message = Self.push(text: "a")
        guard case .notifMessage(let push) = message.body else { Issue.record("not a push"); return }
        #expect(Mirror(reflecting: message).children.count == 4)
        #expect(Mirror(reflecting: push).children.count == 2)
        #expect(Mirror(reflecting: push.message).children.count == 11)
        #expect(Mirror(reflecting: Attach.photo(token: "t")).children.count == 11)
        #expect(Mirror(reflecting: MessageElement(type: "STRONG")).children.count == 4)
        #expect(Mirror(reflecting: NotifMark(chatId: 1, userId: 2, mark: 3)).children.count == 4)
    }
}
