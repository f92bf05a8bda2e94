"""Learning a game: its "How to play" page with pictures, the player aid, and the guided first
game, step by step (``meeple/engine/lessons.py``). The server keeps no tutorial state: a step's
position is rebuilt from the game's lessons on every request, and a move is checked against it.

Also the page ``/tutorial/GAME`` of the web client.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field

import meeple
from meeple.bots import bot_choices
from meeple.engine import Game, MeepleError, State, i18n
from meeple.engine.i18n import words
from meeple.engine.lessons import (
    Lesson,
    Tutorial,
    howto_markdown,
    judge,
    picture_svg,
    pictures,
    play,
    step_state,
    with_pictures,
)
from meeple.engine.lessons import highlight as step_highlight
from meeple.engine.look import seat_names
from meeple.engine.registry import game_class, game_lessons

from ..deps import limited
from .pages import index

_, _n = words(__file__)

router = APIRouter(prefix="/api/learn", tags=["learn"])
pages = APIRouter(include_in_schema=False)
pages.add_api_route("/tutorial/{rest:path}", index, methods=["GET"])
MAX_AGE = 3600
"""How long a browser may keep a picture without asking again, in seconds."""


class Check(BaseModel):
    """A move tried at a step: its notation, or its action id."""

    model_config = ConfigDict(extra="forbid")
    move: str | int = Field(description="the move in the game's notation, or its action id")


class Picture(BaseModel):
    name: str
    caption: str
    url: str


class AidRow(BaseModel):
    what: str
    points: str


class Aid(BaseModel):
    """The player aid: how points come and the steps of a turn."""

    game: str
    scoring: list[AidRow]
    turn: list[str]


class Closing(BaseModel):
    """The game against the weakest bot that ends the tutorial: say ``text``, then make a table
    of ``players`` with the learner in seat 0 and ``bot`` in the others."""

    text: str
    players: int
    options: dict[str, Any]
    bot: str
    bot_name: str


class HowTo(BaseModel):
    """A game's "How to play" page (Markdown, pictures as URLs) with what else teaches it."""

    name: str
    title: str
    markdown: str
    pictures: list[Picture]
    aid: Aid
    steps: int
    tutorial: str
    closing: Closing


class StepView(BaseModel):
    """One step of the guided first game: what to read, the board, what to point at and the
    moves the board offers (all legal moves, the intended ones first, so that pointing at the
    highlighted place shows the intended move first; a wrong one gets its explanation)."""

    game: str
    index: int
    count: int
    title: str
    text: str
    player: int
    highlight: list[str]
    svg: str
    actions: list[dict[str, Any]]
    ask: str


class Verdict(BaseModel):
    """Whether a move is the step's, and why (not); ``next`` is the next step's index, ``None``
    after the last; ``replies`` what the others then do, in words."""

    ok: bool
    message: str
    next: int | None
    finished: bool
    replies: list[dict[str, Any]]
    svg: str | None = None
    """The board after the move and the replies (only when the move is the step's)."""
    final_breakdown: list[dict[str, Any]] | None = None
    """Where the move ends the guided game: its final scoring (the observation's
    ``final_breakdown``) and each seat's rank, for the results table."""
    ranks: list[int] | None = None


def _lessons(name: str) -> tuple[type[Game], Lesson]:
    if name not in meeple.games():
        raise HTTPException(404, _("no game named {name}; known: {choices}",
                                   name=repr(name), choices=', '.join(meeple.games())))
    try:
        return game_class(name), game_lessons(name).LESSON
    except LookupError:
        raise HTTPException(404, _("{name} has no lessons yet", name=name)) from None


def _game(name: str) -> tuple[Game, Lesson]:
    cls, lesson = _lessons(name)
    return cls(lesson.players, **dict(lesson.options)), lesson


def _picture_url(game: str, name: str) -> str:
    return f"/api/learn/{game}/pictures/{name}.svg"


def _weakest() -> dict[str, object]:
    return bot_choices()[0]


def learner_names(players: int) -> list[str]:
    """The names a tutorial's pictures give the seats (the learner is seat 0)."""
    return seat_names(players)


def _svg(game_name: str, picture: str) -> tuple[str, str]:
    """A named picture of a game in the language in use and its entity tag."""
    return _drawn(game_name, picture, i18n.language())


@functools.lru_cache(maxsize=256)
def _drawn(game_name: str, picture: str, lang: str) -> tuple[str, str]:
    """A named picture of a game in ``lang`` and its entity tag, drawn once per process."""
    game, lesson = _game(game_name)
    with i18n.speaking(lang):
        svg = picture_svg(game, lesson, picture)
    return svg, '"' + hashlib.sha256(svg.encode("utf-8")).hexdigest()[:16] + '"'


