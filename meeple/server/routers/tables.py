"""Tables: create, read, join, leave, seats, start, rematch, act, frame, record, replay and
the simulated motion of a stability check. Every change goes through the table service;
replays, records and motions are worked out in the work pool, off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Body, Depends, Header, HTTPException, Query, Request, Response

from meeple.engine.i18n import N_, words
from meeple.engine.records import moves_made, position_of

from ..community import CommunityDep
from ..deps import (
    AnyTableDep,
    CurrentUser,
    ServicesDep,
    TableDep,
    TablesDep,
    UserId,
    limited,
    seen,
)
from ..domain import Code, Refused, TableStatus
from ..live import Conn, Holder, LiveTable
from ..pool import Busy, WorkPool
from ..schemas import (
    ActBody,
    Acted,
    ClaimBody,
    Frame,
    JoinBody,
    LeaveBody,
    Motion,
    NewTable,
    Replay,
    SeatBody,
    SeatChange,
    TableAnswer,
)
from ..service import load_game

_, _n = words(__file__)

router = APIRouter(prefix="/api/tables", tags=["tables"])
MOTIONS_KEPT = 256
REPLAYS_AT_ONCE = 1
"""Replays worked out at once (more would only share the same core, and the interpreter's
lock with the event loop)."""
REPLAYS_WAITING = 256
"""Replays that may wait their turn (more are refused as busy)."""
T = TypeVar("T")
ANSWER = {"response_model": TableAnswer, "response_model_exclude_unset": True}
TOKEN_IN_URL = N_("seat tokens never go in the address: send it in the X-Seat-Token header "
                  "(or the body's \"token\")")


@router.post("", status_code=201, dependencies=[limited("table")],
             **ANSWER)  # type: ignore[arg-type]
async def create_table(
    body: NewTable, user: CurrentUser, tables: TablesDep, request: Request, s: ServicesDep,
    idempotency_key: Annotated[str | None, Header(min_length=1, max_length=100)] = None,
) -> dict[str, Any]:
    """A new table; the creator sits in its ``"me"`` seats and gets their seat tokens. The
    same request key (``request_id`` or the ``Idempotency-Key`` header) again within a few
    minutes answers the first table, with new seat tokens."""
    game = load_game(body.game, body.players, body.options)
    clock = body.clock.model_dump() if body.clock is not None and not isinstance(
        body.clock, str) else body.clock
    lt, tokens = await tables.create(
        user, game, [(seat.kind, seat.bot) for seat in body.seats] if body.seats else None,
        visibility=body.visibility, clock=clock, start=body.start,
        rated=body.rated, key=body.request_id or idempotency_key,
        names=[seat.name for seat in body.seats] if body.seats else None,
        address=s.settings.proxies.client(request),
    )
    return {"table": lt.summary(user.id), "tokens": tokens}


@router.get("/{table_id}", **ANSWER)  # type: ignore[arg-type]
async def get_table(lt: TableDep, uid: UserId) -> dict[str, Any]:
    return {"table": lt.summary(uid)}


@router.post("/{table_id}/join", **ANSWER)  # type: ignore[arg-type]
async def join(user: CurrentUser, lt: AnyTableDep, tables: TablesDep, c: CommunityDep,
               body: Annotated[JoinBody | None, Body()] = None) -> dict[str, Any]:
    """Sit down at a waiting table (the first open seat unless ``seat`` is given; not at a
    table where someone sits whom you blocked or who blocked you)."""
    body = body or JoinBody()
    seen(lt, Holder.of(user.id), body.code)
    apart = await asyncio.to_thread(c.store.blocked_with, user.id)
    if any(s.user_id in apart for s in lt.seats if s.user_id is not None):
        raise Refused(Code.FORBIDDEN, _("you cannot sit at this table: you and one of its "
                                        "players are kept apart by a block"))
    tokens = await tables.join(lt, user, body.seat, body.code)
    return {"table": lt.summary(user.id), "tokens": tokens}


@router.post("/{table_id}/leave", **ANSWER)  # type: ignore[arg-type]
async def leave(body: LeaveBody, lt: AnyTableDep, tables: TablesDep,
                uid: UserId) -> dict[str, Any]:
    """Free a held seat before the start (the owner may also free a bot seat)."""
    seen(lt, Holder.of(uid, [body.token] if body.token else []))
    await tables.leave(lt, body.seat, uid, body.token)
    return {"table": lt.summary(uid)}


def _holder(uid: int | None, token: str | None, header: str | None) -> Holder:
    return Holder.of(uid, [t for t in (token, header) if t])


@router.post("/{table_id}/resign", **ANSWER)  # type: ignore[arg-type]
async def resign(lt: AnyTableDep, tables: TablesDep, uid: UserId,
                 body: Annotated[SeatBody | None, Body()] = None,
                 x_seat_token: Annotated[str | None, Header(max_length=100)] = None,
                 ) -> dict[str, Any]:
    """Give up a running game: counted last (the others play on if they can)."""
    body = body or SeatBody()
    who = _holder(uid, body.token, x_seat_token)
    await tables.resign(seen(lt, who), who, body.seat)
    return {"table": lt.summary(uid)}


@router.post("/{table_id}/abort", **ANSWER)  # type: ignore[arg-type]
async def abort(lt: AnyTableDep, tables: TablesDep, uid: UserId,
                body: Annotated[SeatBody | None, Body()] = None,
                x_seat_token: Annotated[str | None, Header(max_length=100)] = None,
                ) -> dict[str, Any]:
    """Call the table off: its owner before the start, a player before any person moved."""
    body = body or SeatBody()
    who = _holder(uid, body.token, x_seat_token)
    await tables.abort(seen(lt, who), who)
    return {"table": lt.summary(uid)}


@router.post("/{table_id}/undo")
async def undo(lt: AnyTableDep, tables: TablesDep, uid: UserId,
               body: Annotated[SeatBody | None, Body()] = None,
               x_seat_token: Annotated[str | None, Header(max_length=100)] = None) -> Acted:
    """Take back one's own last move (casual tables, while nobody played since, no chance
    followed and it showed nothing hidden)."""
    body = body or SeatBody()
    who = _holder(uid, body.token, x_seat_token)
    n = await tables.undo(seen(lt, who), who, body.seat)
    return Acted(ok=True, move_number=n)


@router.post("/{table_id}/claim", **ANSWER)  # type: ignore[arg-type]
async def claim(body: ClaimBody, lt: AnyTableDep, tables: TablesDep, uid: UserId,
                x_seat_token: Annotated[str | None, Header(max_length=100)] = None,
                ) -> dict[str, Any]:
    """A seat's time for its move ran out: claim the game (that seat counted last) or hand
    the seat to a bot."""
    who = _holder(uid, body.token, x_seat_token)
    await tables.claim(seen(lt, who), who, body.seat, body.to_bot)
    return {"table": lt.summary(uid)}


@router.post("/{table_id}/seats/{seat}", **ANSWER)  # type: ignore[arg-type]
async def change_seat(seat: int, body: SeatChange, user: CurrentUser, lt: AnyTableDep,
                      tables: TablesDep) -> dict[str, Any]:
    """The owner puts a bot in a seat or opens it, before the start."""
    await tables.set_seat(seen(lt, Holder.of(user.id)), user, seat, body.kind, body.bot)
    return {"table": lt.summary(user.id)}


@router.post("/{table_id}/start", **ANSWER)  # type: ignore[arg-type]
async def start(user: CurrentUser, lt: AnyTableDep, tables: TablesDep) -> dict[str, Any]:
    await tables.start(seen(lt, Holder.of(user.id)), user)
    return {"table": lt.summary(user.id)}


@router.post("/{table_id}/rematch", status_code=201, dependencies=[limited("table")],
             **ANSWER)  # type: ignore[arg-type]
async def rematch(user: CurrentUser, lt: AnyTableDep, tables: TablesDep) -> dict[str, Any]:
    """A new table like this finished one (asking again answers the same new table)."""
    new, tokens = await tables.rematch(seen(lt, Holder.of(user.id)), user)
    return {"table": new.summary(user.id), "tokens": tokens}


@router.post("/{table_id}/act")
async def act(body: ActBody, lt: AnyTableDep, tables: TablesDep, uid: UserId) -> Acted:
    """The same as the WebSocket ``act``."""
    who = Holder.of(uid, [body.token] if body.token else [])
    seen(lt, who)
    try:
        n = await tables.act(lt, body.seat, body.action, body.move_number, by=who)
    except Refused as e:
        if e.code == Code.FORBIDDEN:
            raise
        raise HTTPException(409, e.reason) from None
    return Acted(ok=True, move_number=n)


@router.get("/{table_id}/frame", responses={200: {"model": Frame}})
async def frame(lt: TableDep, uid: UserId, seat: int | None = Query(default=None, ge=0, le=15),
                token: str | None = Query(default=None, include_in_schema=False),
                x_seat_token: Annotated[str | None, Header(max_length=100)] = None) -> Response:
    """The current frame for a held seat (by session, or the seat token in the
    ``X-Seat-Token`` header), or the public frame without ``seat``."""
    if token is not None:
        raise HTTPException(400, _(TOKEN_IN_URL))
    conn = Conn(user_id=uid, token_hashes=Holder.of(None, [x_seat_token or ""]).token_hashes,
                only=seat if seat is not None else -1, view_seat=seat)
    if seat is not None and seat not in lt.held_by(conn):
        raise HTTPException(403, _("you do not hold seat {seat}", seat=seat))
    return Response(lt.frame_text(conn), media_type="application/json")


def _finished(lt: LiveTable) -> None:
    if lt.meta.status != TableStatus.FINISHED:
        raise HTTPException(409, _("records and replays are open once the game is over"))


def _moves(lt: LiveTable, move: int | None) -> int:
    total = len(lt.log)
    n = total if move is None else move
    if not 0 <= n <= total:
        raise HTTPException(422, _("move must be 0..{total}", total=total))
    return n


def _numbered(lt: LiveTable, number: int) -> int:
    """The steps before the position after move ``number`` (:func:`position_of`)."""
    steps = [(e.player,) for e in lt.log]
    made = moves_made(steps)
    if not 0 <= number <= made:
        raise HTTPException(422, _("number must be 0..{total}", total=made))
    return position_of(steps, number)


def _record(lt: LiveTable) -> dict[str, Any]:
    return lt.game.record(lt.state, table=lt.id, seats=[s.name for s in lt.seats],
                          result=lt.meta.result)


@router.get("/{table_id}/record")
async def record(lt: TableDep, tables: TablesDep) -> dict[str, Any]:
    """The engine record of a finished table, with the seat names."""
    _finished(lt)
    return await tables.work.run(_record, lt)


class Slots:
    """At most ``at_once`` jobs of one kind run at a time (the rest wait their turn), and at
    most ``waiting`` wait (more are refused as busy)."""

    def __init__(self, at_once: int, waiting: int):
        self.free = asyncio.Semaphore(at_once)
        self.waiting, self.most = 0, waiting

    async def run(self, work: WorkPool, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the work pool once a place is free."""
        if self.waiting >= self.most:
            raise Busy(_("The server is busy with other replays and loads; try again "
                         "shortly."))
        self.waiting += 1
        try:
            await self.free.acquire()
        finally:
            self.waiting -= 1
        try:
            return await work.run(fn, *args)
        finally:
            self.free.release()


