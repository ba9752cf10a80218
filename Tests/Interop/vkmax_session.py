#!/usr/bin/env python3
"""Drives vkmax (PyPI vkmax 1.0.2), a field client written apart from PyMax, or its fork python-max-client (PyPI
python-max-client 1.0.2, the same API with uploads, downloads and read marks added), through a session against
`syncsim serve`, through its public API only: `MaxClient` (JSON frames over a WebSocket), its `login_by_token`, its
`functions.messages` and `functions.users`, and `invoke_method` for a history page, called with the keys vkmax's
own `functions/groups.py` sends. Neither has a setting for its server: the module constant `WS_HOST` it connects to
is pointed at serve, and that is all that differs from its defaults.

What they send that PyMax does not: MSG_EDIT's `messageId` as a string, CONTACT_INFO (`resolve_users`), a reply's
`link`, and they read the LOGIN profile's own `phone`. They send no receipts and never reconnect. python-max-client
also sends MSG_TYPING 65 before an upload, posts photos, files and videos as multipart form data, waits for
NOTIF_ATTACH 136 by `fileId` or `videoId`, reads VIDEO_PLAY's answer with its `EXTERNAL` and `cache` keys removed
(the first value left is the URL), marks a chat read by a string `messageId` and unread (CHAT_MARK 50) and mutes it
(CONFIG 22 with `settings.chats`), and reacts to a message (MSG_REACTION 178 with a string `messageId`).

Steps (each names itself on failure, with the last frames of the server's frame log):
  login, history, send and push, edit (a string id), reply, pin (a string id; NOTIF_CHAT to bob), contacts,
  [python-max-client: read-marks, uploads (photo, file, video; FILE_DOWNLOAD, VIDEO_PLAY), mute, reaction],
  [1.0.2 and the fork: group, invite-link, join-by-link (LINK_INFO and CHAT_JOIN with `join/<token>`)], delete,
  keepalive (its ping every 30 s).

Usage: vkmax_session.py --syncsim PATH --workdir DIR [--package vkmax|python-max-client]
Exit code 0 when every step passed, 1 when one failed (the step and frames are printed), 2 for usage errors.
"""
import argparse
import asyncio
import io
import logging
import os
import sys

import importlib
from importlib.metadata import version as package_version

from interop_support import Server, StepFailed, check, run_session

HISTORY = 60
# Set by main() from --package: the client's modules, its name and version.
client_module = messages = users = chats = uploads = groups = None
LABEL = ""


class Inbox:
    """The pushes one client's callback received, by opcode, with an event to wait on."""

    def __init__(self):
        self.packets = []
        self.arrived = asyncio.Event()

    async def callback(self, client, packet):
        self.packets.append(packet)
        self.arrived.set()

    async def wait_for(self, step, opcode, match, seconds=10):
        """The first push of `opcode` whose payload satisfies `match`, waiting up to `seconds`."""
        deadline = asyncio.get_running_loop().time() + seconds
        while True:
            for packet in self.packets:
                if packet.get("opcode") == opcode and match(packet.get("payload", {})):
                    return packet
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise StepFailed(step, f"no push of opcode {opcode} matching; pushes seen: {self.packets[-4:]}")
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), remaining)
            except asyncio.TimeoutError:
                pass


def answer(step, response):
    """The payload of a response frame, failing the step on an error frame (`cmd` 3)."""
    payload = response.get("payload", {})
    check(step, response.get("cmd") == 1 and "error" not in payload, f"error answer: {response}")
    return payload


