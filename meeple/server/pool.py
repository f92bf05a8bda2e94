"""Heavy work off the event loop, in bounded pools.

* :class:`WorkPool`: replays, records, simulated motion and first loads of tables run in a few
  threads; at most ``queue`` jobs wait or run at once, and a job beyond that is refused at once
  with "busy" (503, ``Retry-After``) instead of piling up.
* :class:`BotPool`: search bots think in a small pool of processes (``forkserver`` or
  ``spawn``), so their thinking does not hold the interpreter lock the server needs. A job is
  the game's class, options and moves so far, the seat, the bot spec and a seed; the answer
  is an action id. Each worker keeps the last states it built, so a table's next move only
  applies the moves since. The pool keeps how long each bot thinks on each game: a bot that
  answers faster than sending it the job would take (:data:`LIGHT_THINK`, the greedy bot in
  KoPlus) is *light* and plays on the event loop.
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from meeple.engine import i18n

from . import bot_worker
from .domain import Code, Refused

T = TypeVar("T")
_, _n = i18n.words(__file__)
RETRY_AFTER = 2


class Busy(Refused):
    """The server has too much heavy work queued: try again shortly."""

    def __init__(self, reason: str, retry_after: int = RETRY_AFTER):
        super().__init__(Code.BUSY, reason)
        self.retry_after = retry_after


class WorkPool:
    """A few threads for heavy requests, with a bounded number of jobs waiting or running."""

    def __init__(self, workers: int = 2, queue: int = 16):
        self.workers, self.limit = workers, queue
        self.pending = 0
        self._executor: ThreadPoolExecutor | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker thread (in the context of the caller, so in its
        language), or :class:`Busy` when the queue is full."""
        if self.pending >= self.limit:
            raise Busy(_("The server is busy with other replays and loads; try again "
                         "shortly."))
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="meeple-work")
        self.pending += 1
        try:
            ctx = contextvars.copy_context()
            return await asyncio.get_running_loop().run_in_executor(self._executor, ctx.run,
                                                                    fn, *args)
        finally:
            self.pending -= 1

    def stop(self) -> None:
        """Forget the processes (they are shared and end with this process)."""
        self._executor = None


# ---------------------------------------------------------------------- bots in processes
_EXECUTOR: ProcessPoolExecutor | None = None
"""The bots' processes, shared by every app of this process (started on first use, ended when
the last pool using them stops)."""
_USERS = 0
"""How many started pools use :data:`_EXECUTOR`."""


def _executor(workers: int) -> ProcessPoolExecutor:
    global _EXECUTOR
    if _EXECUTOR is None:
        methods = multiprocessing.get_all_start_methods()
        if "forkserver" in methods:
            ctx: Any = multiprocessing.get_context("forkserver")
            # the fork server imports every game once; each worker is a fork of it
            ctx.set_forkserver_preload(["meeple.server.bot_worker"])
        else:
            ctx = multiprocessing.get_context("spawn")
        _EXECUTOR = ProcessPoolExecutor(workers, mp_context=ctx)
        atexit.register(_EXECUTOR.shutdown, wait=False, cancel_futures=True)
    return _EXECUTOR


def _processes(executor: Executor) -> dict[int, Any]:
    """The worker processes an executor has started so far, by pid."""
    return getattr(executor, "_processes", None) or {}


LIGHT_THINK = 0.0005
"""A bot whose moves cost less CPU than this on average (seconds) is light: it moves on the
event loop, where a move costs less than handing it to a process and back."""
LIGHT_BOTS = frozenset({"random"})
"""Bots light in every game."""
THINK_SAMPLES = 8
"""Moves of a bot timed in the pool before it may be judged light."""


class ThinkTimes:
    """How long each bot spec thinks per move on each game (CPU seconds, a running mean)."""

    def __init__(self) -> None:
        self._mean: dict[tuple[str, str], tuple[float, int]] = {}

    def note(self, game: str, spec: str, seconds: float) -> None:
        mean, n = self._mean.get((game, spec), (0.0, 0))
        n = min(n + 1, 4 * THINK_SAMPLES)
        self._mean[game, spec] = (mean + (seconds - mean) / n, n)

    def light(self, game: str, spec: str) -> bool:
        """Whether ``spec`` answers at once on ``game``."""
        if spec in LIGHT_BOTS:
            return True
        mean, n = self._mean.get((game, spec), (0.0, 0))
        return n >= THINK_SAMPLES and mean < LIGHT_THINK


class BotPool:
    """A small pool of processes for bots that search, started on first use; at most
    ``queue`` moves wait for it at once (the others wait their turn at the table)."""

    def __init__(self, workers: int = 2, queue: int = 64):
        self.workers, self.limit = workers, queue
        self._executor: Executor | None = None
        self._slots: asyncio.Semaphore | None = None
        self.waiting = 0
        self.times = ThinkTimes()

    @property
    def full(self) -> bool:
        """Whether more bot moves wait than the pool should take on."""
        return self.waiting >= self.limit

    @property
    def started(self) -> bool:
        """Whether this pool has asked for its processes yet."""
        return self._executor is not None

    def _start(self) -> Executor:
        global _USERS
        if self._executor is None:
            self._executor = _executor(self.workers)
            _USERS += 1
        return self._executor

    async def _submit(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in one of the processes. Until all of them run, the job is handed
        over from a thread: starting a process waits for the fork server (the first time, for
        it to import every game), and the event loop would stop meanwhile."""
        executor = self._start()
        if len(_processes(executor)) >= self.workers:
            fut = executor.submit(fn, *args)
        else:
            fut = await asyncio.to_thread(executor.submit, fn, *args)
        return await asyncio.wrap_future(fut)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in one of the bots' processes (a module-level function: it is pickled
        by name), for analysis work such as hints and reviews, in the language in use."""
        return await self._submit(bot_worker.speaking, i18n.language(), fn, *args)

    async def act(self, key: str, game: Any, moves: list[tuple[int, int]], seat: int,
                  spec: str, rng: random.Random, seconds: float | None) -> int:
        """The move of bot ``spec`` in ``seat`` of the game after ``moves``."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers * 2)
        self.waiting += 1
        try:
            async with self._slots:
                action, thought = await self._submit(
                    bot_worker.think, key, type(game), game.num_players, dict(game.options),
                    moves, seat, spec, rng.getrandbits(62), seconds)
                self.times.note(game.name, spec, thought)
                return action
        finally:
            self.waiting -= 1

    def stop(self) -> None:
        """Let go of the processes; the last pool to stop ends them (a server stopped by a
        signal does not run its exit handlers, and its workers would be left behind)."""
        global _EXECUTOR, _USERS
        if self._executor is None:
            return
        self._executor = None
        _USERS -= 1
        if _USERS == 0 and _EXECUTOR is not None:
            executor, _EXECUTOR = _EXECUTOR, None
            processes = list(_processes(executor).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()  # a bot may be thinking: it stops now