def _replay_slots(request: Request) -> Slots:
    """The app's places for working out replays (made on first use, on its event loop)."""
    state = request.app.state
    slots = getattr(state, "replay_slots", None)
    if slots is None:
        slots = state.replay_slots = Slots(REPLAYS_AT_ONCE, REPLAYS_WAITING)
    return slots


@router.get("/{table_id}/replay", response_model=Replay, dependencies=[limited("replay")])
async def replay(lt: TableDep, tables: TablesDep,
                 slots: Annotated[Slots, Depends(_replay_slots)], move: int | None = None,
                 seat: int | None = None, number: int | None = None) -> dict[str, Any]:
    """A finished table after its first ``move`` steps (chance included), or after its move
    ``number`` as the log numbers them (the set-up and chance that follow it resolved), seen
    by ``seat``. Working one out
    is heavy: it is done in a worker thread, one at a time (others wait their turn), so the
    event loop goes on answering everything else meanwhile."""
    _finished(lt)
    n = _moves(lt, move) if number is None else _numbered(lt, number)
    if seat is not None and not 0 <= seat < lt.game.num_players:
        raise HTTPException(422, _("seat must be 0..{value}", value=lt.game.num_players - 1))
    kept = lt.kept_replay(n, seat)
    if kept is not None:
        return kept
    return await slots.run(tables.work, lt.replay, n, seat)


def _motion(lt: LiveTable, n: int) -> Any:
    physics = lt.game.motion
    assert physics is not None
    check = lt.state_after(n).observation(None).get("last_check")
    if not check or "scene" not in check:
        return None
    return physics.motion(check["scene"])


@router.get("/{table_id}/motion", response_model=Motion)
async def motion(lt: TableDep, s: ServicesDep, move: int | None = None) -> Any:
    """The simulated motion of the last stability check in the public view after ``move``
    moves, for games with a motion simulation (Kozo's tower): public information."""
    if lt.meta.status == TableStatus.WAITING:
        raise HTTPException(404, _("the table has not started"))
    if lt.game.motion is None:
        raise HTTPException(404, _("{name} has no recorded motion", name=lt.game.name))
    n = _moves(lt, move)
    key = (lt.id, n)
    cached = s.motions.get(key)
    if cached is None:  # a physics simulation: in the work pool, kept for the next viewer
        cached = await s.tables.work.run(_motion, lt, n)
        if cached is None:
            raise HTTPException(404, _("no stability check to show at this move"))
        s.motions[key] = cached
        while len(s.motions) > MOTIONS_KEPT:
            s.motions.pop(next(iter(s.motions)))
    return cached
