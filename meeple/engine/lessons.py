"""Learning a game: the how-to-play page, the player aid and the guided first game.

A game provides these as its ``lessons`` plug-in (``plugins.Lessons``): a :class:`Lesson`
(named positions built by playing actions from a set-up with fixed chance outcomes, the
tutorial's steps and the closing game against the weakest bot), an :class:`Aid` (the scoring
table and a turn's steps) and ``ask(observation)``, a sentence for what the current step asks.
Every text lives in the game's ``learn.py`` and ``howto.md``, as data, so it can be translated
in one place.

The words: a game marks the texts of its lesson and aid with ``N_`` (step ``title``, ``text``,
``good``, the ``wrong`` values, ``otherwise``; the lesson's ``closing``; the aid's ``scoring``
and ``turn``) and says the sentence ``ask`` returns itself, with ``_``. When the game
registers, the registry wraps its lessons in :class:`TaughtLessons`: ``LESSON`` and ``AID``
then come said through the game's catalog in the language in use (worked out once per
language), and ``ask``'s sentence too, so whoever shows them (the server, the terminal) just
reads them inside the reader's language. The runner's own words (a verdict on a move) come
from the engine's catalog. A move's label shown to someone other than its mover (the others'
replies) is said inside :func:`meeple.engine.words.of_them` ("their start tile").

The :class:`Tutorial` runner is the same for every game, in the browser and in the terminal: it
builds a step's position, checks a move against the step and says why it is or is not the one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from . import i18n
from .core import CHANCE, SIMULTANEOUS, State
from .errors import IllegalAction, NotationError
from .i18n import N_
from .words import of_them

if TYPE_CHECKING:
    from .core import Game

_, _n = i18n.words(__file__)

PICTURE = re.compile(r"!\[([^\]]*)\]\(picture:([a-z0-9_]+)\)")
"""How ``howto.md`` names a picture: ``![caption](picture:name)``."""


@dataclass(frozen=True)
class Position:
    """A named position: ``build()`` makes it (from a set-up with fixed chance outcomes and the
    actions of a worked example); ``viewer`` is the seat whose view its picture shows."""

    name: str
    build: Callable[[], State]
    viewer: int | None = 0


@dataclass(frozen=True)
class Step:
    """One step of the guided first game.

    ``text`` says what to do and why; ``expect`` the intended move(s) in the game's notation;
    ``good`` is said once it is made. ``position`` names the step's position (``None``: the one
    the previous step led to). ``wrong`` explains particular other moves (notation -> why not),
    ``otherwise`` any other legal move. ``highlight`` lists picture element ids to point at
    (empty: the intended moves' own targets and cells). ``replies`` are the moves the others
    make before the next step, as ``(player, notation)`` (player ``CHANCE`` for a draw)."""

    title: str
    text: str
    expect: tuple[str, ...]
    good: str
    position: str | None = None
    wrong: Mapping[str, str] = field(default_factory=dict)
    otherwise: str = ""
    highlight: tuple[str, ...] = ()
    replies: tuple[tuple[int, str], ...] = ()
    player: int = 0


@dataclass(frozen=True)
class Lesson:
    """A game's guided first game: its positions, its steps, and the closing game against the
    weakest bot, introduced by ``closing``."""

    players: int
    positions: tuple[Position, ...]
    steps: tuple[Step, ...]
    closing: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def position(self, name: str) -> Position:
        """The position called ``name``; KeyError names the known ones."""
        for p in self.positions:
            if p.name == name:
                return p
        raise KeyError(f"no position named {name!r}; known: "
                       f"{', '.join(p.name for p in self.positions)}")


@dataclass(frozen=True)
class Aid:
    """The player aid beside the board: how points come (``scoring``: what, points) and the
    steps of a turn, in the players' words."""

    scoring: tuple[tuple[str, str], ...]
    turn: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"scoring": [{"what": w, "points": p} for w, p in self.scoring],
                "turn": list(self.turn)}


OTHERWISE = N_("That move is allowed, but it is not the one this step is about.")
"""What a legal move that is not the step's gets where the step says nothing more."""


@dataclass(frozen=True)
class Verdict:
    """What the runner says of a move tried at a step."""

    ok: bool
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": self.message}


# -- the how-to-play page ------------------------------------------------------------------------


_YOUR = re.compile(r"\b([Yy])our(s?)\b")


def said_of_them(label: str) -> str:
    """A move's words as said to its mover ("your start tile"), as said of them to someone
    else ("their start tile"): for a line that names the mover. English only, for a label
    not said inside :func:`meeple.engine.words.of_them` (a game that gives both forms with
    :func:`meeple.engine.words.yours` needs none of this); other languages are left as
    they are."""
    if i18n.language() != i18n.DEFAULT:
        return label
    return _YOUR.sub(lambda m: ("T" if m.group(1) == "Y" else "t") + "heir" + m.group(2), label)


def howto_markdown(game_class: type[Game], lang: str | None = None) -> str:
    """The game's one-page "How to play" (``howto.md`` in its package, ``howto.de.md`` in
    German; ``lang`` defaults to the language in use)."""
    return i18n.page(game_class.__module__.rsplit(".", 1)[0], "howto.md", lang)


