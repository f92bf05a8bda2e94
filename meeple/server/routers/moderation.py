"""Moderation and accounts: blocks and reports (anyone signed in), what operators do
(suspend an account, delete a chat line, close a table, read and close reports), and a
person's own account (download their data, delete the account).

Operators are made from the command line (``meeple admin grant NAME``); every route here
checks on the server who may use it."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field

from meeple.engine.i18n import words

from .. import auth, views
from ..community import Community, CommunityDep
from ..community.chat import LOBBY, MAX_TEXT, clean_text
from ..community.profiles import game_title, hidden_from
from ..deps import (
    CurrentUser,
    Operator,
    Services,
    ServicesDep,
    TablesDep,
    limited,
    person_named,
)
from ..domain import DELETED_NAME, LIVE, TableStatus, UserRecord

_, _n = words(__file__)

router = APIRouter(tags=["moderation"])
MAX_ID = 2**31 - 1
"""The largest line, report or account number (larger ones name nothing)."""


class NameBody(BaseModel):
    """A person, by name."""

    name: str = Field(max_length=64)


class ReportBody(BaseModel):
    """What is reported (a chat line by its number, or a player by name) and why."""

    line: int | None = Field(default=None, ge=1, le=MAX_ID)
    name: str | None = Field(default=None, max_length=64)
    reason: str = Field(max_length=MAX_TEXT)


class DeleteBody(BaseModel):
    """The confirmation of an account's deletion: ``confirm`` true, and a registered
    player's password."""

    confirm: Literal[True]
    password: str | None = Field(default=None, max_length=auth.MAX_PASSWORD)


# ---------------------------------------------------------------------- blocks
@router.get("/api/my/blocks")
def my_blocks(c: CommunityDep, user: CurrentUser, s: ServicesDep) -> dict[str, Any]:
    """The people you blocked."""
    names = [u.name for u in (s.store.user(i) for i in sorted(c.store.blocks(user.id)))
             if u is not None and u.deleted is None]
    return {"blocked": names}


@router.post("/api/my/blocks")
def block(body: NameBody, c: CommunityDep, user: CurrentUser, s: ServicesDep) -> dict[str, Any]:
    """Block a person: neither of you reads the other's chat lines, invites the other or
    sits down at a table where the other sits."""
    other = person_named(s, body.name)
    c.chat.mute(user.id, other.id, block=True)
    return {"ok": True}


@router.delete("/api/my/blocks/{name}")
def unblock(name: str, c: CommunityDep, user: CurrentUser, s: ServicesDep) -> dict[str, Any]:
    """Lift a block of yours."""
    c.chat.unmute(user.id, person_named(s, name).id, block=True)
    return {"ok": True}


# ---------------------------------------------------------------------- reports
@router.post("/api/reports", status_code=201, dependencies=[limited("report")])
async def report(body: ReportBody, c: CommunityDep, user: CurrentUser,
                 s: ServicesDep) -> dict[str, Any]:
    """Report a chat line or a player to the operators, saying why."""
    reason = clean_text(body.reason)
    if (body.line is None) == (body.name is None):
        raise HTTPException(422, _("report either a chat line or a player"))
    if body.line is not None:
        line = await asyncio.to_thread(c.store.chat_line, body.line)
        if line is None or line.kind != "say":
            raise HTTPException(404, _("no such chat line"))
        if not await asyncio.to_thread(_may_read, s, c, line.room, user.id):
            raise HTTPException(404, _("no such chat line"))
        made = await asyncio.to_thread(c.store.add_report, user.id, reason, line=line)
    else:
        other = person_named(s, body.name or "")
        if other.id == user.id:
            raise HTTPException(422, _("you cannot report yourself"))
        made = await asyncio.to_thread(c.store.add_report, user.id, reason, user_id=other.id)
    return {"ok": True, "id": made.id}


