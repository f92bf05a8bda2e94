"""Fan-out of table updates between server processes through Redis pub/sub.

A process that stored a change publishes the table id on ``meeple:table:{id}``; every process
listening catches up from the database and updates its own connections.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

log = logging.getLogger("meeple.server")
PREFIX = "meeple:table:"


class RedisFanout:
    """Publish table changes and call ``on_change(table_id)`` for other processes' changes."""

    def __init__(self, url: str, on_change: Callable[[str], Awaitable[None]]):
        self.url = url
        self.on_change = on_change
        self.origin = f"{os.getpid()}-{id(self)}"
        self.client = aioredis.from_url(url)
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()

    async def start(self) -> None:
        await self.client.ping()
        self.task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self.ready.wait(), 10)

    async def _listen(self) -> None:
        pubsub = self.client.pubsub()
        await pubsub.psubscribe(PREFIX + "*")
        self.ready.set()
        try:
            while True:
                msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if msg is None:
                    continue
                data = msg["data"].decode() if isinstance(msg["data"], bytes) else msg["data"]
                if data == self.origin:
                    continue
                channel = msg["channel"]
                channel = channel.decode() if isinstance(channel, bytes) else channel
                try:
                    await self.on_change(channel[len(PREFIX):])
                except Exception:
                    log.exception("fan-out update of %s failed", channel)
        finally:
            await pubsub.aclose()

    async def publish(self, table_id: str) -> None:
        await self.client.publish(PREFIX + table_id, self.origin)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
        await self.client.aclose()
