"""Chat lines between server processes through Redis pub/sub: a process that stored a line
publishes it on ``meeple:chat``; every other process delivers it to its own connections."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import asdict

import redis.asyncio as aioredis

from .store import ChatLine

log = logging.getLogger("meeple.server.community")
CHANNEL = "meeple:chat"


class ChatFanout:
    """Publish chat lines and call ``on_line(line)`` for the lines of other processes."""

    def __init__(self, url: str, on_line: Callable[[ChatLine], Awaitable[None]]):
        self.on_line = on_line
        self.origin = f"{os.getpid()}-{id(self)}"
        self.client = aioredis.from_url(url)
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    async def start(self) -> None:
        await self.client.ping()
        self.task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self.ready.wait(), 10)

    async def _listen(self) -> None:
        pubsub = self.client.pubsub()
        await pubsub.subscribe(CHANNEL)
        self.ready.set()
        try:
            while True:
                msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if msg is None:
                    continue
                try:
                    data = json.loads(msg["data"])
                    if data.get("origin") == self.origin:
                        continue
                    await self.on_line(ChatLine(**data["line"]))
                except Exception:
                    log.exception("a chat line from another process could not be delivered")
        finally:
            await pubsub.aclose()

    async def publish(self, line: ChatLine) -> None:
        await self.client.publish(CHANNEL, json.dumps({"origin": self.origin,
                                                       "line": asdict(line)}))

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        await self.client.aclose()
