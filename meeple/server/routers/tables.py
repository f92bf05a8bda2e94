"""Tables: create, read, join, leave, seats, start, rematch, act, frame, record, replay and
the simulated motion of a stability check. Every change goes through the table service."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Query, Response

from ..deps import CurrentUser, ServicesDep, TableDep, TablesDep, UserId
from ..domain import Refused, TableStatus
from ..live import Conn, LiveTable
from ..schemas import (
    ActBody,
    Acted,
    Frame,
    JoinBody,
    LeaveBody,
    Motion,
    NewTable,
    Replay,
    SeatChange,
    TableAnswer,
)
from ..service import load_game

router = APIRouter(prefix="/api/tables", tags=["tables"])
MOTIONS_KEPT = 256
ANSWER = {"response_model": TableAnswer, "response_model_exclude_unset": True}


@router.post("", status_code=201, **ANSWER)  # type: ignore[arg-type]
async def create_table(body: NewTable, user: CurrentUser, tables: TablesDep) -> dict[str, Any]:
    """A new table; the creator sits in its ``"me"`` seats and gets their seat tokens."""
    game = load_game(body.game, body.players, body.options)
    clock = body.clock.model_dump() if body.clock is not None and not isinstance(
        body.clock, str) else body.clock
    lt, tokens = await tables.create(
        user, game, [(s.kind, s.bot) for s in body.seats] if body.seats else None,
        visibility=body.visibility, clock=clock, start=body.start,
    )
    return {"table": lt.summary(user.id), "tokens": tokens}


@router.get("/{table_id}", **ANSWER)  # type: ignore[arg-type]
async def get_table(lt: TableDep, uid: UserId) -> dict[str, Any]:
    return {"table": lt.summary(uid)}


@router.post("/{table_id}/join", **ANSWER)  # type: ignore[arg-type]
async def join(user: CurrentUser, lt: TableDep, tables: TablesDep,
               body: Annotated[JoinBody | None, Body()] = None) -> dict[str, Any]:
    """Sit down at a waiting table (the first open seat unless ``seat`` is given)."""
    body = body or JoinBody()
    tokens = await tables.join(lt, user, body.seat, body.code)
    return {"table": lt.summary(user.id), "tokens": tokens}


@router.post("/{table_id}/leave", **ANSWER)  # type: ignore[arg-type]
async def leave(body: LeaveBody, lt: TableDep, tables: TablesDep, uid: UserId) -> dict[str, Any]:
    await tables.leave(lt, body.seat, uid, body.token)
    return {"table": lt.summary(uid)}


@router.post("/{table_id}/seats/{seat}", **ANSWER)  # type: ignore[arg-type]
async def change_seat(seat: int, body: SeatChange, user: CurrentUser, lt: TableDep,
                      tables: TablesDep) -> dict[str, Any]:
    """The owner puts a bot in a seat or opens it, before the start."""
    await tables.set_seat(lt, user, seat, body.kind, body.bot)
    return {"table": lt.summary(user.id)}


@router.post("/{table_id}/start", **ANSWER)  # type: ignore[arg-type]
async def start(user: CurrentUser, lt: TableDep, tables: TablesDep) -> dict[str, Any]:
    await tables.start(lt, user)
    return {"table": lt.summary(user.id)}


@router.post("/{table_id}/rematch", status_code=201, **ANSWER)  # type: ignore[arg-type]
async def rematch(user: CurrentUser, lt: TableDep, tables: TablesDep) -> dict[str, Any]:
    """A new table like this finished one (asking again answers the same new table)."""
    new, tokens = await tables.rematch(lt, user)
    return {"table": new.summary(user.id), "tokens": tokens}


@router.post("/{table_id}/act")
async def act(body: ActBody, lt: TableDep, tables: TablesDep, uid: UserId) -> Acted:
    """The same as the WebSocket ``act``."""
    if not lt.holds(body.seat, uid, body.token):
        raise HTTPException(403, f"you do not hold seat {body.seat}")
    try:
        n = await tables.act(lt, body.seat, body.action, body.move_number)
    except Refused as e:
        raise HTTPException(409, e.reason) from None
    return Acted(ok=True, move_number=n)


@router.get("/{table_id}/frame", responses={200: {"model": Frame}})
async def frame(lt: TableDep, uid: UserId, seat: int | None = None,
                token: str | None = Query(default=None, max_length=100)) -> Response:
    """The current frame for a held seat, or the public frame without ``seat``."""
    held: set[int] = set()
    if seat is not None:
        if not lt.holds(seat, uid, token):
            raise HTTPException(403, f"you do not hold seat {seat}")
        held = {seat}
    conn = Conn(user_id=None, held=held, view_seat=seat)
    return Response(lt.frame_text(conn), media_type="application/json")


def _finished(lt: LiveTable) -> None:
    if lt.meta.status != TableStatus.FINISHED:
        raise HTTPException(409, "records and replays are open once the game is over")


def _moves(lt: LiveTable, move: int | None) -> int:
    total = len(lt.log)
    n = total if move is None else move
    if not 0 <= n <= total:
        raise HTTPException(422, f"move must be 0..{total}")
    return n


@router.get("/{table_id}/record")
async def record(lt: TableDep) -> dict[str, Any]:
    """The engine record of a finished table, with the seat names."""
    _finished(lt)
    return lt.game.record(lt.state, table=lt.id, seats=[s.name for s in lt.seats],
                          result=lt.meta.result)


@router.get("/{table_id}/replay", response_model=Replay)
async def replay(lt: TableDep, move: int | None = None,
                 seat: int | None = None) -> dict[str, Any]:
    """A finished table after its first ``move`` moves, seen by ``seat``."""
    _finished(lt)
    n = _moves(lt, move)
    if seat is not None and not 0 <= seat < lt.game.num_players:
        raise HTTPException(422, f"seat must be 0..{lt.game.num_players - 1}")
    return lt.replay(n, seat)


@router.get("/{table_id}/motion", response_model=Motion)
async def motion(lt: TableDep, s: ServicesDep, move: int | None = None) -> Any:
    """The simulated motion of the last stability check in the public view after ``move``
    moves, for games with a motion simulation (Kozo's tower): public information."""
    if lt.meta.status == TableStatus.WAITING:
        raise HTTPException(404, "the table has not started")
    physics = lt.game.motion
    if physics is None:
        raise HTTPException(404, f"{lt.game.name} has no recorded motion")
    n = _moves(lt, move)
    state = lt.game.new_initial_state()
    for e in lt.log[:n]:
        state.apply(e.action, e.player)
    check = state.observation(None).get("last_check")
    if not check or "scene" not in check:
        raise HTTPException(404, "no stability check to show at this move")
    key = (lt.id, n)
    cached = s.motions.get(key)
    if cached is None:  # a physics simulation: off the event loop, kept for the next viewer
        cached = await asyncio.to_thread(physics.motion, check["scene"])
        s.motions[key] = cached
        while len(s.motions) > MOTIONS_KEPT:
            s.motions.pop(next(iter(s.motions)))
    return cached
