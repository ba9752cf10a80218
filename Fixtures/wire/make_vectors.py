#!/usr/bin/env python3
"""Writes the golden wire vectors in this folder with an encoder independent of SyncSim's Swift code.

Run from this folder: python3 make_vectors.py. Standard library only: a minimal MessagePack packer (shortest
forms, msgpack spec), a greedy LZ4 block compressor (lz4 doc/lz4_Block_format.md), and the 10-byte header of
DESIGN.md section 3. For each NAME.bin it also writes NAME.jsonl, the lines `syncsim decode NAME.bin` must print.
"""
import json
import struct


def pack(value):
    if value is None:
        return b"\xc0"
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 0x80:
            return bytes([value])
        if value >= 0:
            for code, fmt, limit in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16), (0xCE, ">I", 1 << 32)):
                if value < limit:
                    return bytes([code]) + struct.pack(fmt, value)
            return b"\xcf" + struct.pack(">Q", value)
        if value >= -32:
            return struct.pack(">b", value)
        for code, fmt, low in ((0xD0, ">b", -(1 << 7)), (0xD1, ">h", -(1 << 15)), (0xD2, ">i", -(1 << 31))):
            if value >= low:
                return bytes([code]) + struct.pack(fmt, value)
        return b"\xd3" + struct.pack(">q", value)
    if isinstance(value, str):
        raw = value.encode("utf-8")
        n = len(raw)
        if n < 32:
            return bytes([0xA0 | n]) + raw
        if n < 1 << 8:
            return b"\xd9" + struct.pack(">B", n) + raw
        if n < 1 << 16:
            return b"\xda" + struct.pack(">H", n) + raw
        return b"\xdb" + struct.pack(">I", n) + raw
    if isinstance(value, list):
        n = len(value)
        head = bytes([0x90 | n]) if n < 16 else (b"\xdc" + struct.pack(">H", n) if n < 1 << 16 else b"\xdd" + struct.pack(">I", n))
        return head + b"".join(pack(v) for v in value)
    if isinstance(value, dict):
        n = len(value)
        head = bytes([0x80 | n]) if n < 16 else (b"\xde" + struct.pack(">H", n) if n < 1 << 16 else b"\xdf" + struct.pack(">I", n))
        return head + b"".join(pack(k) + pack(v) for k, v in value.items())
    raise TypeError(value)


def lz4_block(data):
    """Greedy LZ4 block: 4-byte hash matches, last 5 bytes literal, no match starting in the last 12 bytes."""
    n = len(data)
    out = bytearray()
    table = {}
    anchor = 0
    i = 0

    def length_bytes(extra):
        while extra >= 255:
            out.append(255)
            extra -= 255
        out.append(extra)

    while i + 12 <= n:
        key = data[i:i + 4]
        candidate = table.get(key)
        table[key] = i
        if candidate is None or i - candidate > 65535:
            i += 1
            continue
        match_end = i + 4
        while match_end < n - 5 and data[match_end] == data[candidate + match_end - i]:
            match_end += 1
        literal = i - anchor
        match = match_end - i - 4
        out.append((min(literal, 15) << 4) | min(match, 15))
        if literal >= 15:
            length_bytes(literal - 15)
        out += data[anchor:i]
        out += struct.pack("<H", i - candidate)
        if match >= 15:
            length_bytes(match - 15)
        i = match_end
        anchor = i
    literal = n - anchor
    out.append(min(literal, 15) << 4)
    if literal >= 15:
        length_bytes(literal - 15)
    out += data[anchor:]
    return bytes(out)


COMMANDS = {0: "request", 1: "response", 2: "push", 3: "error"}
# Opcode names as the field's public client PyMax (maxapi-python 2.5.0, pymax/protocol/enums.py) names them.
OPCODES = {1: "PING", 5: "LOG", 6: "SESSION_INIT", 19: "LOGIN", 48: "CHAT_INFO", 49: "CHAT_HISTORY",
           50: "CHAT_MARK", 53: "CHATS_LIST", 64: "MSG_SEND", 66: "MSG_DELETE", 67: "MSG_EDIT", 80: "PHOTO_UPLOAD",
           128: "NOTIF_MESSAGE", 130: "NOTIF_MARK", 136: "NOTIF_ATTACH", 142: "NOTIF_MSG_DELETE"}


def zstd_raw_frame(data):
    """One zstd frame (RFC 8878) holding `data` in a single raw block: magic, a frame header with the single-segment
    flag and a 1-byte content size, then one last raw block. Valid zstd, though not smaller than `data`."""
    assert len(data) < 256
    block_header = (1 | (0 << 1) | (len(data) << 3)).to_bytes(3, "little")
    return struct.pack("<I", 0xFD2FB528) + bytes([0x20, len(data)]) + block_header + data


def frame(cmd, seq, opcode, payload, compress=False, layout="cmd8-seq16"):
    raw = pack(payload)
    if compress == "zstd":
        wire, flag = zstd_raw_frame(raw), 0xFF
    elif compress:
        wire, flag = lz4_block(raw), 1
        assert len(wire) < len(raw)
    else:
        wire, flag = raw, 0
    if layout == "cmd8-seq16":
        middle = struct.pack(">BH", cmd, seq)
    else:
        middle = struct.pack(">HB", cmd, seq)
    header = bytes([10]) + middle + struct.pack(">HI", opcode, (flag << 24) | len(wire))
    return header + wire, raw, wire


