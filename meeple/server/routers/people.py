"""People: profiles (games, ratings, recent games, rating history, follows), generated
avatars, leaderboards of people and bot levels, following, invitations to a table, turn-mail
settings and the unsubscribe link of a turn e-mail."""

from __future__ import annotations

import asyncio
import html
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

import meeple
from meeple.engine import i18n
from meeple.engine.i18n import words

from ..community import CommunityDep
from ..community.mail import check_email
from ..community.profiles import avatar_svg, avatar_url, game_title, profile
from ..community.ratings import MU, SIGMA, shown
from ..deps import CurrentUser, ServicesDep, UserId, person_named
from ..domain import SeatKind, TableStatus
from ..views import deleted_player
from . import pages

_, _n = words(__file__)

router = APIRouter(tags=["people"])
BOARD_SIZE = 50


class InviteBody(BaseModel):
    """The table to invite a person to (one of yours, waiting for players)."""

    table_id: str = Field(max_length=40)


class NotifyBody(BaseModel):
    """Turn-mail settings: the address, and whether to be mailed."""

    email: str | None = Field(default=None, max_length=254)
    turn_mail: bool | None = None


@router.get("/api/people/{name}")
async def person(name: str, s: ServicesDep, c: CommunityDep, viewer: UserId) -> dict[str, Any]:
    """A person's profile as ``viewer`` sees it (the private parts only to themselves)."""
    user = person_named(s, name)
    return await asyncio.to_thread(profile, s.store, c.store, c.ratings, user, viewer)


@router.get("/api/users/{name}/avatar.svg")
def avatar(name: str) -> Response:
    """A picture made from the name (any name: nobody's picture says whether they exist)."""
    if len(name) > 64:
        raise HTTPException(404, _("no player of that name"))
    return Response(avatar_svg(name), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400",
                             "Vary": "Cookie, Accept-Language",
                             "Content-Security-Policy": "default-src 'none'; style-src "
                                                        "'unsafe-inline'",
                             "X-Content-Type-Options": "nosniff"})


@router.get("/api/leaderboard/{game}")
async def leaderboard(game: str, s: ServicesDep, c: CommunityDep) -> dict[str, Any]:
    """The best rated people of a game and the bots' levels on the same scale, best first."""
    if game not in meeple.games():
        raise HTTPException(404, _("no game named {game}", game=repr(game)))
    rows: list[dict[str, Any]] = []
    for r in await asyncio.to_thread(c.store.leaderboard, game, BOARD_SIZE):
        user = s.store.user(r.user_id)
        if user is None:
            continue
        gone = user.deleted is not None
        rows.append({"bot": False, "name": deleted_player() if gone else user.name,
                     "guest": user.guest, "deleted": gone,
                     "avatar": None if gone else avatar_url(user.name),
                     "rating": shown(r.mu, r.sigma),
                     "mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "played": r.played,
                     "won": r.won})
    rows += c.ratings.bot_board(game)
    rows.sort(key=lambda x: (-x["rating"], x["name"]))
    return {"game": game, "title": game_title(game), "rows": rows,
            "newcomer": shown(MU, SIGMA)}


@router.post("/api/people/{name}/follow")
def follow(name: str, s: ServicesDep, c: CommunityDep, user: CurrentUser) -> dict[str, Any]:
    other = person_named(s, name)
    if other.id == user.id:
        raise HTTPException(422, _("you cannot follow yourself"))
    c.store.follow(user.id, other.id)
    return {"ok": True}


@router.delete("/api/people/{name}/follow")
def unfollow(name: str, s: ServicesDep, c: CommunityDep, user: CurrentUser) -> dict[str, Any]:
    c.store.unfollow(user.id, person_named(s, name).id)
    return {"ok": True}


@router.post("/api/people/{name}/invite")
async def invite(name: str, body: InviteBody, s: ServicesDep, c: CommunityDep,
                 user: CurrentUser) -> dict[str, Any]:
    """Invite a person to a table of yours that waits for players: they find the invitation
    on their profile page (and at once, if they have the lobby open)."""
    other = person_named(s, name)
    if other.id == user.id:
        raise HTTPException(422, _("you cannot invite yourself"))
    if other.id in await asyncio.to_thread(c.store.blocked_with, user.id):
        raise HTTPException(403, _("you cannot invite {name}: one of you blocked the other",
                                   name=other.name))
    stored = s.store.table(body.table_id) if len(body.table_id) <= 16 else None
    if stored is None or not (stored.meta.owner_id == user.id or any(
            seat.user_id == user.id for seat in stored.seats)):
        raise HTTPException(404, _("no such table of yours"))
    if stored.meta.status != TableStatus.WAITING or all(
            seat.kind != SeatKind.OPEN for seat in stored.seats):
        raise HTTPException(409, _("that table has no open seat"))
    inv = await asyncio.to_thread(c.store.invite, user.id, other.id, stored.meta.id)
    if user.id in await asyncio.to_thread(c.chat.mutes_of, other.id):
        return {"ok": True}  # muted: the invitation is said to nobody (nor is the mute)
    c.chat.tell(other.id, {"type": "invitation", "from": user.name, "table": inv.table_id,
                           "title": game_title(stored.meta.game)})
    return {"ok": True}


@router.get("/api/my/notifications")
def my_notifications(c: CommunityDep, user: CurrentUser) -> dict[str, Any]:
    n = c.store.notify(user.id)
    return {"email": n.email, "turn_mail": n.turn_mail, "mail_offered": c.mailer is not None}


@router.put("/api/my/notifications")
def set_notifications(body: NotifyBody, c: CommunityDep,
                      user: CurrentUser) -> dict[str, Any]:
    """Set the address for turn e-mails and whether to get them (guests cannot)."""
    if user.guest and (body.email or body.turn_mail):
        raise HTTPException(403, _("guests get no e-mail: sign up first"))
    email = check_email(body.email) if body.email else None
    n = c.store.set_notify(user.id, email=email, clear_email=body.email == "",
                           turn_mail=body.turn_mail)
    if n.turn_mail and not n.email:
        n = c.store.set_notify(user.id, turn_mail=False)
        raise HTTPException(422, _("give an e-mail address first"))
    return {"email": n.email, "turn_mail": n.turn_mail, "mail_offered": c.mailer is not None}


@router.get("/api/unsubscribe", response_class=HTMLResponse)
def unsubscribe(c: CommunityDep, token: str = Query(max_length=400)) -> HTMLResponse:
    """The link of a turn e-mail: no more turn e-mails to that person (once, within its
    days; a page says what happened)."""
    if c.mailer is None:
        raise HTTPException(404, _("this server sends no e-mail"))
    status, heading, text = c.mailer.unsubscribe(token)
    done = html.escape(heading)
    return HTMLResponse(
        f"<!doctype html><html lang=\"{i18n.language()}\"><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<link rel=\"stylesheet\" href=\"/static/style.css\">"
        f"<title>{done} · meeple</title><body><main id=\"main\"><h1>{done}</h1><p>"
        + html.escape(text) + "</p><p><a href=\"/\">" + html.escape(_("Back to the lobby"))
        + "</a></p></main></body></html>",
        status_code=status)


# The leaderboard's page paths are pages of the web client (served like the others).
for _path in ("/leaderboard", "/leaderboard/{game}"):
    router.add_api_route(_path, pages.index, methods=["GET"], include_in_schema=False)
