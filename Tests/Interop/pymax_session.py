#!/usr/bin/env python3
"""Drives the real field client PyMax (PyPI maxapi-python, MIT; pinned 2.5.0, also run with 2.1.0) through a whole
session against `syncsim serve`, through PyMax's public API only.

Only what a user of PyMax may set is changed: host, port, TLS off, the login token and device settings (the web
shape is PyMax's own web user agent; the websocket shape is PyMax's `WebClient` with its URL pointed at the server,
which 2.5.0 speaks with binary frames in WebSocket messages and 2.1.0 with JSON text; the websocket-deflate shape is
the same against `serve --websocket-deflate`, which agrees to the permessage-deflate offer PyMax's `websockets`
library makes, so that every message both ways is compressed, RFC 7692). Protocol behaviour is PyMax's: its handshake, login, ping loop (every 30 s,
fixed in pymax/app.py), reconnect loop and event dispatch.

Steps (each names itself on failure, with the last frames of the server's frame log: hex header + payload):
  login, list-chats, history, resend-same-cid, push, photo, file-video, reply-forward-lookups, pin-and-rename, group, profile, edit-delete-push,
  drop-and-reconnect, ping.

Usage: pymax_session.py --syncsim PATH --shape mobile|web|websocket|websocket-deflate --workdir DIR
                         [--ping-seconds 75]
Exit code 0 when every step passed, 1 when one failed (the step and frames are printed), 2 for usage errors.
"""
import argparse
import asyncio
import inspect
import os
import sys
import time

from importlib.metadata import version as package_version

from interop_support import Server, StepFailed, check, close_clients, run_session
from pymax import Client, ExtraConfig, File, Photo, Video, WebClient
from pymax.types.domain.attachments import FileAttachment, PhotoAttachment, VideoAttachment
from pymax.protocol import OutboundFrame
from pymax.protocol.tcp import TcpProtocol

PYMAX_VERSION = package_version("maxapi-python")
HISTORY = 60
CHAT_NAME_HINT = "alice+bob"
# A photo's bytes: PyMax checks the file name's extension only; the server's CDN end counts the bytes.
PHOTO_BYTES = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
# A file's and a video's bytes: posted raw, counted by the CDN end; the file's name has to survive its quoting.
FILE_BYTES = b"%PDF-1.4\n" + bytes(range(256)) * 3
FILE_NAME = "отчёт за май.pdf"
VIDEO_BYTES = b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 2


def make_client(port, token, shape, workdir, name):
    """A PyMax client: only host, port, TLS, token and device settings (or, for its WebClient, the URL and token)
    differ from PyMax's defaults."""
    directory = os.path.join(workdir, name)
    os.makedirs(directory, exist_ok=True)
    if shape.startswith("websocket"):
        config = ExtraConfig(url=f"ws://127.0.0.1:{port}/websocket", token=token)
        return WebClient(work_dir=directory, extra_config=config)
    settings = dict(host="127.0.0.1", port=port, use_ssl=False, token=token)
    if shape == "web":
        settings["user_agent"] = ExtraConfig().generate_web_user_agent()
    return Client(phone="+70000000000", work_dir=directory, extra_config=ExtraConfig(**settings))


async def wait_for(event, seconds, step, detail):
    try:
        await asyncio.wait_for(event.wait(), seconds)
    except asyncio.TimeoutError:
        raise StepFailed(step, detail)


def typed_id(method, parameter, value):
    """`value` (a message id, or a list of them) as `method`'s signature types `parameter`: PyMax 2.1.0's reaction
    methods take message ids as strings (`message_id: str`, `message_ids: list[str]`), 2.5.0's as integers."""
    annotation = str(inspect.signature(method).parameters[parameter].annotation)
    if "str" not in annotation:
        return value
    return [str(v) for v in value] if isinstance(value, list) else str(value)


