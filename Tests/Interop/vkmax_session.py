#!/usr/bin/env python3
"""Drives vkmax (PyPI vkmax 1.0.2), a field client written apart from PyMax, through a session against
`syncsim serve`, through its public API only: `MaxClient` (JSON frames over a WebSocket), its `login_by_token`, its
`functions.messages` and `functions.users`, and `invoke_method` for a history page, called with the keys vkmax's
own `functions/groups.py` sends. vkmax has no setting for its server: the module constant `WS_HOST` it connects to
is pointed at serve, and that is all that differs from its defaults.

What it sends that PyMax does not: MSG_EDIT's `messageId` as a string, CONTACT_INFO (`resolve_users`), a reply's
`link`, and it reads the LOGIN profile's own `phone`. It sends no receipts and never reconnects.

Steps (each names itself on failure, with the last frames of the server's frame log):
  login, history, send and push, edit (a string id), reply, pin (a string id; NOTIF_CHAT to bob), contacts, delete,
  keepalive (its ping every 30 s).

Usage: vkmax_session.py --syncsim PATH --workdir DIR
Exit code 0 when every step passed, 1 when one failed (the step and frames are printed), 2 for usage errors.
"""
import argparse
import asyncio
import logging
import os
import sys

from importlib.metadata import version as package_version

import vkmax.client
from interop_support import Server, StepFailed, check, run_session
from vkmax.client import MaxClient
from vkmax.functions import messages, users

VKMAX_VERSION = package_version("vkmax")
HISTORY = 60


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
    vkmax.client.WS_HOST = f"ws://127.0.0.1:{server.port}/websocket"
    alice, bob = MaxClient(), MaxClient()
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
        print(f"vkmax {VKMAX_VERSION} websocket: every step passed")
    except StepFailed:
        raise
    except Exception as error:
        raise StepFailed(step, f"vkmax raised {error!r}")
    finally:
        for client in (alice, bob):
            try:
                await asyncio.wait_for(client.disconnect(), 10)
            except Exception:
                pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--syncsim", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    return run_session(f"vkmax {VKMAX_VERSION} websocket",
                       lambda: Server(args.syncsim, args.workdir, duration=120, history=HISTORY), session)


if __name__ == "__main__":
    sys.exit(main())
