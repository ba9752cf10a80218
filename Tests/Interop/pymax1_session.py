#!/usr/bin/env python3
"""Drives PyMax's 1.x line (PyPI maxapi-python 1.2.5, MIT) through a session against `syncsim serve`, through its
public API only, in one of two shapes:
  websocket  its `MaxClient`: JSON frames over a WebSocket, its URI pointed at the server;
  socket     its `SocketMaxClient`: binary frames in 1.x's own header (version 11, `cmd` u16, `seq` u8) over TCP,
             always in TLS with certificate checks, so through a TLS terminator in this process (a thread) with a
             certificate made by openssl for 127.0.0.1 and trusted through SSL_CERT_FILE.
Only the URI or host and port, the login token, the phone its constructor requires, the work folder and telemetry
(off: it reports to the field's own servers) differ from its defaults.

1.2.5 imports `requests` without naming it in its package metadata: the venv installs it beside PyMax.

Steps (each names itself on failure, with the last frames of the server's frame log):
  login (profile, the dialog and the contact read: 1.x requires keys 2.x does not), history, send, push,
  drop-and-reconnect, pin-and-delete (a pin reaches bob as NOTIF_CHAT; bob's delete reaches alice's TCP client as
  the NOTIF_MESSAGE with status REMOVED that 1.x reads, her WebSocket client as NOTIF_MSG_DELETE), photo (alice's
  photo goes up by PHOTO_UPLOAD and an HTTP POST to serve's port; 1.x reads the message's attachment by `_type` and
  requires `baseUrl`, `width`, `height`, `photoId`, `photoToken`), file-video (a file and a video go up by
  FILE_UPLOAD and VIDEO_UPLOAD, an HTTP POST and the NOTIF_ATTACH 1.x waits for; get_file_by_id and get_video_by_id
  read FILE_DOWNLOAD and VIDEO_PLAY). A client may acknowledge each push with a delivery receipt, which the server answers (1.2.5
  over WebSocket, 1.2.4 over both transports); 1.x awaits that answer inside the loop that reads the socket, so the
  loop stalls for its 20 s timeout and its message handlers are not called: for such a client the pushes and
  receipts are checked in the frame log and it is left alone 21 s after each push. A client that sends no receipt
  (1.2.5 over TCP) must call its `on_message` handler.

Older releases (1.0.1 to 1.2.3) lack parts of this API: each check a release cannot take is skipped and named in the
result line; docs/real-clients.md ("Every PyMax release, tried") lists what each release does.

Usage: pymax1_session.py --syncsim PATH --shape websocket|socket --workdir DIR
Exit code 0 when every step passed, 1 when one failed (the step and frames are printed), 2 for usage errors.
"""
import argparse
import asyncio
import inspect
import logging
import os
import subprocess
import sys
import threading

from importlib.metadata import version as package_version

from interop_support import Server, StepFailed, check, close_clients, run_session, start_terminator
import pymax
from pymax import MaxClient
from pymax.files import File, Photo, Video

# Older 1.x releases lack parts of this API (1.0.1 has no SocketMaxClient, no on_message_delete, no attachment
# classes at the top level; 1.1.x sends a photo as `photo=`, not `attachment=`): the driver looks each part up and
# skips, by name, the checks a version cannot take.
SocketMaxClient = getattr(pymax, "SocketMaxClient", None)
SKIPPED = []

PYMAX_VERSION = package_version("maxapi-python")
HISTORY = 60


def make_client(shape, port, token, phone, workdir, name):
    """A PyMax 1.x client of the shape: `port` is serve's (websocket) or the TLS terminator's (socket)."""
    directory = os.path.join(workdir, name)
    os.makedirs(directory, exist_ok=True)
    common = dict(phone=phone, token=token, work_dir=directory, send_fake_telemetry=False, reconnect=True,
                  reconnect_delay=1.0)
    accepted = inspect.signature(MaxClient.__init__).parameters
    common = {key: value for key, value in common.items() if key in accepted}
    if shape == "socket":
        return SocketMaxClient(host="127.0.0.1", port=port, **common)
    return MaxClient(uri=f"ws://127.0.0.1:{port}/websocket", **common)


