import asyncio, sys
from pymax import WebClient, ExtraConfig
port = int(sys.argv[1]); tag = sys.argv[2]
async def main():
    c = WebClient(work_dir=f"/tmp/wst/cap-{tag}", extra_config=ExtraConfig(url=f"ws://127.0.0.1:{port}/websocket", token="token-alice"))
    done = asyncio.Event()
    @c.on_start()
    async def started(client):
        page = await c.fetch_history(1, backward=40)
        sent = await c.send_message(1, f"hello over websocket {tag}")
        print(tag, "page", len(page), "sent", sent.id)
        done.set()
    task = asyncio.create_task(c.start())
    await asyncio.wait_for(done.wait(), 20)
    await c.close()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
asyncio.run(main())
