extension Packet {
    /// Whether this packet and `other` are the same NOTIF_MESSAGE or NOTIF_MARK push, so that encoding them gives
    /// the same bytes; false for any other body.
    ///
    /// Stricter than `==`, which compares strings by canonical equivalence (`"caf\u{E9}" == "cafe\u{301}"`, other
    /// bytes): here `==` (every field) and, in addition, every string field by its UTF-8 bytes. The fields are
    /// listed by hand: `PacketIdentityTests` counts each type's stored properties, so a field added to one of them
    /// fails that test until it is considered here.
    /// - Complexity: O(n) in the length of the strings.
    package func isIdenticalPush(to other: Packet) -> Bool {
        guard cmd == other.cmd, seq == other.seq, opcode == other.opcode else { return false }
        // `Body` is indirect: a body is a reference to its payload's box, and copies of one packet (a chat's push
        // handed to each member) share it. The same bits are the same box, whose content cannot differ.
        if body.sharesStorage(with: other.body) {
            switch body {
            case .notifMessage, .notifMark: return true
            default: return false
            }
        }
        switch body {
        case .notifMessage(let push):
            guard case .notifMessage(let otherPush) = other.body, push == otherPush else { return false }
            return push.message.hasIdenticalStrings(to: otherPush.message)
        case .notifMark(let push):
            // No strings: `==` compares every field exactly.
            guard case .notifMark(let otherPush) = other.body else { return false }
            return push == otherPush
        default:
            return false
        }
    }
}

extension ChatMessage {
    /// Whether every string field of the two messages has the same UTF-8 bytes (call it on `==` messages, whose
    /// arrays then have equal counts).
    fileprivate func hasIdenticalStrings(to other: ChatMessage) -> Bool {
        guard text.isIdentical(to: other.text), type.isIdentical(to: other.type),
              status.isIdentical(to: other.status) else { return false }
        for (attach, otherAttach) in zip(attaches ?? [], other.attaches ?? [])
        where !attach.type.isIdentical(to: otherAttach.type)
            || !attach.photoToken.isIdentical(to: otherAttach.photoToken)
            || !attach.baseUrl.isIdentical(to: otherAttach.baseUrl) || !attach.event.isIdentical(to: otherAttach.event)
            || !attach.chatType.isIdentical(to: otherAttach.chatType)
            || !attach.title.isIdentical(to: otherAttach.title)
            // Keys the model does not type may hold strings anywhere inside: their wire bytes decide.
            || MessagePackPair.differInBytes(attach.otherKeys, otherAttach.otherKeys) {
            return false
        }
        for (element, otherElement) in zip(elements, other.elements)
        where !element.type.isIdentical(to: otherElement.type)
            || MessagePackPair.differInBytes(element.otherKeys, otherElement.otherKeys) {
            return false
        }
        // `==` messages have both links or neither.
        if let link, let otherLink = other.link {
            return link.type.isIdentical(to: otherLink.type) && link.message.hasIdenticalStrings(to: otherLink.message)
        }
        return true
    }
}

extension String {
    /// Whether the two strings have the same UTF-8 bytes (`==` compares canonical equivalence).
    fileprivate func isIdentical(to other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}

extension String? {
    /// Whether both are nil or both strings have the same UTF-8 bytes.
    fileprivate func isIdentical(to other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let string?, let otherString?): string.isIdentical(to: otherString)
        default: false
        }
    }
}

extension Packet.Body {
    /// Whether the two bodies have the same bits: for payload cases, the same box (equal content, without a look
    /// inside). False says nothing: equal payloads in two boxes differ in bits.
    fileprivate func sharesStorage(with other: Packet.Body) -> Bool {
        withUnsafeBytes(of: self) { bytes in
            withUnsafeBytes(of: other) { otherBytes in bytes.elementsEqual(otherBytes) }
        }
    }
}