def start_terminator_thread(serve_port, workdir):
    """A TLS terminator on a free port in front of serve, in a thread of its own: 1.2.5's `SocketMaxClient` does its
    TLS handshake blocking on the event loop's thread. Returns the port."""
    cert, key = os.path.join(workdir, "cert.pem"), os.path.join(workdir, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key,
                    "-out", cert], check=True, capture_output=True)
    os.environ["SSL_CERT_FILE"] = cert
    loop = asyncio.new_event_loop()
    ready, port = threading.Event(), []

    def run():
        asyncio.set_event_loop(loop)
        _, serving_port = loop.run_until_complete(start_terminator(serve_port, cert, key))
        port.append(serving_port)
        ready.set()
        loop.run_forever()

    threading.Thread(target=run, daemon=True).start()
    if not ready.wait(10):
        raise StepFailed("terminator", "the TLS terminator did not start")
    return port[0]


async def wait_for(event, seconds, step, detail):
    try:
        await asyncio.wait_for(event.wait(), seconds)
    except asyncio.TimeoutError:
        raise StepFailed(step, detail)


async def retry_on_lost_socket(call, attempts=3):
    """Runs `call()`, again (after 3 s) when 1.2.5's socket client lost the socket under it.

    After a drop, or under heavy load, 1.2.5's `SocketMaxClient` may open two connections one after the other (seen
    in CI: SESSION_INIT and LOGIN on one, SESSION_INIT on the next 7 ms later, one client's seqs running on); a
    request sent on the first then fails with `SocketNotConnectedError` (`SocketSendError` around it). A script
    retries once its client settled, as this does; any other error is raised at once."""
    for attempt in range(attempts):
        try:
            return await call()
        except Exception as error:
            lost = "not connected" in repr(error).lower() or "send and wait failed" in repr(error).lower()
            if not lost or attempt == attempts - 1:
                raise
            await asyncio.sleep(3)


def receipts(server, connection):
    """The delivery receipts (NOTIF_MESSAGE requests) a connection sent, and the server's answers to them."""
    frames = server.frames()
    sent = [f for f in frames if f["dir"] == "in" and f["conn"] == connection and f["opcode"] == 128 and f["cmd"] == 0]
    answered = [f for f in frames if f["dir"] == "out" and f["conn"] == connection and f["opcode"] == 128
                and f["cmd"] == 1 and f["payload"] == {}]
    return sent, answered


def connection_of(server, token):
    """The newest connection that logged in with `token`."""
    logins = [f["conn"] for f in server.frames() if f["dir"] == "in" and f["opcode"] == 19
              and f["payload"].get("token") == token]
    return logins[-1] if logins else None


def send_text(client, text, chat_id):
    """MSG_SEND of a text: 1.0.1 and 1.1.x require `notify`, later releases default it to true."""
    if "notify" in inspect.signature(client.send_message).parameters:
        return client.send_message(text, chat_id, notify=True)
    return client.send_message(text, chat_id)