async def raw_request(port, token, opcode, payload):
    """Logs in as `token` on a connection of its own and sends one request with PyMax's own codec
    (pymax.protocol.tcp.TcpProtocol). Returns the answer (cmd 1 or 3)."""
    protocol = TcpProtocol()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def call(seq, opcode, payload):
        writer.write(protocol.encode(OutboundFrame(ver=10, opcode=opcode, cmd=0, seq=seq, payload=payload)))
        await writer.drain()
        while True:
            header = await reader.readexactly(10)
            length = int.from_bytes(header[6:10], "big") & 0xFFFFFF
            frame = protocol.decode(header + await reader.readexactly(length))
            if frame.seq == seq and frame.cmd in (1, 3):
                return frame

    try:
        agent = ExtraConfig().generate_web_user_agent().to_web_payload()
        await call(0, 6, {"userAgent": agent, "deviceId": "interop-raw"})
        await call(1, 19, {"token": token, "chatsCount": 40, "interactive": True, "chatsSync": -1,
                           "contactsSync": -1, "presenceSync": -1, "draftsSync": -1})
        return await call(2, opcode, payload)
    finally:
        writer.close()


async def raw_resend(port, token, chat_id, text, cid):
    """Re-sends a MSG_SEND with a cid PyMax already used, on a second connection: what a client retrying after a
    lost answer does. Returns the answer."""
    message = {"text": text, "cid": cid, "elements": [], "attaches": []}
    return await raw_request(port, token, 64, {"chatId": chat_id, "message": message, "notify": True})


