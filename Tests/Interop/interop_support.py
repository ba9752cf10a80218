"""What the interoperability drivers share (pymax_session.py for PyMax 2.x, pymax1_session.py for PyMax 1.x): a
failed step, and `syncsim serve` run on a free port with a frame log and a control channel."""
import asyncio
import json
import os
import ssl
import subprocess
import time


class StepFailed(Exception):
    def __init__(self, step, detail):
        super().__init__(f"{step}: {detail}")
        self.step = step
        self.detail = detail


def check(step, condition, detail):
    if not condition:
        raise StepFailed(step, detail)


class Server:
    """`syncsim serve` on a free port with a frame log and a control channel on its standard input."""

    def __init__(self, syncsim, workdir, duration, history, extra=()):
        self.frame_log = os.path.join(workdir, "frames.jsonl")
        self.stderr_path = os.path.join(workdir, "serve.log")
        self.stderr = open(self.stderr_path, "w+")
        self.process = subprocess.Popen(
            [syncsim, "serve", "--port", "0", "--history", str(history), "--duration", str(duration),
             "--frame-log", self.frame_log, "--control-stdin", *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        deadline = time.time() + 30
        self.port = None
        while time.time() < deadline and self.port is None:
            time.sleep(0.05)
            with open(self.stderr_path) as log:
                first = log.readline()
            if "listening on 127.0.0.1:" in first:
                self.port = int(first.split("127.0.0.1:")[1].split()[0])
        if self.port is None:
            raise StepFailed("serve", "syncsim serve printed no port: " + open(self.stderr_path).read())

    def control(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def frames(self):
        try:
            with open(self.frame_log) as log:
                return [json.loads(line) for line in log if line.strip()]
        except FileNotFoundError:
            return []

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        summary = self.process.stdout.read() if self.process.stdout else ""
        return summary


def describe(frame):
    payload = json.dumps(frame["payload"], ensure_ascii=False)
    if len(payload) > 400:
        payload = payload[:400] + "..."
    return (f"  {frame['t'] / 1000:8.3f}s {frame['dir']:3} conn {frame['conn']} header {frame['header']} "
            f"{frame['opcodeName']} cmd {frame['cmd']} seq {frame['seq']}: {payload}")


async def close_clients(clients, tasks):
    """Closes PyMax clients (each given 10 s) and cancels their `start()` tasks, whatever state they are in."""
    for client in clients:
        try:
            await asyncio.wait_for(client.close(), 10)
        except Exception:
            pass
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def run_session(label, start_server, session):
    """Starts serve (`start_server()`), runs `session(server)` to its end, prints a failed step with the server's last
    frames, and stops serve, printing its summary. Returns the exit code: 0 when every step passed, else 1."""
    server = None
    started = time.monotonic()
    try:
        server = start_server()
        asyncio.run(session(server))
        return 0
    except StepFailed as failure:
        print(f"{label}: FAILED at step {failure.step}: {failure.detail} ({time.monotonic() - started:.0f} s)")
        if server is not None:
            print("last frames (server view; header in hex):")
            for frame in server.frames()[-8:]:
                print(describe(frame))
        return 1
    finally:
        if server is not None:
            summary = server.stop()
            if summary.strip():
                print(summary.strip())


async def start_terminator(serve_port, cert, key, maximum=None):
    """A TLS server on a free loopback port forwarding each connection's bytes to `syncsim serve` and back, offering
    TLS up to `maximum` (a `ssl.TLSVersion`; nil: the library's newest). Returns the asyncio server and its port."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    if maximum is not None:
        context.maximum_version = maximum

    async def pump(reader, writer):
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, ssl.SSLError):
            pass
        finally:
            try:
                writer.close()
            except Exception:
                pass

    async def handle(client_reader, client_writer):
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", serve_port)
        await asyncio.gather(pump(client_reader, upstream_writer), pump(upstream_reader, client_writer))

    server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=context)
    return server, server.sockets[0].getsockname()[1]