def picture_names(markdown: str) -> list[str]:
    """The pictures a how-to-play page names, in order."""
    return [m.group(2) for m in PICTURE.finditer(markdown)]


def pictures(markdown: str) -> list[tuple[str, str]]:
    """The pictures a how-to-play page names, as ``(name, caption)``, in order."""
    return [(m.group(2), m.group(1)) for m in PICTURE.finditer(markdown)]


def with_pictures(markdown: str, url: Callable[[str], str]) -> str:
    """The page with each ``picture:name`` replaced by ``url(name)``."""
    return PICTURE.sub(lambda m: f"![{m.group(1)}]({url(m.group(2))})", markdown)


def picture_svg(game: Game, lesson: Lesson, name: str,
                names: list[str] | None = None) -> str:
    """The game's own picture of the position ``name``."""
    pos = lesson.position(name)
    state = pos.build()
    return game.renderer.svg(state.observation(pos.viewer), names)


def picture_text(game: Game, lesson: Lesson, name: str) -> str:
    """The game's terminal picture (rich markup) of the position ``name``."""
    pos = lesson.position(name)
    state = pos.build()
    return game.renderer.text(state.observation(pos.viewer))


def ask_now(game: Game, observation: dict[str, Any]) -> str | None:
    """What the current step of the game asks of the observation's viewer, in one sentence
    (``None`` for a game without lessons)."""
    lessons = type(game).lessons
    return None if lessons is None else lessons.ask(observation)


# -- the steps -----------------------------------------------------------------------------------


def recorded(text: str) -> tuple[tuple[int, str], ...]:
    """Moves written down as ``player: notation`` separated by ``;`` (``c`` for chance), in a
    game's ``learn.py``: a played stretch of a game that leads to a later position of a
    guided game."""
    out = []
    for item in text.split(";"):
        if item.strip():
            who, _sep, move = item.partition(":")
            out.append((CHANCE if who.strip() == "c" else int(who), " ".join(move.split())))
    return tuple(out)


def play(state: State, moves: tuple[tuple[int, str], ...] | list[tuple[int, str]]) -> State:
    """Apply ``(player, notation)`` moves to ``state`` in place and return it."""
    for player, text in moves:
        action = state.string_to_action(text, player)
        state.apply(action, None if player == CHANCE else player)
    return state


def step_state(lesson: Lesson, index: int) -> State:
    """The position of step ``index``: its own named position, or the one the steps before
    led to (each played with its first intended move and the replies)."""
    start = index
    while lesson.steps[start].position is None:
        if start == 0:
            raise ValueError("the first step needs a position")
        start -= 1
    name = lesson.steps[start].position
    assert name is not None
    state = lesson.position(name).build()
    for k in range(start, index):
        step = lesson.steps[k]
        play(state, [(step.player, step.expect[0]), *step.replies])
    return state


def ending(lesson: Lesson) -> State:
    """The position after the last step: its intended move and the replies played. For a
    tutorial that teaches a whole game, the end of the game, with its final scoring."""
    state = step_state(lesson, len(lesson.steps) - 1)
    step = lesson.steps[-1]
    return play(state, [(step.player, step.expect[0]), *step.replies])


def _action(state: State, move: str | int, player: int) -> int:
    if isinstance(move, int):
        return move
    return state.string_to_action(move, player)


def judge(state: State, step: Step, move: str | int) -> Verdict:
    """Whether ``move`` (notation or an action id) is the step's intended move, and why not."""
    player = step.player
    try:
        action = _action(state, move, player)
    except NotationError as e:
        return Verdict(False, _("That is not a move here: {reason}", reason=str(e)))
    expected = {state.string_to_action(t, player) for t in step.expect}
    if action in expected:
        return Verdict(True, step.good)
    for text, why in step.wrong.items():
        try:
            if state.string_to_action(text, player) == action:
                return Verdict(False, why)
        except NotationError:
            continue
    try:
        state.check(action, player)
    except IllegalAction as e:
        return Verdict(False, _("That move is not allowed: {reason}.", reason=e.reason))
    return Verdict(False, step.otherwise or _(OTHERWISE))


def highlight(state: State, step: Step) -> list[str]:
    """The picture element ids a step points at: its own list, else the intended moves'
    targets and cells."""
    if step.highlight:
        return list(step.highlight)
    out: list[str] = []
    for text in step.expect:
        d = state.describe_action(state.string_to_action(text, step.player), step.player)
        for el in [d.get("target"), *(d.get("cells") or [])]:
            if isinstance(el, str) and el not in out:
                out.append(el)
    return out


def to_move(state: State, player: int) -> bool:
    """Whether ``player`` may act in ``state`` (alone or at a simultaneous step)."""
    cp = state.current_player
    return cp == player or (cp == SIMULTANEOUS and player in state.pending_players())


# -- the words of a game's lessons, said ------------------------------------------------------


def _say(catalog: i18n.Words, text: str) -> str:
    return catalog.say(text) if text else text