async def session(server):
    client_module.WS_HOST = f"ws://127.0.0.1:{server.port}/websocket"
    alice, bob = client_module.MaxClient(), client_module.MaxClient()
    alice_inbox, bob_inbox = Inbox(), Inbox()
    step = "login"
    try:
        await alice.connect()
        await bob.connect()
        await alice.set_callback(alice_inbox.callback)
        await bob.set_callback(bob_inbox.callback)
        login = answer(step, await alice.login_by_token("token-alice"))
        answer(step, await bob.login_by_token("token-bob"))
        check(step, login["profile"]["contact"]["id"] == 1, f"alice's profile: {login['profile']}")
        chats = login.get("chats", [])
        check(step, len(chats) == 1 and chats[0]["type"] == "DIALOG", f"alice's chats: {chats}")
        chat_id = chats[0]["id"]
        check(step, [c["id"] for c in login.get("contacts", [])] == [2], f"alice's contacts: {login.get('contacts')}")

        step = "history"
        newest = answer(step, await alice.invoke_method(
            opcode=49, payload={"chatId": chat_id, "from": login["time"], "forward": 0, "backward": 30,
                                "getMessages": True}))["messages"]
        check(step, len(newest) == 30, f"the newest page has {len(newest)} messages, expected 30")
        times = [m["time"] for m in newest]
        check(step, times == sorted(times), f"page not in time order: {times}")

        step = "send"
        sent = answer(step, await messages.send_message(alice, chat_id, "hello from vkmax"))["message"]
        check(step, sent["id"] > HISTORY and sent["text"] == "hello from vkmax", f"MSG_SEND answer: {sent}")
        await bob_inbox.wait_for(step, 128, lambda p: p.get("message", {}).get("id") == sent["id"])

        step = "edit"
        edited = answer(step, await messages.edit_message(alice, chat_id, sent["id"], "edited by vkmax"))["message"]
        check(step, edited["id"] == sent["id"] and edited["text"] == "edited by vkmax"
              and edited.get("status") == "EDITED", f"MSG_EDIT answer: {edited}")
        await bob_inbox.wait_for(step, 128, lambda p: p.get("message", {}).get("text") == "edited by vkmax")

        step = "reply"
        reply = answer(step, await messages.reply_message(bob, chat_id, "a reply from vkmax", sent["id"]))["message"]
        check(step, reply["id"] > sent["id"], f"reply's MSG_SEND answer: {reply}")
        # The link names the replied-to message by a string id; the answer and the push carry that message.
        linked = reply.get("link") or {}
        check(step, linked.get("type") == "REPLY" and (linked.get("message") or {}).get("id") == sent["id"]
              and linked.get("chatId") == chat_id, f"reply's link: {linked}")
        pushed = await alice_inbox.wait_for(step, 128, lambda p: p.get("message", {}).get("id") == reply["id"])
        check(step, (pushed["payload"]["message"].get("link") or {}).get("type") == "REPLY",
              f"the reply's push lacks its link: {pushed}")

        step = "pin"
        # vkmax sends `pinMessageId` as a string; bob hears of the pin through NOTIF_CHAT with the pinned message.
        pinned = answer(step, await messages.pin_message(alice, chat_id, reply["id"]))["chat"]
        check(step, (pinned.get("pinnedMessage") or {}).get("id") == reply["id"], f"CHAT_UPDATE answer: {pinned}")
        await bob_inbox.wait_for(step, 135, lambda p: (p.get("chat", {}).get("pinnedMessage") or {}).get("id")
                                 == reply["id"])

        step = "contacts"
        found = answer(step, await users.resolve_users(alice, [2, 999]))["contacts"]
        check(step, [c["id"] for c in found] == [2] and found[0]["names"][0]["name"] == "bob",
              f"CONTACT_INFO for [2, 999]: {found}")

        if uploads is not None:
            await fork_steps(server, alice, bob, bob_inbox, chat_id, reply["id"])
        if hasattr(groups, "join_group_by_link"):
            await group_steps(server, alice, bob, alice_inbox)

        step = "delete"
        answer(step, await messages.delete_message(alice, chat_id, [sent["id"]]))
        await bob_inbox.wait_for(step, 142, lambda p: sent["id"] in p.get("messageIds", []))

        step = "keepalive"
        await asyncio.sleep(31)
        for name in ("token-alice", "token-bob"):
            frames = server.frames()
            logins = [f["conn"] for f in frames if f["dir"] == "in" and f["opcode"] == 19
                      and f["payload"].get("token") == name]
            check(step, logins, f"no LOGIN of {name} in the frame log")
            pings = [f["seq"] for f in frames if f["conn"] == logins[-1] and f["dir"] == "in" and f["opcode"] == 1]
            pongs = [f["seq"] for f in frames if f["conn"] == logins[-1] and f["dir"] == "out" and f["opcode"] == 1
                     and f["cmd"] == 1]
            check(step, len(pings) >= 2 and pings == pongs, f"{name}: pings {pings}, answered {pongs}")
        print(f"{LABEL} websocket: every step passed")
    except StepFailed:
        raise
    except Exception as error:
        raise StepFailed(step, f"{LABEL} raised {error!r}")
    finally:
        for client in (alice, bob):
            try:
                await asyncio.wait_for(client.disconnect(), 10)
            except Exception:
                pass


