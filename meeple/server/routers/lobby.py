"""The lobby: games and their rules, bots, clock profiles, table lists and my tables."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Query

import meeple
from meeple.bots import bot_choices
from meeple.engine import game_class
from meeple.engine.i18n import words
from meeple.engine.lessons import howto_markdown, with_pictures

from .. import views
from ..community.ratings import PAIR_GAMES, PAIR_WINDOW, RATED_AFTER
from ..deps import CurrentUser, StoreDep
from ..domain import CLOCK_PROFILES, LIVE, SeatKind, TableStatus
from ..schemas import (
    BotList,
    ClockProfiles,
    GameInfo,
    GameList,
    Legend,
    RulesPage,
    TableList,
)

_, _n = words(__file__)

router = APIRouter(prefix="/api", tags=["lobby"])
LIST_LIMIT = 100


def _known_game(name: str) -> None:
    if name not in meeple.games():
        raise HTTPException(404, _("no game named {name}; known: {choices}",
                                   name=repr(name), choices=', '.join(meeple.games())))


def _game_json(name: str) -> dict[str, Any]:
    cls = game_class(name)
    out = cls.describe()
    out["rules"] = f"/rules/{name}"
    out["configurations"] = [[n, opts] for n, opts in cls.configurations()]
    return out


@router.get("/games", response_model=GameList)
def list_games() -> dict[str, Any]:
    return {"games": [_game_json(n) for n in meeple.games()]}


@router.get("/games/{name}", response_model=GameInfo)
def one_game(name: str) -> dict[str, Any]:
    _known_game(name)
    return _game_json(name)


@router.get("/games/{name}/legend")
def legend(name: str) -> Legend:
    """The symbols a game's board pictures draw, each as a small picture with what it means,
    in the language in use (none for a game whose picture says everything in words)."""
    _known_game(name)
    make = getattr(game_class(name).renderer, "legend", None)
    return Legend(game=name, items=make() if make else [])


@router.get("/games/{name}/rules")
def rules(name: str) -> RulesPage:
    """A game's rulebook and its how-to-play page, each picture as the URL of its drawing."""
    _known_game(name)
    cls = game_class(name)

    def url(picture: str) -> str:
        return f"/api/learn/{name}/pictures/{picture}.svg"

    try:
        text = with_pictures(cls.rules_markdown(), url)
    except (FileNotFoundError, ModuleNotFoundError):
        raise HTTPException(404, _("{name} has no rules page yet", name=name)) from None
    try:
        howto = with_pictures(howto_markdown(cls), url)
    except FileNotFoundError:
        howto = ""
    return RulesPage(name=name, title=cls.title, howto=howto, markdown=text)


@router.get("/bots")
def bots() -> BotList:
    """The bot levels a seat may take, weakest first."""
    return BotList.model_validate({"bots": bot_choices()})


@router.get("/rated")
def rated() -> dict[str, Any]:
    """What a rated table asks of its players: registered accounts only; a game given up
    within its first ``rated_after`` moves rates nobody; of the rated games between the same
    two people in ``pair_hours`` hours only the first ``pair_games`` count."""
    return {"registered_only": True, "rated_after": RATED_AFTER, "pair_games": PAIR_GAMES,
            "pair_hours": round(PAIR_WINDOW / 3600)}


@router.get("/clocks")
def clocks() -> ClockProfiles:
    return ClockProfiles(profiles=CLOCK_PROFILES)


@router.get("/tables", response_model=TableList, response_model_exclude_unset=True)
def list_tables(
    db: StoreDep,
    status: TableStatus | None = None,
    game: str | None = Query(default=None, max_length=40),
) -> dict[str, Any]:
    """Public tables, newest first, as storage holds them."""
    return {"tables": [views.table_summary(t)
                       for t in db.public_tables(status, game, LIST_LIMIT)]}


def _my_tables(db: StoreDep, user: CurrentUser, turns: bool) -> dict[str, Any]:
    """The user's live tables (``turns``: those waiting for them to act). A seat a bot plays
    for them now (they resigned, or their time ran out) is no longer theirs to play, so a
    running table where they hold no seat as a person is left out."""
    wanted = [TableStatus.RUNNING] if turns else list(LIVE)
    out = []
    for table, seats in db.tables_of(user.id, wanted):
        if table.meta.status == TableStatus.RUNNING:
            seats = [s for s in seats if table.seats[s].kind == SeatKind.HUMAN]
            if not seats:
                continue
        if turns and not set(table.meta.to_move) & set(seats):
            continue
        item = views.table_summary(table)
        item["my_seats"] = seats
        out.append(item)
    return {"tables": out}


@router.get("/my/turns", response_model=TableList, response_model_exclude_unset=True)
def my_turns(db: StoreDep, user: CurrentUser) -> dict[str, Any]:
    """Running tables where one of the session's seats must act (finished, aborted and
    abandoned tables never count)."""
    return _my_tables(db, user, turns=True)


@router.get("/my/tables", response_model=TableList, response_model_exclude_unset=True)
def my_tables(db: StoreDep, user: CurrentUser) -> dict[str, Any]:
    """The session's tables that are waiting or running."""
    return _my_tables(db, user, turns=False)