def said_step(step: Step, catalog: i18n.Words) -> Step:
    """``step`` with its texts said through ``catalog`` in the language in use."""
    return replace(step, title=_say(catalog, step.title), text=_say(catalog, step.text),
                   good=_say(catalog, step.good),
                   wrong={k: _say(catalog, v) for k, v in step.wrong.items()},
                   otherwise=_say(catalog, step.otherwise))


def said_lesson(lesson: Lesson, catalog: i18n.Words) -> Lesson:
    """``lesson`` with its steps and closing said through ``catalog`` in the language in use
    (the positions are the same)."""
    return replace(lesson, steps=tuple(said_step(s, catalog) for s in lesson.steps),
                   closing=_say(catalog, lesson.closing))


def said_aid(aid: Aid, catalog: i18n.Words) -> Aid:
    """``aid`` said through ``catalog`` in the language in use."""
    return Aid(scoring=tuple((_say(catalog, w), _say(catalog, p)) for w, p in aid.scoring),
               turn=tuple(_say(catalog, t) for t in aid.turn))


class TaughtLessons:
    """A game's lessons (its ``learn`` module) that say their words in the language in use:
    ``LESSON`` and ``AID`` said through the game's catalog (each worked out once per
    language), ``ask(observation)``'s sentence too; anything else the module has is its
    own. ``raw`` is the module itself, in English. The registry wraps every game's lessons
    in this."""

    def __init__(self, lessons: Any, catalog: i18n.Words) -> None:
        self.raw = lessons
        self.catalog = catalog
        self._said: dict[tuple[str, str], Any] = {}

    def _in_language(self, name: str, say: Callable[[Any, i18n.Words], Any]) -> Any:
        """The module's ``name`` said by ``say`` in the language in use (once a language)."""
        key = (name, i18n.language())
        if key not in self._said:
            self._said[key] = say(getattr(self.raw, name), self.catalog)
        return self._said[key]

    @property
    def LESSON(self) -> Lesson:  # noqa: N802 - the name of the Lessons protocol
        return cast(Lesson, self._in_language("LESSON", said_lesson))

    @property
    def AID(self) -> Aid:  # noqa: N802 - the name of the Lessons protocol
        return cast(Aid, self._in_language("AID", said_aid))

    def ask(self, observation: dict[str, Any]) -> str:
        """What the current step of the game asks, in the language in use."""
        return _say(self.catalog, self.raw.ask(observation))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class Tutorial:
    """The guided first game in progress: the current step, its position, and moves tried."""

    def __init__(self, game: Game, lesson: Lesson) -> None:
        self.game = game
        self.lesson = lesson
        self.index = 0
        self.state = step_state(lesson, 0)

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    @property
    def finished(self) -> bool:
        return self.index >= len(self.lesson.steps)

    def observation(self) -> dict[str, Any]:
        return self.state.observation(self.step.player)

    def highlight(self) -> list[str]:
        return highlight(self.state, self.step)

    def replies(self) -> list[tuple[int, str]]:
        """The others' moves after the current step's move, as ``(player, label)``, each label
        said of its mover ("their start tile")."""
        after = self.state.clone()
        step = self.step
        play(after, [(step.player, step.expect[0])])
        out = []
        for player, text in step.replies:
            p = CHANCE if player == CHANCE else player
            action = after.string_to_action(text, p)
            with of_them():
                label = after.describe_action(action, p).get("label") or text
            after.apply(action, None if p == CHANCE else p)
            if p != CHANCE:
                out.append((p, said_of_them(str(label))))
        return out

    def try_move(self, move: str | int) -> Verdict:
        """Judge ``move``; when it is the step's, go on to the next step (after the last, the
        state is where the guided game ends: :func:`ending`)."""
        verdict = judge(self.state, self.step, move)
        if verdict.ok:
            self.index += 1
            self.state = (ending(self.lesson) if self.finished
                          else step_state(self.lesson, self.index))
        return verdict


def check_lesson(game: Game, lesson: Lesson) -> list[str]:
    """What is wrong with a lesson, in words (empty: nothing): every position builds, each
    step's player is to move, its intended moves are legal and different from the moves it
    calls wrong, and every element it points at is in its picture."""
    problems: list[str] = []
    for pos in lesson.positions:
        try:
            pos.build()
        except Exception as e:  # a position that does not build is reported, not raised
            problems.append(f"position {pos.name}: {e}")
    for i, step in enumerate(lesson.steps):
        where = f"step {i + 1} ({step.title})"
        try:
            state = step_state(lesson, i)
        except Exception as e:
            problems.append(f"{where}: its position does not build: {e}")
            continue
        if not to_move(state, step.player):
            problems.append(f"{where}: player {step.player} is not to move")
            continue
        for text in step.expect:
            try:
                state.check(state.string_to_action(text, step.player), step.player)
            except (NotationError, IllegalAction) as e:
                problems.append(f"{where}: intended move {text} is not legal: {e}")
        for text in step.wrong:
            if text in step.expect:
                problems.append(f"{where}: {text} is both intended and wrong")
        svg = game.renderer.svg(state.observation(step.player))
        for el in highlight(state, step):
            if f'id="{el}"' not in svg:
                problems.append(f"{where}: the picture has no element {el}")
    return problems
