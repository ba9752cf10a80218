#!/usr/bin/env python3
"""A WebSocket relay that agrees to permessage-deflate (RFC 7692) with its clients and passes each message on,
uncompressed, to `syncsim serve`'s WebSocket side. It stands in for a field server that compresses, so that a
capture between a real client and it holds compressed messages (pymax-webclient-deflate.pcap).

Usage: python3 deflate_relay.py LISTEN_PORT SERVE_PORT   (with the `websockets` package PyMax depends on)
"""
import asyncio
import sys

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve


async def relay(client):
    async with connect(f"ws://127.0.0.1:{sys.argv[2]}/websocket", compression=None, max_size=None) as upstream:
        async def pump(source, target):
            async for message in source:
                await target.send(message)
        tasks = [asyncio.create_task(pump(client, upstream)), asyncio.create_task(pump(upstream, client))]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()


async def main():
    # compression="deflate" is the library's default: it accepts the client's permessage-deflate offer.
    async with serve(relay, "127.0.0.1", int(sys.argv[1]), compression="deflate", max_size=None):
        await asyncio.Future()


asyncio.run(main())
