#!/usr/bin/env python3
"""Writes the seed corpora under Fuzz/Corpus/<target>/ from Fixtures/ (Python standard library only).

Run from the repository root: python3 Fuzz/Tools/make_seeds.py. Each seed carries the target's control
prefix (docs/reliability.md, "Targets") before the bytes taken from a fixture. Re-running rewrites the same files.
"""
import json
import os
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Fixtures"
CORPUS = ROOT / "Fuzz" / "Corpus"


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(bytes(data))


def frames(stream, cmd16):
    """Splits a wire stream into (header, payload) pairs; stops at the first incomplete or bad frame."""
    out, at = [], 0
    while at + 10 <= len(stream) and stream[at] == 10:
        length = int.from_bytes(stream[at + 7:at + 10], "big")
        if at + 10 + length > len(stream):
            break
        out.append((stream[at:at + 10], stream[at + 10:at + 10 + length]))
        at += 10 + length
    return out


def main():
    if CORPUS.exists():
        for child in CORPUS.iterdir():
            if child.is_dir():
                shutil.rmtree(child)
    wire = sorted((FIXTURES / "wire").glob("*.bin"))
    for path in wire:
        stream = path.read_bytes()
        cmd16 = "cmd16" in path.name
        layout = 1 if cmd16 else 0
        # fuzz-frames: control byte = layout bit + (chunk size - 1) << 1; whole stream and 7-byte chunks.
        write("fuzz-frames", path.stem + "-whole", [layout | (127 << 1)] + list(stream))
        write("fuzz-frames", path.stem + "-chunk7", [layout | (6 << 1)] + list(stream))
        for index, (header, payload) in enumerate(frames(stream, cmd16)):
            compressed = header[6] != 0
            if compressed:
                # fuzz-lz4: bound choice (256 << 12 = 1 MiB), flag, then the block.
                write("fuzz-lz4", f"{path.stem}-{index}", [12, header[6]] + list(payload))
                if header[6] == 0xFF:
                    # fuzz-zstd: bound choice, mode 0 (decode), then the zstd frame.
                    write("fuzz-zstd", f"{path.stem}-{index}", [12, 0] + list(payload))
            else:
                write("fuzz-msgpack", f"{path.stem}-{index}", payload)
                # fuzz-zstd: bound choice, mode 1 (encode with zstd, decode back), then the bytes to carry.
                write("fuzz-zstd", f"{path.stem}-{index}-roundtrip", [12, 1] + list(payload))
                # fuzz-codable: type choice, cmd choice, opcode choice, then the value.
                cmd = header[1] if not cmd16 else header[2]
                for type_choice in range(0, 19, 3):
                    write("fuzz-codable", f"{path.stem}-{index}-t{type_choice}", [type_choice, cmd, 200] + list(payload))
    suite = json.loads((FIXTURES / "msgpack" / "msgpack-test-suite.json").read_text())
    for group, cases in sorted(suite.items()):
        for number, case in enumerate(cases):
            for form, text in enumerate(case["msgpack"]):
                data = bytes.fromhex(text.replace("-", ""))
                write("fuzz-msgpack", f"{group.split('.')[1]}-{number}-{form}", data)
    for path in sorted((FIXTURES / "pcap").glob("*.pcap*")) + sorted((FIXTURES / "replay").glob("*.pcap*")):
        write("fuzz-pcap", path.name, path.read_bytes())
    # fuzz-server, fuzz-client: step records from a fixed pseudo-random stream, and scripted happy paths so
    # libFuzzer starts past the handshake (op bytes as in the targets' doc comments; zero bytes pick defaults).
    state = 20261130
    def next_byte():
        nonlocal_state[0] = (nonlocal_state[0] * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return nonlocal_state[0] >> 56
    nonlocal_state = [state]
    for number in range(6):
        write("fuzz-server", f"random-{number}", [next_byte() for _ in range(400)])
        write("fuzz-client", f"random-{number}", [next_byte() for _ in range(400)])
    # Server: open slot 0, SESSION_INIT, LOGIN t1, CHAT_HISTORY, MSG_SEND, timers; all fields default.
    server = [0, 0x00, 0x02] + [0] * 8 + [0x13] + [0] * 12 + [0x23] + [0] * 12 + [0x44] + [0] * 20 + [0x08] * 4
    write("fuzz-server", "happy-path", server)
    # Client: connected, SESSION_INIT and LOGIN answered, open chat 10, history answered, send a text, ack it.
    client = [0, 0x00, 0x03] + [0] * 6 + [0x03] + [0] * 24 + [0x0C, 0] + [0x03] + [0] * 40
    client += [0x4C, 0, 0, 1, 0x61] + [0x03] + [0] * 24 + [0x0A] * 6
    write("fuzz-client", "happy-path", client)
    # fuzz-dsl: 4 bytes of explore seed, then edit records; the bare seeds are valid generated scenarios.
    for number in range(4):
        write("fuzz-dsl", f"seed-{number}", [0, 0, 0, number])
        write("fuzz-dsl", f"edits-{number}", [0, 0, 0, number] + [next_byte() for _ in range(96)])


if __name__ == "__main__":
    main()
