#!/usr/bin/env python3
"""Captures a real client's TLS session and checks that `syncsim --tls-keylog` decodes it as its plain twin.

PyMax (PyPI maxapi-python 2.5.0, MIT) connects with TLS on (its default, `use_ssl`), through a small TLS terminator
(this script, Python's stdlib ssl: test tooling) to `syncsim serve`, which speaks plain TCP. One tcpdump on the
loopback interface records both legs: PyMax <-> terminator encrypted, terminator <-> serve plain. Alice's client is
offered TLS 1.3, bob's TLS 1.2 (a second terminator port capped at 1.2). Alice uses PyMax's TCP client; bob its
WebClient, a WebSocket over TLS (wss://), as the field's web app connects.

Only what a user of PyMax may set is changed: host, port, token, and two environment variables Python's ssl module
reads for every default context (PyMax builds its context with ssl.create_default_context()): SSL_CERT_FILE (trust
the throw-away certificate) and SSLKEYLOGFILE (write the session keys, NSS key log format).

Checks, each named on failure:
  session   PyMax logs in, reads a history page, sends a message, gets bob's push
  decode    `decode CAPTURE --tls-keylog KEYS --port TLS_PORTS` gives the frames (cmd, seq, opcode, payload per
            connection and direction) that `decode CAPTURE --port SERVE_PORT` gives; both TLS versions decrypted
  summary   `trace-summary --tls-keylog` names TLS 1.3 and TLS 1.2
  replay    `replay --against server` prints the same verdict line for both legs
  refusals  without the key log, with a key log of other sessions: exit 2 and a message saying why

Usage: pymax_tls_capture.py --syncsim PATH --workdir DIR --cert CERT --key KEY [--fixture-dir DIR]
--fixture-dir copies the capture and key log there (how Fixtures/tls/ was made; see its README).
Exit code 0 when every check passed, 1 otherwise.
"""
import argparse
import asyncio
import json
import os
import shutil
import signal
import ssl
import subprocess
import sys
import time

from interop_support import start_terminator
from pymax import Client, ExtraConfig, WebClient

HISTORY = 20


class CheckFailed(Exception):
    def __init__(self, check, detail):
        super().__init__(f"{check}: {detail}")
        self.check = check
        self.detail = detail


def check(name, condition, detail):
    if not condition:
        raise CheckFailed(name, detail)