async def session(args, server):
    alice = make_client(server.port, "token-alice", args.shape, args.workdir, "alice")
    bob = make_client(server.port, "token-bob", "mobile", args.workdir, "bob")
    started = {"alice": asyncio.Event(), "bob": asyncio.Event()}
    starts = {"alice": 0}
    restarted = asyncio.Event()
    disconnected = asyncio.Event()
    pushed, edited, deleted, chat_updates = [], [], [], []
    got_push, got_edit, got_delete = asyncio.Event(), asyncio.Event(), asyncio.Event()
    got_chat_update = asyncio.Event()
    away_text = "sent while alice was away"
    chat = {}

    @alice.on_start()
    async def alice_started(client):
        starts["alice"] += 1
        started["alice"].set()
        if starts["alice"] > 1:
            restarted.set()

    @bob.on_start()
    async def bob_started(client):
        started["bob"].set()

    @bob.on_chat_update()
    async def bob_chat_update(updated, client):
        chat_updates.append(updated)
        got_chat_update.set()

    @alice.on_message()
    async def alice_message(message, client):
        pushed.append(message)
        got_push.set()

    @alice.on_message_edit()
    async def alice_edit(message, client):
        edited.append(message)
        got_edit.set()

    @alice.on_message_delete()
    async def alice_delete(event, client):
        deleted.append(event)
        got_delete.set()

    async def alice_lost(exception=None, reconnect=None, delay=None):
        disconnected.set()
        if chat:
            await bob.send_message(chat["id"], away_text)

    # Older PyMax (2.1.0) has no disconnect hook: the drop step then sends bob's message itself, right after it.
    has_disconnect_hook = hasattr(alice, "on_disconnect")
    if has_disconnect_hook:
        alice.on_disconnect()(alice_lost)

    tasks = [asyncio.create_task(alice.start()), asyncio.create_task(bob.start())]
    session_start = time.monotonic()
    step = "login"
    try:
        await wait_for(started["bob"], 20, step, "bob's PyMax never finished SESSION_INIT + LOGIN")
        await wait_for(started["alice"], 20, step, "alice's PyMax never finished SESSION_INIT + LOGIN")
        check(step, alice.me is not None and alice.me.contact.id > 0, f"no profile: {alice.me}")
        check(step, alice.chats, f"LOGIN listed no chats: {alice.chats}")
        bob_id = bob.me.contact.id
        dialog = next((c for c in alice.chats if bob_id in c.participants), None)
        check(step, dialog is not None, f"no chat with bob ({bob_id}) in {[c.id for c in alice.chats]}")
        chat["id"] = dialog.id
        check(step, dialog.last_message is not None and dialog.last_message.type == "USER",
              f"chat without a typed last message: {dialog.last_message}")

        step = "list-chats"
        listed = await alice.fetch_chats()
        check(step, dialog.id in [c.id for c in listed], f"CHATS_LIST gave {[c.id for c in listed]}")

        step = "history"
        newest = await alice.fetch_history(dialog.id, backward=40)
        check(step, len(newest) == 40, f"newest page has {len(newest)} messages, expected 40")
        times = [m.time for m in newest]
        check(step, times == sorted(times) and len(set(times)) == 40, f"page not in time order: {times}")
        older = await alice.fetch_history(dialog.id, from_time=newest[0].time, backward=40)
        check(step, older and older[-1].id == newest[0].id,
              f"page from time {newest[0].time} ends at {older[-1].id if older else None}, expected {newest[0].id}")
        ids = {m.id for m in newest} | {m.id for m in older}
        check(step, len(ids) == HISTORY, f"two pages cover {len(ids)} messages, expected all {HISTORY}")
        # JSON text frames (PyMax 2.1.0's WebClient) carry no compression flag: their payload goes as JSON.
        compressed = [f for f in server.frames()
                      if f["dir"] == "out" and f["opcode"] == 49
                      and (f["header"][12:14] != "00" or f.get("transport") == "websocket-json")]
        check(step, compressed, "no CHAT_HISTORY answer went compressed")

        step = "resend-same-cid"
        sent = await alice.send_message(dialog.id, "hello from PyMax")
        check(step, sent.id > 0 and sent.cid, f"MSG_SEND answer without id or cid: {sent}")
        again = await raw_resend(server.port, "token-alice", dialog.id, "hello from PyMax", sent.cid)
        # The field answers a cid it already stored with a "duplicate" error (issue 12), never a second message.
        check(step, again.cmd == 3 and (again.payload or {}).get("error") == "message.duplicate",
              f"re-send answered {again.cmd} {again.payload}, expected the message.duplicate error")
        page = await alice.fetch_history(dialog.id, backward=5)
        check(step, [m.cid for m in page].count(sent.cid) == 1, f"cid {sent.cid} stored {[m.id for m in page]}")

        step = "push"
        from_bob = await bob.send_message(dialog.id, "a push for alice")
        await wait_for(got_push, 10, step, "alice's on_message handler never fired")
        check(step, pushed[-1].id == from_bob.id and pushed[-1].text == "a push for alice", f"got {pushed[-1]}")

        step = "photo"
        # PHOTO_UPLOAD's url leads back to the server: bob's PyMax POSTs the photo there and attaches the token the
        # answer gives; alice's push carries the photo in the shape PyMax's PhotoAttachment requires.
        got_push.clear()
        with_photo = await bob.send_message(dialog.id, "a photo for alice",
                                            attachments=[Photo(raw=PHOTO_BYTES, name="syncsim.png")])
        check(step, with_photo is not None and len(with_photo.attaches) == 1
              and isinstance(with_photo.attaches[0], PhotoAttachment), f"MSG_SEND answered {with_photo}")
        await wait_for(got_push, 10, step, "alice's on_message handler never fired for bob's photo")
        attaches = pushed[-1].attaches
        check(step, pushed[-1].id == with_photo.id and len(attaches) == 1 and isinstance(attaches[0], PhotoAttachment)
              and attaches[0].photo_id > 0 and attaches[0].base_url.endswith(f"/photo/{attaches[0].photo_id}"),
              f"photo push {pushed[-1]}")
        # The CDN end counts the whole multipart body: the photo's bytes and the form's boundaries and headers.
        with open(server.stderr_path) as log:
            stored = [int(line.split(" (")[1].split(" ")[0]) for line in log
                      if "uploaded photo" in line and "stored under" in line]
        check(step, stored and stored[-1] >= len(PHOTO_BYTES),
              f"the server's log shows no stored upload of at least {len(PHOTO_BYTES)} bytes: {stored}")

        step = "file-video"
        # FILE_UPLOAD / VIDEO_UPLOAD hand out a slot whose url leads back to the server; bob's PyMax POSTs the raw
        # bytes there, waits for NOTIF_ATTACH naming the id, then sends the message; alice's push carries the file
        # with the name, size and token PyMax's FileAttachment requires, FILE_DOWNLOAD and VIDEO_PLAY say where to
        # fetch them.
        got_push.clear()
        with_file = await bob.send_message(dialog.id, "a file for alice",
                                           attachments=[File(raw=FILE_BYTES, name=FILE_NAME)])
        check(step, with_file is not None and len(with_file.attaches) == 1
              and isinstance(with_file.attaches[0], FileAttachment), f"MSG_SEND answered {with_file}")
        await wait_for(got_push, 10, step, "alice's on_message handler never fired for bob's file")
        attaches = pushed[-1].attaches
        check(step, pushed[-1].id == with_file.id and len(attaches) == 1 and isinstance(attaches[0], FileAttachment)
              and attaches[0].name == FILE_NAME and attaches[0].size == len(FILE_BYTES),
              f"file push {pushed[-1]}")
        fetched = await alice.get_file_by_id(dialog.id, with_file.id, attaches[0].file_id)
        check(step, fetched is not None and fetched.url.endswith(f"/file/{attaches[0].file_id}")
              and fetched.unsafe is False, f"FILE_DOWNLOAD answered {fetched}")
        got_push.clear()
        with_video = await bob.send_message(dialog.id, "a video for alice",
                                            attachments=[Video(raw=VIDEO_BYTES, name="clip.mp4")])
        check(step, with_video is not None and len(with_video.attaches) == 1
              and isinstance(with_video.attaches[0], VideoAttachment), f"MSG_SEND answered {with_video}")
        await wait_for(got_push, 10, step, "alice's on_message handler never fired for bob's video")
        video = pushed[-1].attaches[0] if pushed[-1].attaches else None
        check(step, pushed[-1].id == with_video.id and isinstance(video, VideoAttachment) and video.video_id > 0,
              f"video push {pushed[-1]}")
        watch = await alice.get_video_by_id(dialog.id, with_video.id, video.video_id)
        check(step, watch is not None and watch.url and watch.url.endswith(f"/video/{video.video_id}"),
              f"VIDEO_PLAY answered {watch}")

        step = "reply-forward-lookups"
        if hasattr(alice, "get_message") and hasattr(alice, "forward_message"):
            # PyMax 2.5.0: a reply and a forward come back with the linked message, and MSG_GET finds it by id.
            # 2.4.x and later type the link (MessageLink); 2.3.x keeps it as the payload's dict.
            def linked(link, attribute, key):
                return link.get(key) if isinstance(link, dict) else getattr(link, attribute, None)
            reply = await alice.send_message(dialog.id, "a reply to bob", reply_to=from_bob.id)
            link = getattr(reply, "link", None)
            message = linked(link, "message", "message") if link is not None else None
            check(step, message is not None and linked(message, "id", "id") == from_bob.id
                  and linked(link, "chat_id", "chatId") == dialog.id
                  and linked(message, "text", "text") == "a push for alice", f"reply without its link: {reply}")
            forwarded = await alice.forward_message(dialog.id, from_bob.id, source_chat_id=dialog.id)
            link = getattr(forwarded, "link", None)
            message = linked(link, "message", "message") if link is not None else None
            check(step, message is not None and linked(message, "id", "id") == from_bob.id,
                  f"forward without its link: {forwarded}")
            got = await alice.get_message(dialog.id, from_bob.id)
            check(step, got is not None and got.id == from_bob.id and got.text == "a push for alice",
                  f"MSG_GET gave {got}")
        if hasattr(alice, "add_reaction"):
            # Reactions: alice's is counted and hers; bob's other one is counted beside it; alice takes hers back.
            reacted = typed_id(alice.add_reaction, "message_id", from_bob.id)
            mine = await alice.add_reaction(dialog.id, reacted, "👍")
            check(step, mine is not None and mine.total_count == 1 and mine.your_reaction == "👍",
                  f"MSG_REACTION answered {mine}")
            await bob.add_reaction(dialog.id, reacted, "🔥")
            both = await alice.get_reactions(dialog.id, typed_id(alice.get_reactions, "message_ids", [from_bob.id]))
            info = (both or {}).get(str(from_bob.id))
            check(step, info is not None and info.total_count == 2
                  and sorted(c.reaction for c in info.counters) == ["👍", "🔥"],
                  f"MSG_GET_REACTIONS answered {both}")
            left = await alice.remove_reaction(dialog.id, typed_id(alice.remove_reaction, "message_id", from_bob.id))
            check(step, left is not None and left.total_count == 1 and left.your_reaction is None,
                  f"MSG_CANCEL_REACTION answered {left}")
        # CHAT_INFO for a chat of the user's and an unknown one (PyMax asks only for chats it has not cached).
        info = await raw_request(server.port, "token-alice", 48, {"chatIds": [dialog.id, 999999]})
        listed = [c.get("id") for c in (info.payload or {}).get("chats", [])]
        check(step, info.cmd == 1 and listed == [dialog.id], f"CHAT_INFO answered {info.cmd} {info.payload}")

        step = "pin-and-rename"
        # CHAT_UPDATE: alice pins bob's message and names the chat; bob hears of each through NOTIF_CHAT.
        await alice.pin_message(dialog.id, typed_id(alice.pin_message, "message_id", from_bob.id), True)
        await wait_for(got_chat_update, 10, step, "bob's on_chat_update never fired for alice's pin")
        pin = chat_updates[-1].pinned_message
        check(step, chat_updates[-1].id == dialog.id and pin is not None and pin.id == from_bob.id,
              f"chat update after the pin: {chat_updates[-1]}")
        got_chat_update.clear()
        await alice.change_group_profile(dialog.id, name="SyncSim pair", description="pinned and named")
        await wait_for(got_chat_update, 10, step, "bob's on_chat_update never fired for alice's new title")
        check(step, chat_updates[-1].title == "SyncSim pair" and chat_updates[-1].description == "pinned and named"
              and chat_updates[-1].pinned_message is not None, f"chat update after the title: {chat_updates[-1]}")

        step = "group"
        if hasattr(alice, "create_group"):
            # A group: made by a MSG_SEND without chatId (a CONTROL attachment, event "new"), its members changed by
            # CHAT_MEMBERS_UPDATE, left by CHAT_LEAVE; bob hears of each change through NOTIF_CHAT.
            got_chat_update.clear()
            made = await alice.create_group("SyncSim group", [bob_id])
            check(step, made is not None, "create_group answered nothing")
            group, note = made
            check(step, group.id != dialog.id and group.title == "SyncSim group" and str(group.type) .endswith("CHAT")
                  and group.owner == alice.me.contact.id and sorted(group.participants) == sorted([alice.me.contact.id, bob_id])
                  and note.attaches and note.attaches[0].event == "new", f"create_group answered {made}")
            await wait_for(got_chat_update, 10, step, "bob's on_chat_update never fired for the new group")
            check(step, chat_updates[-1].id == group.id, f"bob's chat update {chat_updates[-1]}")
            got_chat_update.clear()
            await alice.remove_users_from_group(group.id, [bob_id], 0)
            await wait_for(got_chat_update, 10, step, "bob (removed) never heard of the group's change")
            check(step, bob_id not in chat_updates[-1].participants, f"after the removal: {chat_updates[-1]}")
            back = await alice.invite_users_to_group(group.id, [bob_id])
            check(step, back is not None and bob_id in back.participants, f"invite answered {back}")
            if hasattr(alice, "get_chat_members"):  # PyMax 2.5.0: CHAT_MEMBERS 59
                members, marker = await alice.get_chat_members(group.id)
                check(step, sorted(m.contact.id for m in members) == sorted([alice.me.contact.id, bob_id])
                      and marker == 0, f"CHAT_MEMBERS answered {members}, marker {marker}")
            await bob.leave_group(group.id)
            info = await raw_request(server.port, "token-alice", 48, {"chatIds": [group.id]})
            listed = (info.payload or {}).get("chats", [])
            check(step, len(listed) == 1 and list(listed[0]["participants"]) == [str(alice.me.contact.id)],
                  f"CHAT_INFO after bob left: {info.payload}")
            if hasattr(alice, "rework_invite_link") and hasattr(bob, "join_group"):
                # Invite links (PyMax 2.5.0): CHAT_UPDATE with revokePrivateLink gives the group a link, LINK_INFO 89
                # shows the group to bob (no longer a member), CHAT_JOIN 57 brings him back.
                linked = await alice.rework_invite_link(group.id)
                check(step, bool(linked.link) and "join/" in linked.link, f"rework_invite_link answered {linked}")
                seen = await bob.resolve_group_by_link(linked.link)
                check(step, seen is not None and seen.id == group.id and bob_id not in seen.participants,
                      f"resolve_group_by_link answered {seen}")
                joined = await bob.join_group(linked.link)
                check(step, joined.id == group.id and bob_id in joined.participants, f"join_group answered {joined}")
            if hasattr(alice, "change_group_settings"):
                # CHAT_UPDATE with options (PyMax 2.5.0): the group's settings, as CHAT_INFO then lists them.
                await alice.change_group_settings(group.id, all_can_pin_message=True, only_admin_can_add_member=False)
                info = await raw_request(server.port, "token-alice", 48, {"chatIds": [group.id]})
                listed = (info.payload or {}).get("chats", [])
                check(step, len(listed) == 1 and listed[0].get("options") == {"ALL_CAN_PIN_MESSAGE": True,
                                                                              "ONLY_ADMIN_CAN_ADD_MEMBER": False},
                      f"CHAT_INFO after change_group_settings: {info.payload}")

        step = "profile"
        if hasattr(alice, "change_profile"):
            # PROFILE 16 renames alice: her client takes the answer's profile, bob's CONTACT_INFO gives the new name.
            changed = await alice.change_profile("Alice", "Liddell")
            check(step, changed is True, f"change_profile returned {changed!r}")
            looked = await raw_request(server.port, "token-bob", 32, {"contactIds": [alice.me.contact.id]})
            names = [c["names"][0]["name"] for c in (looked.payload or {}).get("contacts", [])]
            check(step, names == ["Alice Liddell"], f"CONTACT_INFO after the rename: {looked.payload}")
        if hasattr(alice, "change_profile_settings"):
            from pymax import PrivacyAccess, PrivacySettingsUpdate  # PyMax 2.5.0: CONFIG 22
            hidden = await alice.change_profile_settings(
                PrivacySettingsUpdate(hide_online_status=True, search_by_phone=PrivacyAccess.ALL))
            check(step, hidden is True, f"change_profile_settings returned {hidden!r}")
        if hasattr(alice, "get_sessions"):
            # SESSIONS_INFO 96 (PyMax 2.5.0): alice's open sessions, hers marked current.
            sessions = await alice.get_sessions()
            check(step, any(session.current for session in sessions), f"get_sessions returned {sessions!r}")
            # LOGOUT 20 on a raw connection of alice's: answered {}, and that connection is no longer logged in.
            logged_out = await raw_request(server.port, "token-alice", 20, {})
            check(step, logged_out.cmd == 1, f"LOGOUT answer: cmd {logged_out.cmd}, {logged_out.payload}")
        if hasattr(alice, "remove_contact") and hasattr(alice, "add_contact"):
            # CONTACT_UPDATE 34 (PyMax 2.5.0): alice removes bob from her contacts and adds him back, as a User.
            bob_id = bob.me.contact.id
            removed = await alice.remove_contact(bob_id)
            check(step, removed is True, f"remove_contact returned {removed!r}")
            added = await alice.add_contact(bob_id)
            check(step, added is not None and added.id == bob_id, f"add_contact returned {added!r}")
        if hasattr(alice, "create_folder"):
            # FOLDERS_UPDATE 274, FOLDERS_GET 272, FOLDERS_DELETE 276 (PyMax 2.5.0): alice files the dialog in a
            # folder, renames it, lists her folders and deletes it.
            made = await alice.create_folder("Pairs", [dialog.id])
            check(step, made.folder is not None and made.folder.include == [dialog.id]
                  and made.folders_order == [made.folder.id], f"create_folder answered {made!r}")
            renamed = await alice.update_folder(made.folder.id, "Pairs and groups", [dialog.id])
            check(step, renamed.folder is not None and renamed.folder.title == "Pairs and groups"
                  and renamed.folder_sync > made.folder_sync, f"update_folder answered {renamed!r}")
            listed = await alice.get_folders()
            check(step, [folder.title for folder in listed.folders] == ["Pairs and groups"]
                  and listed.folder_sync == renamed.folder_sync, f"get_folders answered {listed!r}")
            gone = await alice.delete_folder(made.folder.id)
            check(step, gone.folders_order == [] and gone.folder_sync > renamed.folder_sync,
                  f"delete_folder answered {gone!r}")
        if hasattr(alice, "close_all_sessions"):
            # SESSIONS_CLOSE 97 (PyMax 2.5.0): alice ends her other sessions and keeps her session's token, which her
            # client stores (it returns False when the answer has none).
            kept = await alice.close_all_sessions()
            check(step, kept is True, f"close_all_sessions returned {kept!r}")

        step = "edit-delete-push"
        if hasattr(bob, "edit_message"):
            await bob.edit_message(dialog.id, from_bob.id, "an edited push")
        else:  # PyMax 2.1.0 has no edit in its API: bob's MSG_EDIT goes out with its codec
            await raw_request(server.port, "token-bob", 67, {"chatId": dialog.id, "messageId": from_bob.id,
                                                             "text": "an edited push", "elements": [],
                                                             "attachments": []})
        await wait_for(got_edit, 10, step, "alice's on_message_edit handler never fired")
        check(step, edited[-1].text == "an edited push", f"edit event {edited[-1]}")
        await bob.delete_message(dialog.id, [from_bob.id], for_me=False)
        await wait_for(got_delete, 10, step, "alice's on_message_delete handler never fired")
        check(step, deleted[-1].message_ids == [from_bob.id], f"delete event {deleted[-1]}")

        step = "drop-and-reconnect"
        server.control(f"drop {alice.me.contact.id}")
        if not has_disconnect_hook:
            await alice_lost()
        await wait_for(disconnected, 10, step, "alice's PyMax never noticed the dropped connection")
        if args.shape.startswith("websocket"):
            # PyMax 2.1.0's WebClient does not reconnect after a dropped WebSocket: its receive loop ends on the
            # websockets library's ConnectionClosedError, which its reconnect loop (BaseClient.start) does not
            # catch, so start() ends (2.2.0 onwards raise ConnectionError and reconnect). When it ended, it is
            # started again, as the app would be on its next launch.
            waiting = asyncio.ensure_future(restarted.wait())
            await asyncio.wait({waiting, tasks[0]}, timeout=20, return_when=asyncio.FIRST_COMPLETED)
            if tasks[0].done() and not restarted.is_set():
                tasks[0] = asyncio.create_task(alice.start())
            waiting.cancel()
        await wait_for(restarted, 20, step, "alice's PyMax did not reconnect and log in again")
        caught = next((c for c in alice.chats or [] if c.id == dialog.id), None)
        check(step, caught is not None and caught.last_message is not None
              and caught.last_message.text == away_text,
              f"LOGIN after reconnect did not bring the message sent meanwhile: {caught}")

        step = "ping"
        await asyncio.sleep(max(0, args.ping_seconds - (time.monotonic() - session_start)))
        # PyMax 2.1.0 has no `is_connected`: its pings answered over the whole span below show the same.
        check(step, getattr(alice, "is_connected", True), "alice is no longer connected")
        tokens = {}
        for f in server.frames():
            if f["dir"] == "in" and f["opcode"] == 19:
                tokens[f["conn"]] = f["payload"].get("token")
        pings = [f for f in server.frames()
                 if f["dir"] == "in" and f["opcode"] == 1 and tokens.get(f["conn"]) == "token-alice"]
        answered = [f for f in server.frames()
                    if f["dir"] == "out" and f["opcode"] == 1 and tokens.get(f["conn"]) == "token-alice"]
        span = (pings[-1]["t"] - pings[0]["t"]) / 1000 if pings else 0
        check(step, len(pings) >= 3 and span >= 55 and len(answered) >= len(pings) - 1,
              f"{len(pings)} pings over {span:.0f} s, {len(answered)} answered")
        if args.shape == "websocket-deflate":
            step = "deflate"
            with open(server.stderr_path) as log:
                agreed = [line for line in log if "upgraded to WebSocket" in line]
            check(step, agreed and all("agreed: permessage-deflate" in line for line in agreed),
                  f"not every WebSocket connection agreed to permessage-deflate: {agreed}")
        print(f"pymax {PYMAX_VERSION} {args.shape}: every step passed ({len(pings)} pings over {span:.0f} s, "
              f"{time.monotonic() - session_start:.0f} s)")
    except StepFailed:
        raise
    except Exception as error:
        raise StepFailed(step, f"PyMax raised {error!r}")
    finally:
        await close_clients((alice, bob), tasks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--syncsim", required=True)
    parser.add_argument("--shape", choices=["mobile", "web", "websocket", "websocket-deflate"], required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--ping-seconds", type=float, default=75)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    extra = ["--websocket-deflate"] if args.shape == "websocket-deflate" else []
    return run_session(
        f"pymax {PYMAX_VERSION} {args.shape}",
        lambda: Server(args.syncsim, args.workdir, duration=int(args.ping_seconds) + 120, history=HISTORY, extra=extra),
        lambda server: session(args, server))


if __name__ == "__main__":
    sys.exit(main())
