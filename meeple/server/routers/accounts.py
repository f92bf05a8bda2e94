"""Players and sessions: sign up, log in, play as a guest, log out, who am I, profiles."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response

from meeple.engine import i18n

from .. import auth, names, views
from ..community.store import CommunityStore
from ..deps import (
    CurrentUser,
    OptionalUser,
    Services,
    ServicesDep,
    StoreDep,
    UserId,
    limited,
)
from ..domain import DELETED_NAME, TableStatus, UserRecord, Visibility
from ..language import COOKIE as LANG_COOKIE
from ..language import remember
from ..schemas import Credentials, GuestBody, GuestName, Me, Ok, Profile

router = APIRouter(prefix="/api", tags=["players"])
_, _n = i18n.words(__file__)
GUEST_MARK = "guest"


def _sign_in(s: Services, request: Request, response: Response, user: UserRecord) -> Me:
    """Start the player's session in this browser. A player who chose a language gets it
    here too (the ``lang`` cookie); one who has not yet keeps the one this browser chose."""
    s.cookies.end(request.cookies.get(auth.COOKIE))  # a browser has one session at a time
    secure = s.settings.secure_cookies or s.settings.proxies.scheme(request) == "https"
    response.set_cookie(
        auth.COOKIE,
        s.cookies.start(user.id),
        max_age=auth.SESSION_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    lang = i18n.known(user.lang)
    if lang is not None:
        remember(response, lang, secure)
    else:
        chosen = i18n.known(request.cookies.get(LANG_COOKIE))
        if chosen is not None:
            s.store.set_language(user.id, chosen)
            lang = chosen
    return Me(name=user.name, guest=user.guest, lang=lang or i18n.language(),
              **_operator(user))


def _operator(user: UserRecord) -> dict[str, bool]:
    """``operator`` for :class:`Me`, said of operators only."""
    return {"operator": True} if user.operator else {}


def _valid_name(name: str) -> str:
    """The name normalised (letters of any one script), or 422 saying what a name may be."""
    try:
        name = auth.check_name(name)
    except ValueError as e:
        raise HTTPException(422, str(e)) from None
    if auth.name_key(name) == auth.name_key(DELETED_NAME):
        raise HTTPException(422, _("this name stands for deleted accounts; choose another"))
    return name


@router.post("/signup", dependencies=[limited("signup")], response_model_exclude_unset=True)
def signup(body: Credentials, request: Request, response: Response, s: ServicesDep) -> Me:
    """A new registered player, signed in."""
    name = _valid_name(body.name)
    try:
        auth.check_password(body.password)
    except ValueError as e:
        raise HTTPException(422, str(e)) from None
    holder = s.store.user_by_key(auth.name_key(name))
    if holder is not None and holder.guest:
        _mark_guest(s, holder, request.app.state.community.store)
    user = s.store.add_user(name, auth.name_key(name), auth.hash_password(body.password),
                            guest=False)
    if user is None:
        raise HTTPException(409, _("the name {name} is taken", name=repr(name)))
    return _sign_in(s, request, response, user)


def _mark_guest(s: Services, guest: UserRecord, community: CommunityStore) -> None:
    """A guest whose name is being registered keeps playing under it with the guest mark:
    "Ann" becomes "Ann (guest)" (or "Ann (guest 2)", ...), and so do the lines they said.
    Registered names cannot hold brackets, so a marked name never stands in a
    registration's way again."""
    for i in range(1, names.MAX_GUEST_NUMBER):
        marked = f"{guest.name} ({GUEST_MARK})" if i == 1 else f"{guest.name} ({GUEST_MARK} {i})"
        if s.store.rename_user(guest.id, marked, auth.name_key(marked)):
            community.rename_speaker(guest.id, marked)
            for lt in s.tables.tables.values():  # loaded tables show the new name at once
                for seat in lt.seats:  # a hot-seat seat named for someone else keeps its name
                    if seat.user_id == guest.id and seat.name == guest.name:
                        seat.name = marked
            return