async def fork_steps(server, alice, bob, bob_inbox, chat_id, last_id):
    """What python-max-client adds to vkmax: read marks, uploads with their downloads, and a chat's mute."""
    step = "read-marks"
    # CHAT_MARK 50 with a string messageId and a wall-clock `mark`, then SET_AS_UNREAD without a messageId.
    answer(step, await chats.mark_chat_as_read(bob, chat_id, last_id))
    answer(step, await chats.mark_chat_as_unread(bob, chat_id))

    step = "uploads"
    # Each upload: MSG_TYPING 65 with the kind, the slot (PHOTO_UPLOAD 80, FILE_UPLOAD 87, VIDEO_UPLOAD 82 with only
    # `count`), a multipart POST to the slot's url, and for a file or video the NOTIF_ATTACH 136 it waits for.
    photo = await asyncio.wait_for(uploads.upload_photo(alice, chat_id, io.BytesIO(b"\xff\xd8\xff" + b"p" * 2000)), 20)
    check(step, photo.get("_type") == "PHOTO" and photo.get("photoToken"), f"upload_photo gave {photo}")
    data = b"f" * 3000
    file = await asyncio.wait_for(uploads.upload_file(alice, chat_id, io.BytesIO(data), filename="отчёт.pdf"), 20)
    check(step, file.get("_type") == "FILE" and isinstance(file.get("fileId"), int), f"upload_file gave {file}")
    video = await asyncio.wait_for(uploads.upload_video(alice, chat_id, io.BytesIO(b"v" * 5000)), 20)
    check(step, video.get("_type") == "VIDEO" and video.get("token"), f"upload_video gave {video}")
    sent = answer(step, await messages.send_message(alice, chat_id, "three attachments",
                                                    attaches=[photo, file, video]))["message"]
    kinds = [a.get("_type") for a in sent.get("attaches", [])]
    check(step, kinds == ["PHOTO", "FILE", "VIDEO"], f"MSG_SEND answer's attaches: {sent.get('attaches')}")
    pushed = await bob_inbox.wait_for(step, 128, lambda p: p.get("message", {}).get("id") == sent["id"])
    attaches = pushed["payload"]["message"].get("attaches", [])
    stored = next((a for a in attaches if a.get("_type") == "FILE"), {})
    check(step, stored.get("name") == "отчёт.pdf" and stored.get("size") == len(data),
          f"the pushed file attachment: {stored} (expected name отчёт.pdf, size {len(data)}: the multipart part's)")
    url = await uploads.download_file(bob, chat_id, str(sent["id"]), file["fileId"])
    check(step, isinstance(url, str) and url.startswith("http"), f"download_file gave {url!r}")
    url = await uploads.download_video(bob, chat_id, str(sent["id"]), video["videoId"])
    check(step, isinstance(url, str) and url.startswith("http"), f"download_video gave {url!r}")
    typing = [f for f in server.frames() if f["dir"] == "in" and f["opcode"] == 65]
    check(step, len(typing) == 3, f"{len(typing)} MSG_TYPING frames, expected one per upload")

    step = "mute"
    answer(step, await chats.mute_chat(bob, chat_id))

    step = "reaction"
    # react_to_message (its groups module): MSG_REACTION 178 with a string messageId, then MSG_GET_DETAILED_REACTIONS
    # 181 {chatId, messageId, count}, whose answer it does not read (serve answers who gave which reaction since
    # session 39; before, proto.opcode); it returns nothing, so the frame log shows both and their answers.
    await groups.react_to_message(bob, chat_id, last_id, "\N{THUMBS UP SIGN}")
    asked = [f for f in server.frames() if f["dir"] == "in" and f["opcode"] == 178]
    check(step, len(asked) == 1 and asked[0]["payload"].get("messageId") == str(last_id), f"MSG_REACTION sent: {asked}")
    answered = [f for f in server.frames() if f["dir"] == "out" and f["opcode"] == 178 and f["conn"] == asked[0]["conn"]
                and f["seq"] == asked[0]["seq"]]
    check(step, answered and answered[0]["cmd"] == 1, f"MSG_REACTION answered {answered}")
    # The client sends 181 and returns without its answer: the answer may reach the frame log a moment later (it
    # did not yet on a loaded CI machine), so the log is read again for up to 5 s.
    detailed = []
    for _ in range(100):
        detailed = [f for f in server.frames()
                    if f["dir"] == "out" and f["opcode"] == 181 and f["conn"] == asked[0]["conn"]]
        if detailed:
            break
        await asyncio.sleep(0.05)
    check(step, detailed and detailed[0]["cmd"] == 1
          and any(r.get("reaction") == "\N{THUMBS UP SIGN}" for r in detailed[0]["payload"].get("reactions", [])),
          f"MSG_GET_DETAILED_REACTIONS answered {detailed}")