def _may_read(s: Services, c: Community, room: str, user_id: int) -> bool:
    """Whether a person may see the chat room a line was said in: the lobby, or a table
    they may see."""
    if room == LOBBY:
        return True
    stored = s.store.table(room.removeprefix("table:"))
    return stored is not None and not hidden_from(stored, user_id)


@router.get("/api/admin/reports")
def open_reports(c: CommunityDep, s: ServicesDep, op: Operator) -> dict[str, Any]:
    """The open reports, oldest first (operators only)."""
    out = []
    for r in c.store.reports():
        reporter = s.store.user(r.reporter_id)
        about = s.store.user(r.user_id) if r.user_id is not None else None
        out.append({
            "id": r.id, "time": r.created, "reason": r.reason, "line": r.line_id,
            "text": r.text, "reporter": _shown(reporter), "name": _shown(about),
            "table": r.room.removeprefix("table:") if r.room and r.room != LOBBY else None,
            "lobby": r.room == LOBBY,
            "suspended": about is not None and about.suspended is not None,
        })
    return {"reports": out}


def _shown(user: UserRecord | None) -> str | None:
    if user is None:
        return None
    return views.deleted_player() if user.deleted is not None else user.name


@router.post("/api/admin/reports/{report_id}/close")
def close_report(report_id: int, c: CommunityDep, op: Operator) -> dict[str, Any]:
    """Close a report that was dealt with (operators only)."""
    if not 0 < report_id <= MAX_ID or not c.store.close_report(report_id):
        raise HTTPException(404, _("no open report with that number"))
    return {"ok": True}


# ---------------------------------------------------------------------- operators
@router.post("/api/admin/people/{name}/suspend")
async def suspend(name: str, s: ServicesDep, c: CommunityDep, op: Operator) -> dict[str, Any]:
    """Suspend an account (operators only): its sessions end and its sockets close, in a
    game being played a bot plays on for its seats (or the game ends when no other person
    is left), its seats at waiting tables open again, and it cannot sign in."""
    other = person_named(s, name)
    if other.id == op.id:
        raise HTTPException(422, _("you cannot suspend yourself"))
    if other.suspended is not None:
        raise HTTPException(409, _("{name} is suspended already", name=other.name))
    await asyncio.to_thread(s.store.suspend, other.id, time.time())
    await asyncio.to_thread(s.cookies.end_all, other.id)
    tables = await s.tables.remove_person(other.id)
    return {"ok": True, "tables": tables}


@router.post("/api/admin/people/{name}/unsuspend")
def unsuspend(name: str, s: ServicesDep, op: Operator) -> dict[str, Any]:
    """Lift a suspension (operators only): the person may sign in again."""
    other = person_named(s, name)
    if other.suspended is None:
        raise HTTPException(409, _("{name} is not suspended", name=other.name))
    s.store.suspend(other.id, None)
    return {"ok": True}


@router.delete("/api/admin/chat/{line_id}")
async def delete_line(line_id: int, c: CommunityDep, op: Operator) -> dict[str, Any]:
    """Delete a chat line (operators only): gone from every history, and from the pages
    showing it."""
    if not 0 < line_id <= MAX_ID or await c.chat.delete_line(line_id) is None:
        raise HTTPException(404, _("no such chat line"))
    return {"ok": True}


@router.post("/api/admin/tables/{table_id}/close")
async def close_table(table_id: str, tables: TablesDep, op: Operator) -> dict[str, Any]:
    """Close a table that is waiting or being played (operators only): it ends for everyone,
    without a result."""
    lt = await tables.find(table_id)
    await tables.close(lt)
    return {"ok": True, "status": lt.meta.status}


# ---------------------------------------------------------------------- your account
@router.get("/api/my/data")
async def my_data(s: ServicesDep, c: CommunityDep, user: CurrentUser) -> Response:
    """Everything this server keeps of you, as one JSON file: your account, your games (as
    everyone at them saw them), your chat lines, ratings, follows, mutes and blocks,
    invitations, turn-mail settings and reports. Nobody else's private data is in it."""
    data = await asyncio.to_thread(_data_of, s, c, user)
    body = json.dumps(data, ensure_ascii=False, indent=1)
    return Response(body, media_type="application/json", headers={
        "Content-Disposition": 'attachment; filename="meeple-data.json"',
        "Cache-Control": "no-store"})


