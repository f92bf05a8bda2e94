"""Messages between server processes through Redis pub/sub.

:class:`RedisBus` is the one mechanism: a process publishes ``(topic, data)`` under a channel
prefix, and every other process listening on that prefix gets ``on_message(topic, data)``.
Tables use it as :class:`RedisFanout`: a process that stored a change publishes the table id
on ``meeple:table:{id}``; every process listening catches up from the database and updates
its own connections. The community's chat lines travel the same way, and so does the end of
a session (:class:`SessionFanout`: its sockets close in every process).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

log = logging.getLogger("meeple.server")
PREFIX = "meeple:table:"
SESSIONS = "meeple:session:"
TIMEOUT = 30.0
"""Seconds a command to Redis may take (redis-py's own default, 5 s, is shorter than a busy
machine may keep a process's event loop from reading the answer)."""
RETRY = (0.1, 5.0)
"""Seconds before listening again after the connection to Redis was lost: the first wait,
doubled each time up to the second."""


class RedisBus:
    """Publish ``(topic, data)`` on channels ``prefix + topic``; call
    ``on_message(topic, data)`` for what other processes publish there. A lost connection
    to Redis is made again; ``on_resume()`` is then called, as what was published meanwhile
    never came."""

    def __init__(self, url: str, prefix: str,
                 on_message: Callable[[str, str], Awaitable[None]],
                 on_resume: Callable[[], Awaitable[None]] | None = None):
        self.prefix = prefix
        self.on_message = on_message
        self.on_resume = on_resume
        self.origin = f"{os.getpid()}-{id(self)}"
        self.client = aioredis.from_url(url, socket_timeout=TIMEOUT,
                                        socket_connect_timeout=TIMEOUT)
        self.task: asyncio.Task[None] | None = None
        self.sender: asyncio.Task[None] | None = None
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.ready = asyncio.Event()
        self.listening = False
        """Whether the listening connection is subscribed now."""
        self.loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.client.ping()
        self.task = asyncio.create_task(self._listen())
        self.sender = asyncio.create_task(self._send())
        try:
            await asyncio.wait_for(self.ready.wait(), 10)
        except BaseException:
            await self.stop()
            raise

    async def _listen(self) -> None:
        wait = RETRY[0]
        while True:
            try:
                await self._subscribed()
            except Exception:
                if self.listening:  # a connection that worked: the next try comes soon
                    wait = RETRY[0]
                    self.listening = False
                log.warning("lost the other processes' messages on %s*, listening again in "
                            "%.1f s", self.prefix, wait, exc_info=True)
                await asyncio.sleep(wait)
                wait = min(2 * wait, RETRY[1])

    async def _subscribed(self) -> None:
        """Listen on one connection until it fails."""
        pubsub = self.client.pubsub()
        try:
            await pubsub.psubscribe(self.prefix + "*")
            self.listening = True
            if self.ready.is_set():
                await self._resumed()
            self.ready.set()
            while True:
                msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if msg is None:
                    continue
                channel = msg["channel"]
                channel = channel.decode() if isinstance(channel, bytes) else channel
                try:
                    body = json.loads(msg["data"])
                    if body.get("origin") == self.origin:
                        continue
                    await self.on_message(channel[len(self.prefix):], body.get("data", ""))
                except Exception:
                    log.exception("a message of another process on %s failed", channel)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def _resumed(self) -> None:
        """Listening again after the connection was lost: ``on_resume()``."""
        log.info("listening on %s* again", self.prefix)
        if self.on_resume is not None:
            try:
                await self.on_resume()
            except Exception:
                log.exception("catching up after listening on %s* again failed", self.prefix)

    async def publish(self, topic: str, data: str = "") -> None:
        """Send ``(topic, data)`` to the other processes, in order, on one connection: the
        messages waiting are sent together (the same one once), however many tables change
        at once, instead of one connection each."""
        self.outbox.put_nowait((topic, data))

    def publish_soon(self, topic: str, data: str = "") -> None:
        """:meth:`publish` from any thread (a worker thread of a request too)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.outbox.put_nowait, (topic, data))

    async def _send(self) -> None:
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            pipe = self.client.pipeline(transaction=False)
            for topic, data in dict.fromkeys(batch):
                pipe.publish(self.prefix + topic,
                             json.dumps({"origin": self.origin, "data": data}))
            try:
                await pipe.execute()
            except Exception:  # the others catch up from the database at their next move
                log.exception("publishing %d changes to the other processes failed", len(batch))

    async def stop(self) -> None:
        for task in (self.sender, self.task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.client.aclose()


class RedisFanout(RedisBus):
    """Publish table changes and call ``on_change(table_id)`` for other processes' changes;
    after the connection to Redis was lost, ``on_resume()`` (every table may have changed)."""

    def __init__(self, url: str, on_change: Callable[[str], Awaitable[None]],
                 on_resume: Callable[[], Awaitable[None]] | None = None):
        async def changed(table_id: str, _data: str) -> None:
            await on_change(table_id)

        super().__init__(url, PREFIX, changed, on_resume)


class SessionFanout(RedisBus):
    """Tell the other processes that a session ended, so that the sockets opened under it
    close there too; call ``on_end(id_hash=...)`` or ``on_end(user_id=...)`` for theirs, and
    ``on_resume()`` after the connection to Redis was lost (sessions may have ended)."""

    def __init__(self, url: str, on_end: Callable[..., object],
                 on_resume: Callable[[], Awaitable[None]] | None = None):
        async def ended(topic: str, data: str) -> None:
            if topic == "id":
                on_end(id_hash=data)
            elif topic == "user":
                on_end(user_id=int(data))

        super().__init__(url, SESSIONS, ended, on_resume)

    def share(self, id_hash: str | None = None, user_id: int | None = None) -> None:
        """A session ended here (a :class:`~meeple.server.auth.Sessions` listener: any
        thread)."""
        if id_hash is not None:
            self.publish_soon("id", id_hash)
        if user_id is not None:
            self.publish_soon("user", str(user_id))