def start_serve(syncsim, workdir):
    log_path = os.path.join(workdir, "serve.log")
    log = open(log_path, "w+")
    process = subprocess.Popen(
        [syncsim, "serve", "--port", "0", "--history", str(HISTORY), "--duration", "120"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.time() + 30
    while time.time() < deadline:
        time.sleep(0.05)
        with open(log_path) as text:
            first = text.readline()
        if "listening on 127.0.0.1:" in first:
            return process, int(first.split("127.0.0.1:")[1].split()[0])
    raise CheckFailed("session", "syncsim serve printed no port: " + open(log_path).read())


def start_tcpdump(path, ports):
    expression = " or ".join(f"tcp port {port}" for port in ports)
    process = subprocess.Popen(["tcpdump", "-i", "lo", "--immediate-mode", "-U", "-s", "0", "-w", path, expression],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()  # "listening on lo, ..." once the capture runs
    check("capture", "listening" in line, f"tcpdump did not start: {line}{process.stderr.read() if process.poll() is not None else ''}")
    return process


def make_client(port, token, workdir, name, websocket=False):
    directory = os.path.join(workdir, name)
    os.makedirs(directory, exist_ok=True)
    if websocket:
        config = ExtraConfig(url=f"wss://127.0.0.1:{port}/websocket", token=token)
        return WebClient(work_dir=directory, extra_config=config)
    settings = dict(host="127.0.0.1", port=port, use_ssl=True, token=token)
    return Client(phone="+70000000000", work_dir=directory, extra_config=ExtraConfig(**settings))


async def session(alice_port, bob_port, workdir):
    alice = make_client(alice_port, "token-alice", workdir, "alice")
    bob = make_client(bob_port, "token-bob", workdir, "bob", websocket=True)
    started = {"alice": asyncio.Event(), "bob": asyncio.Event()}
    got_push = asyncio.Event()

    @alice.on_start()
    async def alice_started(client):
        started["alice"].set()

    @bob.on_start()
    async def bob_started(client):
        started["bob"].set()

    @alice.on_message()
    async def alice_message(message, client):
        got_push.set()

    tasks = [asyncio.create_task(alice.start()), asyncio.create_task(bob.start())]
    try:
        for name in ("alice", "bob"):
            try:
                await asyncio.wait_for(started[name].wait(), 20)
            except asyncio.TimeoutError:
                raise CheckFailed("session", f"{name}'s PyMax never logged in over TLS")
        dialog = next((c for c in alice.chats if bob.me.contact.id in c.participants), None)
        check("session", dialog is not None, "no chat between alice and bob")
        page = await alice.fetch_history(dialog.id, backward=10)
        check("session", len(page) == 10, f"history page of {len(page)} messages, expected 10")
        sent = await alice.send_message(dialog.id, "hello over TLS")
        check("session", sent.id > 0, f"MSG_SEND answer {sent}")
        await bob.send_message(dialog.id, "a push through the terminator")
        try:
            await asyncio.wait_for(got_push.wait(), 10)
        except asyncio.TimeoutError:
            raise CheckFailed("session", "alice's on_message handler never fired")
        await asyncio.sleep(0.3)
    finally:
        for client in (alice, bob):
            try:
                await asyncio.wait_for(client.close(), 10)
            except Exception:
                pass
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def capture(args, serve_port, capture_path):
    terminator13, port13 = await start_terminator(serve_port, args.cert, args.key, ssl.TLSVersion.TLSv1_3)
    terminator12, port12 = await start_terminator(serve_port, args.cert, args.key, ssl.TLSVersion.TLSv1_2)
    tcpdump = start_tcpdump(capture_path, [port13, port12, serve_port])
    try:
        await session(port13, port12, args.workdir)
        await asyncio.sleep(0.5)
    finally:
        for terminator in (terminator13, terminator12):
            terminator.close()
        tcpdump.send_signal(signal.SIGINT)
        tcpdump.wait(timeout=10)
    return port13, port12


def syncsim(args, *arguments):
    result = subprocess.run([args.syncsim, *arguments], capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout, result.stderr


def frames(args, capture_path, options, check_name):
    """Per connection, in the order the connections opened: its client's frames and its server's frames, each
    [(cmd, seq, opcode, payload)] in stream order (the two legs may interleave the directions differently)."""
    code, out, err = syncsim(args, "decode", capture_path, *options)
    check(check_name, code == 0, f"decode {' '.join(options)} exited {code}: {err.strip()}")
    connections = {}
    for line in out.splitlines():
        record = json.loads(line)
        if "frame" in record:
            directions = connections.setdefault(record["connection"], {"client->server": [], "server->client": []})
            directions[record["direction"]].append(
                (record["offset"], record["cmd"], record["seq"], record["opcode"],
                 json.dumps(record["payload"], sort_keys=True)))
        elif "issue" in record:
            raise CheckFailed(check_name, f"decode {' '.join(options)} reported an issue: {line}")
    return [tuple(tuple(frame[1:] for frame in sorted(connections[number][direction]))
                  for direction in ("client->server", "server->client"))
            for number in sorted(connections)]


def first_difference(left, right):
    for number, (a, b) in enumerate(zip(left, right)):
        for direction, x, y in (("client->server", a[0], b[0]), ("server->client", a[1], b[1])):
            for index, (p, q) in enumerate(zip(x, y)):
                if p != q:
                    return f"connection #{number + 1} {direction} frame {index + 1}: {p} vs {q}"
            if len(x) != len(y):
                return f"connection #{number + 1} {direction}: {len(x)} frames vs {len(y)}"
    return "different connections"


def compare(args, capture_path, keys, port13, port12, serve_port):
    tls_ports = ["--port", str(port13), "--port", str(port12)]
    plain = frames(args, capture_path, ["--port", str(serve_port)], "decode")
    decrypted = frames(args, capture_path, tls_ports + ["--tls-keylog", keys], "decode")
    count = sum(len(c[0]) + len(c[1]) for c in plain)
    check("decode", count >= 10, f"the plain leg has only {count} frames")
    check("decode", len(decrypted) == len(plain),
          f"{len(decrypted)} decrypted connections with frames, {len(plain)} plain ones")
    # The two clients connect at once, so the legs may list their connections in different orders.
    check("decode", sorted(decrypted) == sorted(plain),
          "the decrypted frames differ from the plain twin's: " + first_difference(sorted(decrypted), sorted(plain)))

    code, out, err = syncsim(args, "trace-summary", capture_path, *tls_ports, "--tls-keylog", keys)
    check("summary", code == 0 and "TLS 1.3 decrypted" in out and "TLS 1.2 decrypted" in out,
          f"trace-summary exited {code}: {out}{err}")

    verdicts = []
    for options in (tls_ports + ["--tls-keylog", keys], ["--port", str(serve_port)]):
        code, out, err = syncsim(args, "replay", capture_path, "--against", "server", *options)
        check("replay", code in (0, 1) and out.strip(), f"replay {' '.join(options)} exited {code}: {err}")
        # The verdict without its digest: the two legs were captured at other times, so their digests differ.
        verdicts.append(out.strip().splitlines()[-1].split("; digest ")[0])
    check("replay", verdicts[0] == verdicts[1], f"replay verdicts differ: {verdicts[0]!r} vs {verdicts[1]!r}")

    code, out, err = syncsim(args, "decode", capture_path, *tls_ports)
    check("refusals", code == 2 and "carries TLS" in err and "--tls-keylog" in err,
          f"decode without a key log exited {code}: {err.strip()}")
    other = os.path.join(args.workdir, "other-sessions.keys")
    with open(keys) as source, open(other, "w") as target:
        for line in source:
            fields = line.split()
            if len(fields) == 3:  # the same labels, other client randoms: keys of sessions not in the capture
                fields[1] = "".join("0123456789abcdef"[(int(c, 16) + 1) % 16] for c in fields[1])
                line = " ".join(fields) + "\n"
            target.write(line)
    code, out, err = syncsim(args, "decode", capture_path, *tls_ports, "--tls-keylog", other)
    check("refusals", code == 2 and "holds no key" in err, f"decode with a foreign key log exited {code}: {err}")
    return count, len(plain)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--syncsim", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--fixture-dir")
    args = parser.parse_args()
    keys = os.environ.get("SSLKEYLOGFILE")
    if not keys or os.environ.get("SSL_CERT_FILE") != args.cert:
        print("pymax tls: set SSLKEYLOGFILE and SSL_CERT_FILE (scripts/pymax-tls-interop.sh does)")
        return 1
    capture_path = os.path.join(args.workdir, "session.pcap")
    serve, serve_port = start_serve(args.syncsim, args.workdir)
    try:
        port13, port12 = asyncio.run(capture(args, serve_port, capture_path))
        count, connections = compare(args, capture_path, keys, port13, port12, serve_port)
        print(f"pymax tls: {count} frames on {connections} connections decrypted (TLS 1.3 and 1.2) "
              f"equal the plain twin's; decode, trace-summary and replay agree")
        if args.fixture_dir:
            os.makedirs(args.fixture_dir, exist_ok=True)
            shutil.copy(capture_path, os.path.join(args.fixture_dir, "pymax-tls.pcap"))
            shutil.copy(keys, os.path.join(args.fixture_dir, "pymax-tls.keys"))
            with open(os.path.join(args.fixture_dir, "ports.txt"), "w") as ports:
                ports.write(f"tls13 {port13}\ntls12 {port12}\nplain {serve_port}\n")
            print(f"pymax tls: wrote the fixture to {args.fixture_dir}")
        return 0
    except CheckFailed as failure:
        print(f"pymax tls: FAILED at {failure.check}: {failure.detail}")
        return 1
    finally:
        serve.terminate()
        try:
            serve.wait(timeout=10)
        except subprocess.TimeoutExpired:
            serve.kill()


if __name__ == "__main__":
    sys.exit(main())