def write_vector(name, frames):
    stream = b""
    lines = []
    for number, (cmd, seq, opcode, payload, compress, layout) in enumerate(frames, start=1):
        data, raw, wire = frame(cmd, seq, opcode, payload, compress, layout)
        record = {
            "frame": number, "offset": len(stream), "ver": 10, "cmd": cmd, "cmdName": COMMANDS[cmd], "seq": seq,
            "opcode": opcode, "opcodeName": OPCODES.get(opcode, "OPCODE_%d" % opcode), "compressed": bool(compress),
            "wirePayloadBytes": len(wire), "payloadBytes": len(raw), "payload": payload,
        }
        lines.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False))
        stream += data
    with open(name + ".bin", "wb") as handle:
        handle.write(stream)
    with open(name + ".jsonl", "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def message(ident, time, sender, text, cid=None, status=None, update_time=None):
    """A message in the field's shape (PyMax pymax/types/domain/message.py requires id, time and type)."""
    result = {"id": ident, "time": time, "type": "USER", "sender": sender, "text": text}
    if cid is not None:
        result["cid"] = cid
    if status is not None:
        result["status"] = status
    if update_time is not None:
        result["updateTime"] = update_time
    result["elements"] = []
    result["attaches"] = []
    return result


def contact(ident, name):
    """A user in the field's shape (PyMax pymax/types/domain/user.py and name.py)."""
    return {"id": ident, "names": [{"name": name, "firstName": name, "type": "ONEME"}]}


def chat(ident, members, modified, last=None):
    """A chat-list entry in the field's shape (PyMax pymax/types/domain/chat.py requires id, type, status, owner)."""
    result = {"id": ident, "type": "DIALOG" if len(members) <= 2 else "CHAT", "status": "ACTIVE",
              "owner": min(members), "participants": {str(m): modified for m in members}, "modified": modified}
    if last is not None:
        result["lastMessage"] = last
    return result


T0 = 1_764_000_000_000
D = "cmd8-seq16"

login = {
    "profile": {"contact": contact(1001, "Ada"), "profileOptions": []},
    "chats": [
        chat(7, [1001, 1002], T0 + 5000, message(70005, T0 + 5000, 1002, "see you at 6", 55)),
        chat(9, [1001, 1003, 1004], T0 + 1200),
    ],
    "contacts": [contact(1002, "Grace"), contact(1003, "Линус")],
    "time": T0 + 6000,
}
write_vector("login-response", [(1, 1, 19, login, False, D)])

history = {"messages": [message(70000 + k, T0 + 1000 * k, 1001 + k % 2,
                                "message number %d in chat 7, with the usual small talk" % k)
                        for k in range(60)]}
write_vector("history-page-compressed", [(1, 2, 49, history, True, D)])

# The field sends pushes as requests from the server (cmd 0), the only frames PyMax dispatches as events
# (pymax/dispatch/mapping.py).
push = {"chatId": 7, "message": message(70006, T0 + 7000, 1002, "on my way \U0001F6B2", -3)}
write_vector("push-notif-message", [(0, 0, 128, push, False, D)])

edit_and_delete = [
    (0, 0, 128, {"chatId": 7, "message": message(70006, T0 + 7000, 1002, "on my way, 5 min late", -3,
                                                 "EDITED", T0 + 8000)}, False, D),
    (0, 0, 142, {"chatId": 7, "chat": chat(7, [1001, 1002], T0 + 9000,
                                           message(70006, T0 + 7000, 1002, "", -3, "REMOVED", T0 + 9000)),
                 "messageIds": [70006], "ttl": False, "updateTime": T0 + 9000}, False, D),
]
write_vector("push-edit-then-delete", edit_and_delete)

# The same push with flag 0xFF: field clients read that flag as zstd (pymax/protocol/tcp/payload.py).
write_vector("push-zstd", [(0, 0, 128, push, "zstd", D)])

write_vector("unknown-opcode", [(0, 3, 999, {"x": 1, "flags": [True, False, None]}, False, D)])

# SESSION_INIT in the mobile shape PyMax sends (pymax/api/session/payloads.py, MobileHandshakePayload) and its
# answer with the calls seed the mobile login needs (pymax/types/domain/handshake.py).
user_agent = {"deviceType": "ANDROID", "appVersion": "syncsim"}
write_vector("session-cmd16", [
    (0, 200, 6, {"mt_instanceid": "dev-1", "userAgent": user_agent, "clientSessionId": 1, "deviceId": "dev-1"},
     False, "cmd16-seq8"),
    (1, 200, 6, {"callsSeed": 12345, "time": T0}, False, "cmd16-seq8"),
])

# An unsupported opcode answered with the field's error shape (pymax/types/domain/error.py).
write_vector("error-unsupported-opcode", [
    (0, 4, 48, {"chatIds": [7]}, False, D),
    (3, 4, 48, {"error": "proto.opcode", "message": "opcode 48 (CHAT_INFO) is not supported by the SyncSim server",
                "localizedMessage": "opcode 48 (CHAT_INFO) is not supported by the SyncSim server",
                "title": "Error"}, False, D),
])

# Faulty streams for `syncsim decode` error tests: good frames, then the fault (no .jsonl: the test says what
# must be printed).
good, _, _ = frame(0, 0, 128, push)
with open("push-then-bad-version.bin", "wb") as handle:
    handle.write(good + bytes([9]) + good[1:])
with open("push-then-truncated-header.bin", "wb") as handle:
    handle.write(good + good[:4])
