"""What a bots' worker process runs: a bot's move from the game's class, options and moves
so far, the seat, the bot spec and a seed (the answer is an action id); and what review work
needs of it (:func:`state_for`, :func:`give_way` to more urgent work). Importing
this module imports every game (the fork server does it once for all its workers). Each
worker keeps the last states it built, so a table's next move only applies the moves since.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import meeple
from meeple.bots import make_bot, view_for
from meeple.engine import i18n

T = TypeVar("T")

_STATES: OrderedDict[str, tuple[list[tuple[int, int]], Any]] = OrderedDict()
STATES_KEPT = 64
_URGENT: Any = None
"""A number the server shares with its workers: above 0 while more urgent work waits for a
process held by background work (a review's estimates), which then gives way."""

meeple.games()


def start(lifeline: Connection, urgent: Any = None) -> None:
    """Set up a worker: it ends as soon as ``lifeline`` (a pipe whose write end only the
    server holds) reads its end, so it never outlives the server, even one killed with
    ``kill -9``; Ctrl-C is for the server, which ends its workers itself (a worker the fork
    server forks ignores it from the start, see :mod:`.bot_forkserver`). ``urgent``: the
    shared number background work watches (:data:`_URGENT`)."""
    global _URGENT
    _URGENT = urgent
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(lifeline,), name="lifeline", daemon=True).start()


def _end_with(lifeline: Connection) -> None:
    try:
        lifeline.recv_bytes()  # the server never writes: this returns at its end
    except (EOFError, OSError):
        pass
    os._exit(0)


def state_for(key: str, game_cls: type, players: int, options: dict[str, Any],
               moves: list[tuple[int, int]]) -> Any:
    """The state after ``moves``, from this worker's cache when it holds a prefix of them."""
    have = _STATES.pop(key, None)
    if have is not None and have[0] == moves[: len(have[0])]:
        done, state = have
        state = state.clone()
    else:
        done, state = [], game_cls(players, **options).new_initial_state()
    for player, action in moves[len(done):]:
        state.apply(action, player)
    _STATES[key] = (list(moves), state)
    while len(_STATES) > STATES_KEPT:
        _STATES.popitem(last=False)
    return state


def think(key: str, game_cls: type, players: int, options: dict[str, Any],
          moves: list[tuple[int, int]], seat: int, spec: str, seed: int,
          seconds: float | None) -> tuple[int, float]:
    """A bot's move: ``spec`` playing ``seat`` after ``moves`` (``seconds``: how long it may
    think at most, from now), and the CPU seconds it thought."""
    state = state_for(key, game_cls, players, options, moves)
    bot = make_bot(spec, state.game, seed=seed)
    deadline = time.monotonic() + seconds if seconds is not None else None
    start = time.thread_time()
    action = int(bot.act(view_for(state, seat, deadline=deadline)))
    return action, time.thread_time() - start


def give_way() -> bool:
    return _URGENT is not None and _URGENT.value > 0


def speaking(lang: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` speaking ``lang`` (the language of the request that asked for it)."""
    with i18n.speaking(lang):
        return fn(*args)
