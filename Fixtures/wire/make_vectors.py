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
OPCODES = {1: "PING", 6: "SESSION_INIT", 19: "LOGIN", 49: "CHAT_HISTORY", 50: "CHAT_MARK", 64: "MSG_SEND",
           80: "PHOTO_UPLOAD", 128: "NOTIF_MESSAGE", 130: "NOTIF_MARK", 136: "NOTIF_ATTACH"}


def frame(cmd, seq, opcode, payload, compress=False, layout="cmd8-seq16"):
    raw = pack(payload)
    wire = lz4_block(raw) if compress else raw
    assert not compress or len(wire) < len(raw)
    if layout == "cmd8-seq16":
        middle = struct.pack(">BH", cmd, seq)
    else:
        middle = struct.pack(">HB", cmd, seq)
    header = bytes([10]) + middle + struct.pack(">HI", opcode, (1 << 24 if compress else 0) | len(wire))
    return header + wire, raw, wire


def write_vector(name, frames):
    stream = b""
    lines = []
    for number, (cmd, seq, opcode, payload, compress, layout) in enumerate(frames, start=1):
        data, raw, wire = frame(cmd, seq, opcode, payload, compress, layout)
        record = {
            "frame": number, "offset": len(stream), "ver": 10, "cmd": cmd, "cmdName": COMMANDS[cmd], "seq": seq,
            "opcode": opcode, "opcodeName": OPCODES.get(opcode, "OPCODE_%d" % opcode), "compressed": compress,
            "wirePayloadBytes": len(wire), "payloadBytes": len(raw), "payload": payload,
        }
        lines.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False))
        stream += data
    with open(name + ".bin", "wb") as handle:
        handle.write(stream)
    with open(name + ".jsonl", "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def message(ident, time, sender, text, cid=None):
    result = {"id": ident, "time": time, "sender": sender, "text": text}
    if cid is not None:
        result["cid"] = cid
    return result


T0 = 1_764_000_000_000
D = "cmd8-seq16"

login = {
    "profile": {"id": 1001, "name": "Ada"},
    "chats": [
        {"id": 7, "members": [1001, 1002], "modified": T0 + 5000,
         "lastMessage": message(70005, T0 + 5000, 1002, "see you at 6", 55)},
        {"id": 9, "members": [1001, 1003, 1004], "modified": T0 + 1200},
    ],
    "contacts": [{"id": 1002, "name": "Grace"}, {"id": 1003, "name": "Линус"}],
    "time": T0 + 6000,
}
write_vector("login-response", [(1, 1, 19, login, False, D)])

history = {"messages": [message(70000 + k, T0 + 1000 * k, 1001 + k % 2,
                                "message number %d in chat 7, with the usual small talk" % k)
                        for k in range(60)]}
write_vector("history-page-compressed", [(1, 2, 49, history, True, D)])

push = {"chatId": 7, "message": message(70006, T0 + 7000, 1002, "on my way \U0001F6B2", -3)}
write_vector("push-notif-message", [(2, 0, 128, push, False, D)])

write_vector("unknown-opcode", [(0, 3, 999, {"x": 1, "flags": [True, False, None]}, False, D)])

write_vector("session-cmd16", [
    (0, 200, 6, {"deviceId": "dev-1", "clientVersion": "syncsim"}, False, "cmd16-seq8"),
    (1, 200, 6, {"time": T0}, False, "cmd16-seq8"),
])

# Faulty streams for `syncsim decode` error tests: good frames, then the fault (no .jsonl: the test says what
# must be printed).
good, _, _ = frame(2, 0, 128, push)
with open("push-then-bad-version.bin", "wb") as handle:
    handle.write(good + bytes([9]) + good[1:])
with open("push-then-truncated-header.bin", "wb") as handle:
    handle.write(good + good[:4])
