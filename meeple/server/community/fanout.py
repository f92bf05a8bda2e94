"""Chat lines between server processes: a process that stored a line publishes it on
``meeple:chat`` (the server's one Redis bus); every other process delivers it to its own
connections."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import asdict

from ..fanout import RedisBus
from .store import ChatLine

CHANNEL = "meeple:chat"


class ChatFanout:
    """Publish chat lines and call ``on_line(line)`` for the lines of other processes."""

    def __init__(self, url: str, on_line: Callable[[ChatLine], Awaitable[None]]):
        async def deliver(_topic: str, data: str) -> None:
            await on_line(ChatLine(**json.loads(data)))

        self.bus = RedisBus(url, CHANNEL, deliver)

    async def start(self) -> None:
        await self.bus.start()

    async def publish(self, line: ChatLine) -> None:
        await self.bus.publish("", json.dumps(asdict(line)))

    async def stop(self) -> None:
        await self.bus.stop()
