"""Hints at casual tables and reviews of finished games. A hint is the search bot's move for
the seat one holds, with the game's reason; a review is each player's chance to win after
every move, the turning points and the viewer's clearly better moves, made once per table
and information set in the background. Both are worked out in the bots' process pool."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query
from starlette.requests import HTTPConnection

from meeple.bots.hint import HINT_WALL, hint_part, ready
from meeple.engine.i18n import words

from ..deps import CurrentUser, ServicesDep, TableDep, UserId, limited
from ..domain import Code, Refused, TableStatus, status_sentence
from ..live import Holder, LiveTable
from ..pool import Busy
from ..reviews import Reviews, ReviewStore
from ..schemas import HintAnswer, ReviewAnswer

_, _n = words(__file__)

router = APIRouter(prefix="/api/tables", tags=["review"])
HINTS_AT_ONCE = 4
"""Hints worked out at once by one server; beyond that a hint is refused as busy."""
SeatQuery = Annotated[int | None, Query(ge=0, le=15)]


def reviews_of(conn: HTTPConnection, s: ServicesDep) -> Reviews:
    """The app's reviews (made on first use, on the tables' storage)."""
    have = getattr(conn.app.state, "reviews", None)
    if have is None:
        have = Reviews(s.tables, ReviewStore(getattr(s.store, "engine", None)))
        conn.app.state.reviews = have
    return have


ReviewsDep = Annotated[Reviews, Depends(reviews_of)]


def check_hint(lt: LiveTable, seat: int, held: set[int]) -> None:
    """Refuse a hint unless ``seat`` is held by the asker, at a casual running table, and
    has a move to make now."""
    if getattr(lt.meta, "rated", False):
        raise Refused(Code.FORBIDDEN, _("hints are for casual tables: this table is rated"))
    if seat not in held:
        raise Refused(Code.FORBIDDEN, _("hints are for the player in seat {seat} only", seat=seat))
    if lt.meta.status != TableStatus.RUNNING:
        raise Refused(Code.CONFLICT, _("{status}: no hint to give",
                                       status=status_sentence(lt.meta.status)))
    if seat not in lt.state.pending_players():
        raise Refused(Code.CONFLICT, _("a hint is given when it is your move"))


@router.get("/{table_id}/hint", response_model=HintAnswer, dependencies=[limited("hint")])
async def get_hint(lt: TableDep, s: ServicesDep, reviews: ReviewsDep, uid: UserId,
                   seat: Annotated[int, Query(ge=0, le=15)],
                   x_seat_token: Annotated[str | None, Header(max_length=100)] = None,
                   ) -> dict[str, Any]:
    """The move a search bot would play for ``seat`` now, and why (the seat's holder only,
    at casual tables only)."""
    held = lt.held_by(Holder.of(uid, [x_seat_token] if x_seat_token else []))
    check_hint(lt, seat, held)
    if reviews.hints >= HINTS_AT_ONCE:
        raise Busy(_("the server is busy with other hints; try again shortly"))
    g = lt.game
    moves = [(e.player, e.action) for e in lt.log]
    reviews.hints += 1
    try:
        # due HINT_WALL after it was asked for: the time waiting for a process counts
        out = await s.tables.bots.run(hint_part, type(g), g.num_players, dict(g.options),
                                      moves, seat, len(moves), time.time() + HINT_WALL,
                                      person=uid or lt.id, hint=True)
    finally:
        reviews.hints -= 1
    return {**out, "move_number": len(moves)}


@router.post("/{table_id}/hint/ready", status_code=204)
async def hint_ready(lt: TableDep, s: ServicesDep, uid: UserId,
                     seat: Annotated[int, Query(ge=0, le=15)],
                     x_seat_token: Annotated[str | None, Header(max_length=100)] = None,
                     ) -> None:
    """Get the hint workers running for ``seat``'s holder at a casual table (the page asks
    when it shows its Hint button): answers once they run, so the first hint is quick."""
    held = lt.held_by(Holder.of(uid, [x_seat_token] if x_seat_token else []))
    if getattr(lt.meta, "rated", False):
        raise Refused(Code.FORBIDDEN, _("hints are for casual tables: this table is rated"))
    if seat not in held:
        raise Refused(Code.FORBIDDEN, _("hints are for the player in seat {seat} only", seat=seat))
    await s.tables.bots.run(ready)


@router.post("/{table_id}/review", response_model=ReviewAnswer,
             response_model_exclude_none=True, dependencies=[limited("review")])
async def start_review(lt: TableDep, user: CurrentUser, reviews: ReviewsDep,
                       seat: SeatQuery = None) -> dict[str, Any]:
    """Start the review of a finished table for ``seat``'s view (made once: asking again
    answers the same review); the answer is its progress."""
    return await reviews.start(lt, seat)


@router.get("/{table_id}/review", response_model=ReviewAnswer,
            response_model_exclude_none=True)
async def get_review(lt: TableDep, reviews: ReviewsDep, seat: SeatQuery = None) -> dict[str, Any]:
    """The review's progress, then the review: ``status`` is ``none`` (not started),
    ``running`` (``done`` of ``total`` positions), ``done`` (with ``review``) or
    ``failed``."""
    return await reviews.status(lt, seat)
