"""The session in pymax-vkmax.pcap: vkmax 1.0.2 (PyPI vkmax) as alice and bob against `syncsim serve` on PORT,
through vkmax's public functions; its module constant WS_HOST is pointed at serve. Usage: capture_vkmax.py PORT"""
import asyncio, sys
import vkmax.client
from vkmax.client import MaxClient
from vkmax.functions import messages, users

async def main(port):
    vkmax.client.WS_HOST = f"ws://127.0.0.1:{port}/websocket"
    alice, bob = MaxClient(), MaxClient()
    await alice.connect()
    await bob.connect()
    login = await alice.login_by_token("token-alice")
    await bob.login_by_token("token-bob")
    chat = login["payload"]["chats"][0]["id"]
    await alice.invoke_method(opcode=49, payload={"chatId": chat, "from": login["payload"]["time"], "forward": 0,
                                                  "backward": 30, "getMessages": True})
    sent = (await messages.send_message(alice, chat, "hello from vkmax"))["payload"]["message"]["id"]
    await messages.edit_message(alice, chat, sent, "edited by vkmax")
    await messages.reply_message(bob, chat, "a reply from vkmax", sent)
    await users.resolve_users(alice, [2])
    await messages.delete_message(alice, chat, [sent])
    await asyncio.sleep(0.5)
    await alice.disconnect()
    await bob.disconnect()
    print("sent", sent)

asyncio.run(main(int(sys.argv[1])))