async def session(server, shape):
    if shape == "socket" and SocketMaxClient is None:
        print(f"pymax {PYMAX_VERSION} {shape}: skipped (this release has no SocketMaxClient)")
        return
    port = start_terminator_thread(server.port, server.workdir) if shape == "socket" else server.port
    alice = make_client(shape, port, "token-alice", "+79000000001", server.workdir, "alice")
    bob = make_client(shape, port, "token-bob", "+79000000002", server.workdir, "bob")
    starts = {"alice": 0, "bob": 0}
    started = {"alice": asyncio.Event(), "bob": asyncio.Event()}
    restarted = asyncio.Event()
    pushed, got_push = [], asyncio.Event()
    deleted, got_delete = [], asyncio.Event()
    chat_updates, got_chat_update = [], asyncio.Event()

    def on_start(name):
        async def handler():
            starts[name] += 1
            started[name].set()
            if name == "alice" and starts[name] > 1:
                restarted.set()
        return handler

    alice.on_start(on_start("alice"))
    bob.on_start(on_start("bob"))

    @alice.on_message()
    async def alice_message(message):
        pushed.append(message.text)
        got_push.set()

    async def alice_delete(message):
        deleted.append(message)
        got_delete.set()

    async def bob_chat_update(chat):
        chat_updates.append(chat)
        got_chat_update.set()

    has_delete_hook = hasattr(alice, "on_message_delete")  # not in 1.0.1 and 1.1.x: the frame log is then the check
    if has_delete_hook:
        alice.on_message_delete()(alice_delete)
    has_chat_hook = hasattr(bob, "on_chat_update")
    if has_chat_hook:
        bob.on_chat_update(bob_chat_update)  # 1.2.5 takes the handler itself, not as a decorator factory

    tasks = [asyncio.create_task(alice.start()), asyncio.create_task(bob.start())]
    step = "login"
    try:
        await wait_for(started["alice"], 20, step, "alice's client never finished its handshake and sync")
        await wait_for(started["bob"], 20, step, "bob's client never finished its handshake and sync")
        check(step, alice.me is not None and alice.me.id == 1, f"alice's profile is {alice.me!r}")
        check(step, len(alice.dialogs) == 1, f"alice's dialogs: {alice.dialogs!r} (a chat entry it could not read "
              "is left out)")
        dialog = alice.dialogs[0]
        check(step, dialog.last_message is not None, "the dialog has no last message")
        if hasattr(alice, "contacts"):  # kept from LOGIN since 1.2.3
            check(step, len(alice.contacts) == 1, f"alice's contacts: {alice.contacts!r}")
        else:
            SKIPPED.append("contacts")

        step = "history"
        newest = await retry_on_lost_socket(lambda: alice.fetch_history(dialog.id, backward=40))
        check(step, newest and len(newest) == 40, f"newest page has {len(newest or [])} messages, expected 40")
        times = [m.time for m in newest]
        check(step, times == sorted(times), f"page not in time order: {times}")
        older = await retry_on_lost_socket(
            lambda: alice.fetch_history(dialog.id, from_time=newest[0].time, backward=40))
        ids = {m.id for m in newest} | {m.id for m in (older or [])}
        check(step, len(ids) == HISTORY, f"two pages cover {len(ids)} messages, expected all {HISTORY}")

        # A client that answers a push with a delivery receipt awaits the receipt's answer inside the loop that reads
        # its socket, so it stalls for its 20 s timeout and does not call its message handlers (1.2.5 over
        # WebSocket, 1.2.4 over both transports): such a client is left alone 21 s after a push, and the push and
        # the answered receipt are checked in the frame log. One that sends none must call `on_message`.
        step = "send"
        sent = await send_text(alice, "hello from PyMax 1.x", dialog.id)
        check(step, sent is not None and sent.id > HISTORY, f"MSG_SEND answer: {sent!r}")
        await asyncio.sleep(2)
        sent_receipts, answered = receipts(server, connection_of(server, "token-bob"))
        check(step, len(answered) == len(sent_receipts) <= 1,
              f"bob's receipts for alice's message: {len(sent_receipts)} sent, {len(answered)} answered with {{}}")
        if sent_receipts:
            await asyncio.sleep(19)

        step = "push"
        bobs = await send_text(bob, "hello alice, from bob", dialog.id)
        check(step, bobs is not None, "bob's MSG_SEND got no answer")
        await asyncio.sleep(2)
        alice_connection = connection_of(server, "token-alice")
        pushes = [f for f in server.frames() if f["dir"] == "out" and f["conn"] == alice_connection
                  and f["opcode"] == 128 and f["cmd"] == 0]
        check(step, any(f["payload"]["message"]["text"] == "hello alice, from bob" for f in pushes),
              f"no push of bob's message on alice's connection {alice_connection}")
        sent_receipts, answered = receipts(server, alice_connection)
        check(step, len(answered) == len(sent_receipts) <= 1,
              f"alice's receipts: {len(sent_receipts)} sent, {len(answered)} answered with {{}}")
        if sent_receipts:
            await asyncio.sleep(19)
        else:
            await wait_for(got_push, 15, step, "alice's on_message never fired for bob's message")
            check(step, pushed == ["hello alice, from bob"], f"alice's pushes: {pushed}")

        step = "drop-and-reconnect"
        if "reconnect" in inspect.signature(MaxClient.__init__).parameters:
            server.control("drop 1")
            # 60 s, not 30: after a drop, 1.2.5 over WebSocket first waits for its socket's `wait_closed()`, which
            # returned 30 s after the abnormal close in session 41's CI run (15:31:07 to 15:31:37 in its log), the
            # whole of the old deadline; the reconnect came a moment later and the step failed.
            await wait_for(restarted, 60, step, "alice's client did not reconnect and sync after the server dropped it")
        else:
            SKIPPED.append("drop-and-reconnect (no reconnect in this release)")
        page = await retry_on_lost_socket(lambda: alice.fetch_history(dialog.id, backward=5))
        texts = [m.text for m in page or []]
        check(step, texts[-2:] == ["hello from PyMax 1.x", "hello alice, from bob"],
              f"newest page: {texts}")
        # 1.x hears of a delete only from a NOTIF_MESSAGE whose message is REMOVED: serve sends that shape to 1.x's
        # TCP frames (`--delete-notice auto`), NOTIF_MSG_DELETE to a WebSocket, which cannot be told apart from 2.x.
        step = "pin-and-delete"
        pinned = await alice.pin_message(dialog.id, bobs.id, True)
        check(step, pinned is True, f"pin_message returned {pinned!r}")
        bob_connection = connection_of(server, "token-bob")
        await asyncio.sleep(1)
        notices = [f for f in server.frames() if f["dir"] == "out" and f["conn"] == bob_connection
                   and f["opcode"] == 135 and f["cmd"] == 0]
        check(step, notices and (notices[-1]["payload"]["chat"].get("pinnedMessage") or {}).get("id") == bobs.id,
              f"bob's connection {bob_connection} got no NOTIF_CHAT with the pin: {notices}")
        if shape == "socket" and has_chat_hook:
            await wait_for(got_chat_update, 10, step, "bob's on_chat_update never fired for alice's pin")
            check(step, chat_updates[-1].id == dialog.id, f"chat update {chat_updates[-1]!r}")
        await bob.delete_message(dialog.id, [bobs.id], for_me=False)
        await asyncio.sleep(1)
        alice_connection = connection_of(server, "token-alice")
        opcodes = [f["opcode"] for f in server.frames() if f["dir"] == "out" and f["conn"] == alice_connection
                   and f["cmd"] == 0 and f["opcode"] in (128, 142)]
        if shape == "socket":
            check(step, opcodes[-1:] == [128], f"alice's pushes after the delete: {opcodes}")
            removed = [f for f in server.frames() if f["dir"] == "out" and f["conn"] == alice_connection
                       and f["opcode"] == 128 and f["cmd"] == 0]
            check(step, removed[-1]["payload"]["message"].get("status") == "REMOVED"
                  and removed[-1]["payload"]["message"].get("id") == bobs.id,
                  f"alice's last push is not bob's message REMOVED: {removed[-1]['payload']}")
            sent_receipts, answered = receipts(server, alice_connection)
            if sent_receipts:
                # 1.2.4 acknowledges the push and stalls on the answer (above): the frame log is the check.
                check(step, len(answered) == len(sent_receipts),
                      f"alice's receipts: {len(sent_receipts)} sent, {len(answered)} answered with {{}}")
                await asyncio.sleep(19)
            elif has_delete_hook:
                await wait_for(got_delete, 10, step, "alice's on_message_delete never fired for bob's delete")
                check(step, deleted[-1].id == bobs.id and deleted[-1].status == "REMOVED",
                      f"delete event {deleted[-1]!r}")
        else:
            check(step, opcodes[-1:] == [142], f"alice's pushes after the delete: {opcodes}")

        # Last: bob's client may stall 20 s on its receipt for this push (above), which no later step waits for.
        step = "photo"
        photo_path = os.path.join(server.workdir, "syncsim.png")  # 1.2.5's Photo takes a path or URL, no bytes
        with open(photo_path, "wb") as photo_file:
            photo_file.write(PHOTO_BYTES)
        sending = inspect.signature(alice.send_message).parameters
        if "attachment" in sending:
            with_photo = await alice.send_message("a photo from PyMax 1.x", dialog.id,
                                                  attachment=Photo(path=photo_path))
        else:  # 1.0.1 and 1.1.x
            with_photo = await alice.send_message("a photo from PyMax 1.x", dialog.id, notify=True,
                                                  photo=Photo(path=photo_path))
        attaches = with_photo.attaches if with_photo is not None else []
        # 1.0.1 keeps a message's attachments as the payload's maps; later releases as objects
        photo_ids = [a.get("photoId") if isinstance(a, dict) else getattr(a, "photo_id", None) for a in attaches]
        check(step, len(photo_ids) == 1 and (photo_ids[0] or 0) > 0, f"MSG_SEND answer: {with_photo!r} {attaches!r}")

        step = "file-video"
        if "attachment" not in sending:
            SKIPPED.append("file-video (no file attachments in this release)")
            print(f"pymax {PYMAX_VERSION} {shape}: every step passed (skipped: {', '.join(SKIPPED)})")
            return
        # 1.x uploads by FILE_UPLOAD and VIDEO_UPLOAD, an HTTP POST of the bytes, and the NOTIF_ATTACH it waits for;
        # its models require a file's name, size and token, a video's previewData and duration, and VIDEO_PLAY's
        # answer with `EXTERNAL` and `cache` beside the address (`VideoRequest.from_dict`).
        file_path = os.path.join(server.workdir, "отчёт 1.txt")
        with open(file_path, "wb") as file:
            file.write(b"PyMax 1.x file " * 100)
        video_path = os.path.join(server.workdir, "clip.mp4")
        with open(video_path, "wb") as file:
            file.write(b"\x00\x00\x00\x18ftypmp42" + b"v" * 3000)
        with_file = await asyncio.wait_for(
            alice.send_message("a file from PyMax 1.x", dialog.id, attachment=File(path=file_path)), 30)
        files = [a for a in (with_file.attaches if with_file else []) if hasattr(a, "file_id")]
        check(step, len(files) == 1 and files[0].name == "отчёт 1.txt" and files[0].size == 1500,
              f"MSG_SEND answer: {with_file!r}")
        with_video = await asyncio.wait_for(
            alice.send_message("a video from PyMax 1.x", dialog.id, attachment=Video(path=video_path)), 30)
        videos = [a for a in (with_video.attaches if with_video else []) if hasattr(a, "video_id")]
        check(step, len(videos) == 1, f"MSG_SEND answer: {with_video!r}")
        fetched = await alice.get_file_by_id(dialog.id, with_file.id, files[0].file_id)
        check(step, fetched is not None and fetched.url.startswith("http"), f"get_file_by_id: {fetched!r}")
        watched = await alice.get_video_by_id(dialog.id, with_video.id, videos[0].video_id)
        check(step, watched is not None and watched.url.startswith("http"), f"get_video_by_id: {watched!r}")
        skipped = f" (skipped: {', '.join(SKIPPED)})" if SKIPPED else ""
        print(f"pymax {PYMAX_VERSION} {shape}: every step passed{skipped}")
    except StepFailed:
        raise
    except Exception as error:
        raise StepFailed(step, f"PyMax raised {error!r}")
    finally:
        await close_clients((alice, bob), tasks)