async def group_steps(server, alice, bob, alice_inbox):
    """vkmax 1.0.2's groups (python-max-client 1.0.2 has the same): a group made by MSG_SEND, its invite link, and
    bob joining by it with the link's text from `join/` on. `join_group_by_link` reads the joined chat's `cid` from
    CHAT_JOIN's answer (a KeyError without it), then sends CHAT_SUBSCRIBE for chat 381006 (a constant of vkmax's,
    unknown here: serve's error answer is not read), CHAT_SUBSCRIBE for the group and a CHAT_HISTORY page from the
    chat's `cid`."""
    step = "group"
    made = answer(step, await groups.create_group(alice, "vkmax group", []))
    group = made.get("chat") or {}
    group_id = group.get("id")
    check(step, group.get("type") == "CHAT" and isinstance(group.get("cid"), int), f"create_group answered {made}")

    step = "invite-link"
    # vkmax has no call that makes a link: CHAT_UPDATE with PyMax 2.5.0's key.
    link = answer(step, await alice.invoke_method(opcode=55, payload={"chatId": group_id, "revokePrivateLink": True}))
    link = (link.get("chat") or {}).get("link") or ""
    check(step, "join/" in link, f"CHAT_UPDATE revokePrivateLink gave the link {link!r}")
    token = link.split("join/")[-1]
    shown = answer(step, await groups.resolve_group_by_link(bob, token)).get("chat") or {}
    check(step, shown.get("id") == group_id and "2" not in (shown.get("participants") or {}),
          f"LINK_INFO for join/{token} answered {shown}")

    step = "join-by-link"
    await asyncio.wait_for(groups.join_group_by_link(bob, token), 20)
    members = answer(step, await groups.get_group_members(alice, group_id)).get("members") or []
    check(step, sorted(m["contact"]["id"] for m in members) == [1, 2], f"CHAT_MEMBERS after the join: {members}")
    await alice_inbox.wait_for(step, 128, lambda p: p.get("chatId") == group_id and any(
        a.get("event") == "joinByLink" for a in (p.get("message") or {}).get("attaches", [])))
    history = [f for f in server.frames() if f["opcode"] == 49 and f["dir"] == "in"
               and f["payload"].get("chatId") == group_id]
    check(step, len(history) == 1 and history[0]["payload"].get("from") == group["cid"],
          f"CHAT_HISTORY requests for the group: {history}")
    answered = [f for f in server.frames() if f["dir"] == "out" and f["conn"] == history[0]["conn"]
                and f["seq"] == history[0]["seq"] and f["opcode"] == 49]
    check(step, answered and answered[0]["cmd"] == 1, f"the group's CHAT_HISTORY was answered {answered}")


def main():
    global client_module, messages, users, chats, uploads, groups, LABEL
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--syncsim", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--package", default="vkmax", choices=["vkmax", "python-max-client"])
    args = parser.parse_args()
    module = args.package.replace("-", "_")
    client_module = importlib.import_module(f"{module}.client")
    messages = importlib.import_module(f"{module}.functions.messages")
    users = importlib.import_module(f"{module}.functions.users")
    groups = importlib.import_module(f"{module}.functions.groups")
    if args.package == "python-max-client":
        chats = importlib.import_module(f"{module}.functions.chats")
        uploads = importlib.import_module(f"{module}.functions.uploads")
    LABEL = f"{args.package} {package_version(args.package)}"
    os.makedirs(args.workdir, exist_ok=True)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    return run_session(f"{LABEL} websocket",
                       lambda: Server(args.syncsim, args.workdir, duration=120, history=HISTORY), session)


if __name__ == "__main__":
    sys.exit(main())
