#!/usr/bin/env python3
"""Drives MaxBridge (PyPI maxbridge 1.8.0, MIT), a third field client written apart from PyMax and vkmax, through a
session against `syncsim serve`, through its public API: `MaxAPI` (JSON frames over a WebSocket, on a Tornado loop in
a thread of its own; its calls block) and, for what it has no method for (uploads), its `send_command`. MaxBridge has
no setting for its server: it connects from its constructor to the address its `ws_url` attribute holds, so a
subclass sets that attribute first, and that is all that differs from its defaults.

What it sends that the others do not: its first request has seq 0, a PING `{interactive: false}` every 3 s,
CHAT_SUBSCRIBE 75 `{chatId, subscribe}`, CONTACT_INFO_BY_PHONE 46 `{phone}`, VIDEO_PLAY with only `{videoId, token}`
(no chat or message), and it fetches a file or video over HTTP GET from the address FILE_DOWNLOAD or VIDEO_PLAY gave
(a file's name from the `X-File-Name` header, a video only when its `Content-Type` says video). An error answer
(`cmd` 3) never reaches the caller: the call times out after 10 s.

Steps (each names itself on failure, with the last frames of the server's frame log):
  login, history, send and push, reply, subscribe, read mark (NOTIF_MARK to alice), contacts (by id, by phone),
  file (uploaded through send_command and an HTTP POST; MaxBridge's get_file), video (get_video), heartbeat.

Usage: maxbridge_session.py --syncsim PATH --workdir DIR
Exit code 0 when every step passed, 1 when one failed (the step and frames are printed), 2 for usage errors.
"""
import argparse
import logging
import os
import sys
import threading
import time
import urllib.parse
import urllib.request

from importlib.metadata import version as package_version

from interop_support import Server, StepFailed, check, run_session
from MaxBridge import MaxAPI

MAXBRIDGE_VERSION = package_version("maxbridge")
HISTORY = 60
WS_URL = None


class LocalMaxAPI(MaxAPI):
    """MaxAPI pointed at serve: `ws_url` is set before the constructor's connection starts."""

    def _start_ioloop(self):
        self.ws_url = WS_URL
        super()._start_ioloop()


class Inbox:
    """The pushes one client's `on_event` received (called from MaxBridge's executor threads)."""

    def __init__(self):
        self.packets = []
        self.changed = threading.Condition()

    def on_event(self, packet):
        with self.changed:
            self.packets.append(packet)
            self.changed.notify_all()

    def wait_for(self, step, opcode, match, seconds=10):
        """The first push of `opcode` whose payload satisfies `match`, waiting up to `seconds`."""
        deadline = time.monotonic() + seconds
        with self.changed:
            while True:
                for packet in self.packets:
                    if packet.get("opcode") == opcode and match(packet.get("payload", {})):
                        return packet
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise StepFailed(step, f"no push of opcode {opcode} matching; pushes seen: {self.packets[-4:]}")
                self.changed.wait(remaining)


def answer(step, response):
    """The payload of a response frame (MaxBridge hands over only `cmd` 1 frames; an error times the call out)."""
    check(step, response is not None and response.get("cmd") == 1, f"no answer: {response}")
    payload = response.get("payload", {})
    check(step, "error" not in payload, f"error answer: {response}")
    return payload


