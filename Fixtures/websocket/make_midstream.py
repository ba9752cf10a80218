#!/usr/bin/env python3
"""Writes pymax-webclient-midstream.pcap from pymax-webclient.pcap: the same two WebSocket sessions as a capture
started after each had upgraded, as tcpdump gives when it starts while the app is connected.

Connection 1 (binary messages) loses its handshake, its first frames, and the first bytes of its next segment in
each direction, so each direction starts inside a WebSocket frame. Connection 2 (JSON text) loses its handshake
and first frames only, so it starts at a frame boundary. IP and TCP checksums are recomputed.

With `deflate`, it writes pymax-webclient-deflate-midstream.pcap from pymax-webclient-deflate.pcap instead (the same
sessions with permessage-deflate agreed, whose packets fall alike): handshakes and first frames dropped, no segment
trimmed, so each direction starts at a frame boundary with compressed messages whose DEFLATE window began before.

Usage: python3 make_midstream.py [deflate]   (from this folder; stdlib only)
"""
import struct
import sys

DEFLATE = sys.argv[1:] == ["deflate"]
SOURCE = "pymax-webclient-deflate.pcap" if DEFLATE else "pymax-webclient.pcap"
TARGET = "pymax-webclient-deflate-midstream.pcap" if DEFLATE else "pymax-webclient-midstream.pcap"
# 1-based packet numbers of the source: packets up to FIRST_KEPT[connection's client port] are dropped, and the
# payloads of the packets in TRIM lose that many leading bytes.
DROP_THROUGH = {1: 9, 2: 31}
TRIM = {} if DEFLATE else {10: 7, 11: 5}


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f">{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def main():
    data = open(SOURCE, "rb").read()
    out = bytearray(data[:24])
    offset, number, connections = 24, 0, {}
    while offset < len(data):
        seconds, micros, included, original = struct.unpack("<IIII", data[offset:offset + 16])
        packet = bytearray(data[offset + 16:offset + 16 + included])
        offset += 16 + included
        number += 1
        ip = packet[14:]
        header_length = (ip[0] & 15) * 4
        tcp = ip[header_length:]
        ports = tuple(sorted(struct.unpack(">HH", tcp[:4])))
        connection = connections.setdefault(ports, len(connections) + 1)
        if number <= DROP_THROUGH[connection]:
            continue
        if number in TRIM:
            cut = TRIM[number]
            data_offset = (tcp[12] >> 4) * 4
            seq = struct.unpack(">I", tcp[4:8])[0]
            tcp = tcp[:data_offset] + tcp[data_offset + cut:]
            tcp[4:8] = struct.pack(">I", (seq + cut) & 0xFFFFFFFF)
            ip = ip[:header_length] + tcp
            ip[2:4] = struct.pack(">H", len(ip))
            packet = packet[:14] + ip
        ip = packet[14:]
        ip[10:12] = b"\0\0"
        ip[10:12] = struct.pack(">H", checksum(bytes(ip[:header_length])))
        tcp = ip[header_length:]
        tcp[16:18] = b"\0\0"
        pseudo = bytes(ip[12:20]) + struct.pack(">BBH", 0, 6, len(tcp))
        tcp[16:18] = struct.pack(">H", checksum(pseudo + bytes(tcp)))
        packet = packet[:14] + ip[:header_length] + tcp
        out += struct.pack("<IIII", seconds, micros, len(packet), len(packet)) + packet
    open(TARGET, "wb").write(bytes(out))


if __name__ == "__main__":
    main()
