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

  The pool is shared fairly between people, not tables: jobs wait in a queue per person
  (the table's owner, the person asking for a hint) and the people are served in turn, so
  someone with forty bot-only tables gets one turn like someone with one. Hints come first
  (a person waits for each, and a server works out only a few at once), then bots' moves,
  then other analysis, then background work (a review's estimates, worked out while games
  are played); hints, other analysis and background work never take every process, and background
  work gives way at once (its job is stopped and queued again) when a hint, a bot's move or
  other analysis waits for the process it holds. A hint never waits for bots that think
  long: the pool has one process more, which only a hint takes, when every other is busy
  (a hint's search is bounded by its deadline, so that process is soon free again). Guests are
  cheap, so the tables with thinking bots that guests from one address may have open are
  counted together (:meth:`BotPool.check_address`).

  The workers end with the server however it ends, ``kill -9`` too: each watches a pipe
  whose other end only the server holds, and leaves when it reads its end; the fork server
  and the resource tracker then end by themselves (they wait for the workers).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import contextvars
import multiprocessing
import random
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from meeple.bots.review import Preempted
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
_LIFELINE: tuple[Connection, Connection] | None = None
"""The pipe the workers watch (read end, write end): they end when the write end closes, when
the last pool stops or when this process ends, however it ends."""
_USERS = 0
"""How many started pools use :data:`_EXECUTOR`."""
_URGENT: Any = None
"""A number shared with the workers (:data:`bot_worker._URGENT`): above 0 while a bot's move
or a hint waits for a process that background work holds."""


def _executor(workers: int) -> ProcessPoolExecutor:
    global _EXECUTOR, _LIFELINE, _URGENT
    if _EXECUTOR is None:
        methods = multiprocessing.get_all_start_methods()
        if "forkserver" in methods:
            ctx: Any = multiprocessing.get_context("forkserver")
            # the fork server imports every game once; each worker is a fork of it
            ctx.set_forkserver_preload(["meeple.server.bot_forkserver"])
        else:
            ctx = multiprocessing.get_context("spawn")
        # only this process holds the write end (pipes are not inherited by the processes it
        # starts); the read end goes to each worker as it starts
        _LIFELINE = ctx.Pipe(duplex=False)
        _URGENT = ctx.RawValue("i", 0)
        _EXECUTOR = ProcessPoolExecutor(workers, mp_context=ctx, initializer=bot_worker.start,
                                        initargs=(_LIFELINE[0], _URGENT))
    return _EXECUTOR


def _end_processes() -> None:
    """End the bots' processes now (a bot may be thinking: it stops) and let go of the
    pool's queues, whose semaphores are removed as they go; the fork server and the resource
    tracker end after the workers. Nothing is left for the exit handlers, which a server
    stopped by a signal does not run (uvicorn raises the signal again)."""
    global _EXECUTOR, _LIFELINE
    executor, _EXECUTOR = _EXECUTOR, None
    lifeline, _LIFELINE = _LIFELINE, None
    if executor is None:
        return
    processes = list(_processes(executor).values())
    for process in processes:
        process.terminate()
    if lifeline is not None:
        for end in lifeline:
            end.close()
    executor.shutdown(wait=True, cancel_futures=True)
    for process in processes:
        process.join(5)


atexit.register(_end_processes)


@contextlib.contextmanager
def processes_kept() -> Iterator[None]:
    """Keep the bots' processes between the apps this process makes one after another (a
    test suite does): they start once, not once per app, and end when this ends (or with the
    process)."""
    global _USERS
    _USERS += 1
    try:
        yield
    finally:
        _USERS -= 1
        if _USERS == 0:
            _end_processes()


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
GUEST_TABLES_PER_ADDRESS = 6
"""The most tables with thinking bots that guests from one address may have open at once."""
GUESTS_KEPT = 64
"""The guests noted per address."""
PEOPLE_KEPT = 4096
"""The people whose last turn in the pool is remembered (the others count as new)."""
ADDRESSES_KEPT = 10_000
"""The addresses whose guests are noted."""


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


@dataclass(eq=False)
class _Job:
    """One call waiting for (or running in) the bots' processes."""

    person: Hashable
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any] = field(repr=False)


class _Turns:
    """Jobs waiting, a queue per person; the person served longest ago goes next (someone
    new first), one job at a time, so everyone waiting takes turns."""

    def __init__(self) -> None:
        self._queues: dict[Hashable, deque[_Job]] = {}
        self._served: dict[Hashable, int] = {}
        self._count = 0

    def of(self, person: Hashable) -> int:
        """How many jobs of ``person`` wait."""
        return len(self._queues.get(person, ()))

    def __bool__(self) -> bool:
        return bool(self._queues)

    def add(self, job: _Job, first: bool = False) -> None:
        """Queue ``job`` last (or ``first``: a job that gave way goes on where it was)."""
        q = self._queues.setdefault(job.person, deque())
        if first:
            q.appendleft(job)
        else:
            q.append(job)

    def drop(self, job: _Job) -> None:
        """Forget a job that is no longer wanted (if it still waits)."""
        q = self._queues.get(job.person)
        if q is not None and job in q:
            q.remove(job)
            if not q:
                del self._queues[job.person]

    def next(self) -> _Job | None:
        """The first job of the person whose turn it is."""
        if not self._queues:
            return None
        # the least recently served; among equals, the first to ask
        person = min(self._queues, key=lambda p: self._served.get(p, -1))
        q = self._queues[person]
        job = q.popleft()
        if not q:
            del self._queues[person]
        self._count += 1
        self._served[person] = self._count
        if len(self._served) > PEOPLE_KEPT:
            self._served = {p: n for p, n in self._served.items()
                            if p in self._queues or n > self._count - PEOPLE_KEPT // 2}
        return job

    def clear(self) -> list[_Job]:
        jobs = [job for q in self._queues.values() for job in q]
        self._queues.clear()
        return jobs


class BotPool:
    """A small pool of processes for bots that search, started on first use, shared fairly
    between people; at most ``queue`` moves wait for it at once (the others wait their turn
    at the table)."""

    def __init__(self, workers: int = 2, queue: int = 64,
                 guest_tables_per_address: int = GUEST_TABLES_PER_ADDRESS):
        self.workers, self.limit = workers, queue
        self.processes = workers + 1
        """The processes it starts: the workers and one more, which only a hint takes."""
        self.guest_tables_per_address = guest_tables_per_address
        self._executor: Executor | None = None
        self._hints = _Turns()
        self._moves = _Turns()
        self._analysis = _Turns()
        self._background = _Turns()
        self._running = 0
        self._running_analysis = 0
        self._running_background = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._guests: OrderedDict[str, OrderedDict[int, None]] = OrderedDict()
        self.waiting = 0
        """Bots' moves asked for and not answered yet."""
        self.times = ThinkTimes()

    @property
    def full(self) -> bool:
        """Whether more bot moves wait than the pool should take on."""
        return self.waiting >= self.limit

    @property
    def started(self) -> bool:
        """Whether this pool has asked for its processes yet."""
        return self._executor is not None

    def queued(self, person: Hashable) -> int:
        """How many jobs of ``person`` wait for a process."""
        return (self._hints.of(person) + self._moves.of(person) + self._analysis.of(person)
                + self._background.of(person))

    # ------------------------------------------------------------------ guests per address
    def guests_at(self, address: str, user_id: int) -> list[int]:
        """Note that guest ``user_id`` asks from ``address``; the guests noted there (the
        last few of the last many addresses, in this process)."""
        guests = self._guests.pop(address, None) or OrderedDict()
        guests.pop(user_id, None)
        guests[user_id] = None
        while len(guests) > GUESTS_KEPT:
            guests.popitem(last=False)
        self._guests[address] = guests
        while len(self._guests) > ADDRESSES_KEPT:
            self._guests.popitem(last=False)
        return list(guests)

    def check_address(self, tables: int) -> None:
        """Refuse (429) another table with thinking bots to a guest from an address whose
        guests have ``tables`` of them open, when that is all they may have."""
        if tables >= self.guest_tables_per_address:
            refusal = Refused(Code.QUOTA, _n(
                "guests playing from your address already have {n} table with thinking "
                "bots; finish one first, or sign up",
                "guests playing from your address already have {n} tables with thinking "
                "bots; finish one first, or sign up", tables, n=tables))
            refusal.retry_after = 60
            raise refusal

    # ------------------------------------------------------------------ the processes
    def _start(self) -> Executor:
        global _USERS
        if self._executor is None:
            self._executor = _executor(self.processes)
            _USERS += 1
        return self._executor

    async def _submit(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in one of the processes. Until all of them run, the job is handed
        over from a thread: starting a process waits for the fork server (the first time, for
        it to import every game), and the event loop would stop meanwhile."""
        executor = self._start()
        if len(_processes(executor)) >= self.processes:
            fut = executor.submit(fn, *args)
        else:
            fut = await asyncio.to_thread(executor.submit, fn, *args)
        return await asyncio.wrap_future(fut)

    async def _queue(self, turns: _Turns, person: Hashable, fn: Callable[..., T],
                     *args: Any) -> T:
        """``fn(*args)`` in a process once it is ``person``'s turn in ``turns``."""
        job = _Job(person, fn, args, asyncio.get_running_loop().create_future())
        turns.add(job)
        self._hand_out()
        try:
            return await job.answer
        finally:
            turns.drop(job)  # given up (a move taken back): it no longer waits

    def _hand_out(self) -> None:
        """Give free processes the next jobs: hints first, then bots' moves, then other
        analysis, then background work (hints, other analysis and background work never
        take the last free process while there is more than one); a hint that finds every
        process busy takes the one kept for hints; then tell background work to give way if
        anything else waits for its process."""
        while self._running < self.workers:
            room = self._running_analysis < max(1, self.workers - 1)
            # background work gives way to whatever waits: it leaves a hint room
            hints_room = self._running_analysis - self._running_background < max(
                1, self.workers - 1)
            job, tier = (self._hints.next() if hints_room else None), 1
            if job is None:
                job, tier = self._moves.next(), 0
            if job is None:
                if not room:
                    break
                job, tier = self._analysis.next(), 1
                if job is None:
                    job, tier = self._background.next(), 2
                    if job is None:
                        break
            self._begin(job, tier)
        if self._running == self.workers and (hint := self._hints.next()) is not None:
            self._begin(hint, 1)  # every other process is busy: the one kept for hints
        if _URGENT is not None and self._executor is not None:
            _URGENT.value = int(self._running_background > 0
                                and bool(self._hints or self._moves or self._analysis))

    def _begin(self, job: _Job, tier: int) -> None:
        """Hand ``job`` of ``tier`` (0 a bot's move, 1 analysis, 2 background work) to a
        process."""
        self._running += 1
        self._running_analysis += tier > 0
        self._running_background += tier == 2
        task = asyncio.create_task(self._work(job, tier))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _work(self, job: _Job, tier: int) -> None:
        try:
            answer = await self._submit(job.fn, *job.args)
        except asyncio.CancelledError:
            if not job.answer.done():
                job.answer.cancel()
            raise
        except Preempted:
            if not job.answer.done():
                self._background.add(job, first=True)  # it goes on once a process is free
        except Exception as e:
            if not job.answer.done():
                job.answer.set_exception(e)
        else:
            if not job.answer.done():
                job.answer.set_result(answer)
        finally:
            self._running -= 1
            self._running_analysis -= tier > 0
            self._running_background -= tier == 2
            self._hand_out()

    async def run(self, fn: Callable[..., T], *args: Any, person: Hashable = None,
                  hint: bool = False) -> T:
        """``fn(*args)`` in one of the bots' processes (a module-level function: it is pickled
        by name), for analysis work such as reviews, in the language in use, in ``person``'s
        turn after the bots' moves; a ``hint`` (a person waits for it) before them."""
        return await self._queue(self._hints if hint else self._analysis, person,
                                 bot_worker.speaking, i18n.language(), fn, *args)

    async def background(self, fn: Callable[..., T], *args: Any,
                         person: Hashable = None) -> T:
        """``fn(*args)`` in one of the bots' processes when nothing more urgent waits, in
        ``person``'s turn: work that can wait and gives way (``fn`` raises
        :class:`~meeple.bots.review.Preempted` when told to, and is queued again)."""
        return await self._queue(self._background, person, bot_worker.speaking,
                                 i18n.language(), fn, *args)

    async def act(self, key: str, game: Any, moves: list[tuple[int, int]], seat: int,
                  spec: str, rng: random.Random, seconds: float | None,
                  person: Hashable = None) -> int:
        """The move of bot ``spec`` in ``seat`` of the game after ``moves`` at table ``key``,
        in the turn of ``person`` (the table's owner; by default the table itself)."""
        self.waiting += 1
        try:
            action, thought = await self._queue(
                self._moves, key if person is None else person, bot_worker.think, key,
                type(game), game.num_players, dict(game.options), moves, seat, spec,
                rng.getrandbits(62), seconds)
            self.times.note(game.name, spec, thought)
            return int(action)
        finally:
            self.waiting -= 1

    def stop(self) -> None:
        """Drop the jobs waiting and let go of the processes; the last pool to stop ends them
        and their queues (a server stopped by a signal does not run its exit handlers, and
        its workers would be left behind)."""
        global _USERS
        with contextlib.suppress(RuntimeError):  # their event loop may be closed already
            for job in (self._hints.clear() + self._moves.clear() + self._analysis.clear()
                        + self._background.clear()):
                job.answer.cancel()
            for task in list(self._tasks):
                task.cancel()
        if self._executor is None:
            return
        self._executor = None
        _USERS -= 1
        if _USERS == 0:
            _end_processes()