def _data_of(s: Services, c: Community, user: UserRecord) -> dict[str, Any]:
    """What :func:`my_data` answers."""
    statuses = [*LIVE, TableStatus.FINISHED, TableStatus.ABORTED, TableStatus.ABANDONED]
    games = []
    for stored, seats in s.store.tables_of(user.id, statuses):
        item = views.table_summary(stored)
        item.update(seats_held=seats, moves=[
            {"n": m.n, "player": m.player, "notation": m.notation, "time": m.created}
            for m in s.store.moves(stored.meta.id)],
            result=stored.meta.result)
        games.append(item)

    def names(ids: set[int]) -> list[str]:
        found = (s.store.user(i) for i in sorted(ids))
        return [u.name for u in found if u is not None and u.deleted is None]

    blocks = c.store.blocks(user.id)
    notify = c.store.notify(user.id)
    return {
        "account": {"name": user.name, "guest": user.guest, "created": user.created,
                    "language": user.lang, "operator": user.operator},
        "games": games,
        "chat": [{"id": x.id, "room": x.room, "text": x.text, "time": x.created,
                  "spectator": x.spectator} for x in c.store.lines_by(user.id)],
        "ratings": [{"game": r.game, "title": game_title(r.game), "mu": r.mu,
                     "sigma": r.sigma, "played": r.played, "won": r.won}
                    for r in c.store.ratings_of(user.id)],
        "rating_history": [{"game": p.game, "table": p.table_id, "rank": p.rank, "mu": p.mu,
                            "sigma": p.sigma, "time": p.created}
                           for p in c.store.history(user.id)],
        "following": names(set(c.store.following(user.id))),
        "muted": names(c.store.mutes(user.id) - blocks),
        "blocked": names(blocks),
        "invitations": [{"from": _shown(s.store.user(i.from_id)), "table": i.table_id,
                         "time": i.created} for i in c.store.invitations(user.id, 1000)],
        "turn_mail": {"email": notify.email, "turn_mail": notify.turn_mail},
        "reports": [{"id": r.id, "line": r.line_id, "text": r.text, "reason": r.reason,
                     "time": r.created, "closed": r.closed}
                    for r in c.store.reports(open_only=False, reporter_id=user.id)],
    }


@router.post("/api/my/account/delete")
async def delete_account(body: DeleteBody, request: Request, response: Response,
                         s: ServicesDep, c: CommunityDep, user: CurrentUser) -> dict[str, Any]:
    """Delete your account (a registered player gives their password): you are signed out
    everywhere, your seats in games being played go to bots, your games stay under "deleted
    player", and your name, password, e-mail address, follows, mutes and blocks go."""
    if not user.guest and not auth.verify_password(user.password_hash, body.password or ""):
        raise HTTPException(401, _("wrong password"))
    await s.tables.remove_person(user.id)
    await asyncio.to_thread(_delete, s, c, user)
    for lt in list(s.tables.tables.values()):  # loaded tables show it at once
        if any(seat.user_id == user.id for seat in lt.seats):
            async with lt.lock:
                s.tables.refresh(lt)
            lt.broadcast()
    response.delete_cookie(auth.COOKIE)
    return {"ok": True}


def _delete(s: Services, c: Community, user: UserRecord) -> None:
    statuses = [*LIVE, TableStatus.FINISHED, TableStatus.ABORTED, TableStatus.ABANDONED]
    rooms = [f"table:{t.meta.id}" for t, _seats in s.store.tables_of(user.id, statuses)]
    s.store.delete_user(user.id, time.time())
    c.store.forget(user.id, DELETED_NAME)
    c.store.rename_system_name(rooms, user.name, DELETED_NAME)
    c.chat.forget(user.id)
    s.cookies.end_all(user.id)