@router.post("/login", dependencies=[limited("login")], response_model_exclude_unset=True)
def login(body: Credentials, request: Request, response: Response, s: ServicesDep) -> Me:
    """Sign in a registered player (failures are rate-limited per name and per address)."""
    key = auth.name_key(body.name.strip())
    address = s.settings.proxies.client(request)
    wait = s.limiter.retry_after(key, address)
    if wait > 0:
        raise HTTPException(
            429,
            _("too many failed log-ins; try again in {value} s", value=int(wait) + 1),
            headers={"Retry-After": str(int(wait) + 1)},
        )
    user = s.store.user_by_key(key)
    if user is None or user.guest or not auth.verify_password(user.password_hash,
                                                              body.password):
        s.limiter.failed(key, address)
        raise HTTPException(401, _("wrong name or password"))
    s.limiter.succeeded(key, address)
    if user.suspended is not None:
        raise HTTPException(403, _("this account is suspended"))
    return _sign_in(s, request, response, user)


@router.post("/guest", dependencies=[limited("guest")], response_model_exclude_unset=True)
def guest(body: GuestBody, request: Request, response: Response, s: ServicesDep) -> Me:
    """A guest (a name only), signed in; a name another guest has gets a number."""
    base = _valid_name(body.name)
    taken = s.store.user_by_key(auth.name_key(base))
    if taken is not None and not taken.guest:
        raise HTTPException(409, _("{base} is a registered player's name", base=repr(base)))
    for name in names.guest_names(base):
        user = s.store.add_user(name, auth.name_key(name), None, guest=True)
        if user is not None:
            return _sign_in(s, request, response, user)
    raise HTTPException(409, _("no free guest name; choose another"))


@router.get("/guest/name")
def guest_name(name: str, s: ServicesDep) -> GuestName:
    """The name a guest asking for ``name`` would get now (another guest's name gets a
    number), said before they sign in; a registered player's name or an invalid one is
    refused as signing in would refuse it."""
    base = _valid_name(name)
    taken = s.store.user_by_key(auth.name_key(base))
    if taken is not None and not taken.guest:
        raise HTTPException(409, _("{base} is a registered player's name", base=repr(base)))
    free = names.free_guest_name(
        base, lambda n: s.store.user_by_key(auth.name_key(n)) is not None)
    if free is None:
        raise HTTPException(409, _("no free guest name; choose another"))
    return GuestName(name=free, numbered=free != base)


@router.post("/logout")
def logout(request: Request, response: Response, s: ServicesDep) -> Ok:
    """End this browser's session (its cookie no longer signs in anywhere)."""
    s.cookies.end(request.cookies.get(auth.COOKIE))
    response.delete_cookie(auth.COOKIE)
    return Ok(ok=True)


@router.post("/logout/all")
def logout_all(request: Request, response: Response, s: ServicesDep,
               user: CurrentUser) -> Ok:
    """End every session of the signed-in player, on every device."""
    s.cookies.end_all(user.id)
    response.delete_cookie(auth.COOKIE)
    return Ok(ok=True)


@router.get("/me", response_model_exclude_unset=True)
def me(user: OptionalUser) -> Me:
    """Who is signed in in this browser, and the language it speaks (the player's chosen
    one where they chose one)."""
    if user is None:
        return Me(name=None, guest=None, lang=i18n.language())
    return Me(name=user.name, guest=user.guest, lang=i18n.known(user.lang) or i18n.language(),
              **_operator(user))


@router.get("/users/{name}", response_model=Profile, response_model_exclude_unset=True)
def profile(name: str, db: StoreDep, viewer: UserId) -> dict[str, Any]:
    """A player and the finished tables they sat at, newest first: public tables, and private
    ones only for someone who sat there too."""
    user = db.user_by_key(auth.name_key(name)) if len(name) <= 64 else None
    if user is None or user.deleted is not None:
        raise HTTPException(404, _("no player of that name"))
    games = []
    for table, seats in db.tables_of(user.id, [TableStatus.FINISHED], newest="finished",
                                     limit=200):
        if table.meta.visibility == Visibility.PRIVATE and not (viewer is not None and any(
                s.user_id == viewer for s in table.seats)):
            continue
        item = views.table_summary(table)
        item["seat"] = seats[0]
        ranks = (table.meta.result or {}).get("ranks")
        item["rank"] = ranks[item["seat"]] if ranks else None
        games.append(item)
    return {"name": user.name, "guest": user.guest, "created": user.created, "games": games}