# A photo's bytes: PyMax checks the file name's extension only; the server's CDN end counts the bytes.
PHOTO_BYTES = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--syncsim", required=True)
    parser.add_argument("--shape", choices=["websocket", "socket"], required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)

    # PyMax 1.1.x-1.2.3's SocketMaxClient writes 1.x's layout under version 10 (1.1.10 and 1.2.4 on: 11), bytes a
    # server cannot tell from 2.x's while seqs stay below 256, so serve's `--delete-notice auto` cannot see that it
    # reads deletes only as a REMOVED message: as docs/real-clients.md says, such a client is served with
    # `--delete-notice removed-message`.
    extra = ()
    if args.shape == "socket" and SocketMaxClient is not None:
        import pymax.mixins.socket as socket_mixin
        if "ver=10" in inspect.getsource(socket_mixin):
            extra = ("--delete-notice", "removed-message")

    def start_server():
        # A ceiling (the session stops the server when it is done): room for two receipt stalls and a slow reconnect.
        server = Server(args.syncsim, args.workdir, duration=180, history=HISTORY, extra=extra)
        server.workdir = args.workdir
        return server

    return run_session(f"pymax {PYMAX_VERSION} {args.shape}", start_server,
                       lambda server: session(server, args.shape))


if __name__ == "__main__":
    sys.exit(main())