def upload(step, client, inbox, opcode, kind, name, data):
    """An upload through `send_command`: the slot (FILE_UPLOAD or VIDEO_UPLOAD), the bytes POSTed to its url, then
    the NOTIF_ATTACH push naming the id. Returns the slot."""
    slot = answer(step, client.send_command(opcode, {"count": 1, "type": 0, "uploaderType": 0, "profile": False}))
    info = slot["info"][0]
    request = urllib.request.Request(
        info["url"], data=data, method="POST",
        headers={"Content-Disposition": f"attachment; filename={urllib.parse.quote(name)}",
                 "Content-Type": "application/octet-stream"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        check(step, reply.status == 200, f"the upload POST answered {reply.status}")
    key = "fileId" if kind == "FILE" else "videoId"
    inbox.wait_for(step, 136, lambda p: p.get(key) == info[key])
    return info


def own_contact(client):
    """The client's own contact from LOGIN's profile: 1.8.0 keeps `profile.contact` as `user`, 1.5.x the whole
    `profile` ({contact, phone, profileOptions})."""
    user = client.user or {}
    return user.get("contact", user) if isinstance(user.get("contact"), dict) else user


def session(server):
    global WS_URL
    WS_URL = f"ws://127.0.0.1:{server.port}/websocket"
    alice_inbox, bob_inbox = Inbox(), Inbox()
    clients = []
    step = "login"
    try:
        alice = LocalMaxAPI(auth_token="token-alice", on_event=alice_inbox.on_event)
        clients.append(alice)
        bob = LocalMaxAPI(auth_token="token-bob", on_event=bob_inbox.on_event)
        clients.append(bob)
        check(step, own_contact(alice).get("id") == 1, f"alice's profile contact: {alice.user}")
        check(step, len(alice.chats) == 1, f"alice's chats: {alice.chats}")
        chat_id, chat = next(iter(alice.chats.items()))
        check(step, chat.get("type") == "DIALOG", f"alice's chat: {chat}")

        step = "history"
        page = answer(step, alice.get_history(chat_id))["messages"]
        check(step, len(page) == 30, f"the newest page has {len(page)} messages, expected 30")

        step = "send"
        sent = answer(step, alice.send_message(chat_id, "hello from MaxBridge", wait_for_response=True))["message"]
        check(step, sent["id"] > HISTORY and sent["text"] == "hello from MaxBridge", f"MSG_SEND answer: {sent}")
        bob_inbox.wait_for(step, 128, lambda p: p.get("message", {}).get("id") == sent["id"])

        step = "reply"
        reply = answer(step, bob.send_message(chat_id, "a reply", reply_id=str(sent["id"]),
                                              wait_for_response=True))["message"]
        link = reply.get("link") or {}
        check(step, link.get("type") == "REPLY" and (link.get("message") or {}).get("id") == sent["id"],
              f"reply's link: {link}")

        step = "subscribe"
        answer(step, alice.subscribe_to_chat(chat_id))
        answer(step, alice.subscribe_to_chat(chat_id, subscribe=False))

        step = "read"
        answer(step, bob.mark_as_read(chat_id, str(reply["id"])))
        alice_inbox.wait_for(step, 130, lambda p: p.get("userId") == 2)

        step = "contacts"
        found = answer(step, alice.get_contact_details(["2"]))["contacts"]
        check(step, [c["id"] for c in found] == [2], f"CONTACT_INFO for [2]: {found}")
        phone = own_contact(bob).get("phone")
        check(step, phone, f"bob's own profile contact has no phone: {bob.user}")
        by_phone = answer(step, alice.get_contact_by_phone(f"+{phone}"))
        check(step, (by_phone.get("contact") or {}).get("id") == 2, f"CONTACT_INFO_BY_PHONE +{phone}: {by_phone}")

        step = "file"
        data = b"MaxBridge file " * 200
        # An ASCII name: serve percent-encodes X-File-Name (a header carries ASCII), which MaxBridge hands on as is.
        slot = upload(step, alice, alice_inbox, 87, "FILE", "report-1.txt", data)
        carried = answer(step, alice.send_command(64, {
            "chatId": int(chat_id), "notify": True,
            "message": {"text": "a file", "cid": 5001, "elements": [],
                        "attaches": [{"_type": "FILE", "fileId": slot["fileId"]}]}}))["message"]
        fetched = bob.get_file(str(slot["fileId"]), chat_id, str(carried["id"]))
        check(step, fetched is not None, "get_file found no url")
        content, name = fetched
        check(step, content == data and name == "report-1.txt",
              f"get_file gave {len(content)} bytes named {name!r}, expected the {len(data)} uploaded, 'report-1.txt'")

        step = "video"
        clip = b"\x00\x00\x00\x18ftypmp42" + b"v" * 4000
        slot = upload(step, alice, alice_inbox, 82, "VIDEO", "clip.mp4", clip)
        answer(step, alice.send_command(64, {
            "chatId": int(chat_id), "notify": True,
            "message": {"text": "a video", "cid": 5002, "elements": [],
                        "attaches": [{"_type": "VIDEO", "videoId": slot["videoId"], "token": slot["token"]}]}}))
        stream = bob.get_video(str(slot["videoId"]))
        check(step, stream is not None, "get_video found no MP4 url, or the download's Content-Type is not video")
        check(step, stream.getvalue() == clip, f"get_video gave {len(stream.getvalue())} bytes, expected the "
                                               f"{len(clip)} uploaded")

        step = "heartbeat"
        # Two heartbeats at least: MaxBridge 1.8.0 pings every 3 s, 1.5.x every 5 s.
        time.sleep(11)
        for name in ("token-alice", "token-bob"):
            frames = server.frames()
            logins = [f["conn"] for f in frames if f["dir"] == "in" and f["opcode"] == 19
                      and f["payload"].get("token") == name]
            check(step, logins, f"no LOGIN of {name} in the frame log")
            pings = [f["seq"] for f in frames if f["conn"] == logins[0] and f["dir"] == "in" and f["opcode"] == 1]
            pongs = [f["seq"] for f in frames if f["conn"] == logins[0] and f["dir"] == "out" and f["opcode"] == 1
                     and f["cmd"] == 1]
            check(step, len(pings) >= 2 and pings == pongs, f"{name}: pings {pings}, answered {pongs}")
        print(f"maxbridge {MAXBRIDGE_VERSION} websocket: every step passed")
    except StepFailed:
        raise
    except Exception as error:
        raise StepFailed(step, f"MaxBridge raised {error!r}")
    finally:
        for client in clients:
            try:
                client.close()
            except Exception:
                pass


async def run(server):
    # run_session drives a coroutine; MaxBridge's calls block, so the session runs in this one.
    session(server)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--syncsim", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    return run_session(f"maxbridge {MAXBRIDGE_VERSION} websocket",
                       lambda: Server(args.syncsim, args.workdir, duration=120, history=HISTORY), run)


if __name__ == "__main__":
    sys.exit(main())