def _aid(name: str) -> dict[str, Any]:
    return {"game": name, **game_lessons(name).AID.to_json()}


@router.get("/{name}")
def howto(name: str) -> HowTo:
    """The "How to play" page of a game (pictures as URLs), its aid and its tutorial's size."""
    cls, lesson = _lessons(name)
    try:
        text = howto_markdown(cls)
    except FileNotFoundError:
        raise HTTPException(404, _("{name} has no how-to-play page yet", name=name)) from None
    bot = _weakest()
    return HowTo(
        name=name, title=cls.title,
        markdown=with_pictures(text, lambda p: _picture_url(name, p)),
        pictures=[Picture(name=p, caption=caption, url=_picture_url(name, p))
                  for p, caption in pictures(text)],
        aid=Aid(**_aid(name)),
        steps=len(lesson.steps),
        tutorial=f"/tutorial/{name}",
        closing=Closing(text=lesson.closing, players=lesson.players, options=dict(lesson.options),
                        bot=str(bot["spec"]), bot_name=str(bot.get("name") or bot["spec"])),
    )


@router.get("/{name}/pictures/{picture}.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
def picture(name: str, picture: str, request: Request) -> Response:
    """One named picture of the how-to-play page, drawn by the game's own renderer."""
    _name, lesson = _lessons(name)
    if picture not in {p.name for p in lesson.positions}:
        raise HTTPException(404, _("{name} has no picture named {picture}",
                                   name=name, picture=repr(picture)))
    svg, tag = _svg(name, picture)
    headers = {"Cache-Control": f"public, max-age={MAX_AGE}", "ETag": tag,
               "Vary": "Cookie, Accept-Language"}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(svg, media_type="image/svg+xml", headers=headers)


@router.get("/{name}/aid")
def aid(name: str) -> Aid:
    """The player aid shown beside the board: the scoring table and a turn's steps."""
    _lessons(name)
    return Aid(**_aid(name))


def _step_index(lesson: Lesson, index: int) -> int:
    if not 0 <= index < len(lesson.steps):
        raise HTTPException(404, _("the tutorial has steps 0 to {last}",
                                   last=len(lesson.steps) - 1))
    return index


@router.get("/{name}/steps/{index}", dependencies=[limited("learn")])
def step(name: str, index: int) -> StepView:
    """Step ``index`` (from 0) of the guided first game: its text, picture and moves."""
    game, lesson = _game(name)
    i = _step_index(lesson, index)
    s = lesson.steps[i]
    state = step_state(lesson, i)
    obs = state.observation(s.player)
    return StepView(
        game=name, index=i, count=len(lesson.steps), title=s.title, text=s.text,
        player=s.player, highlight=step_highlight(state, s),
        svg=game.renderer.svg(obs, learner_names(game.num_players)),
        actions=sorted((state.describe_action(a, s.player) for a in state.legal_actions(s.player)),
                       key=lambda d: d["text"] not in s.expect),
        ask=game_lessons(name).ask(obs),
    )


@router.post("/{name}/steps/{index}/check", dependencies=[limited("learn")])
def check(name: str, index: int, body: Check) -> Verdict:
    """Whether ``move`` is the step's intended move; if not, why not."""
    game, lesson = _game(name)
    i = _step_index(lesson, index)
    tutorial = Tutorial(game, lesson)
    tutorial.index, tutorial.state = i, step_state(lesson, i)
    try:
        verdict = judge(tutorial.state, tutorial.step, body.move)
    except MeepleError as e:
        raise HTTPException(422, str(e)) from None
    replies = []
    svg = final = ranks = None
    names = learner_names(game.num_players)
    if verdict.ok:
        replies = [{"player": p, "name": names[p], "label": label}
                   for p, label in tutorial.replies()]
        after = after_move(tutorial, body.move)
        obs = after.observation(tutorial.step.player)
        svg = game.renderer.svg(obs, names)
        if after.is_terminal():
            final, ranks = obs.get("final_breakdown"), after.ranks()
    nxt = i + 1 if verdict.ok and i + 1 < len(lesson.steps) else None
    return Verdict(ok=verdict.ok, message=verdict.message, next=nxt,
                   finished=verdict.ok and nxt is None, replies=replies, svg=svg,
                   final_breakdown=final, ranks=ranks)


def after_move(tutorial: Tutorial, move: str | int) -> State:
    """The step's position after ``move`` (one of the step's own) and the replies that follow
    it, as far as they apply."""
    step = tutorial.step
    after = tutorial.state.clone()
    action = move if isinstance(move, int) else after.string_to_action(move, step.player)
    after.apply(action, step.player)
    try:
        play(after, step.replies)
    except MeepleError:
        pass  # another intended move than the first: the replies were written for the first
    return after
