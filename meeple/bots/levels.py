"""The ladder of bot levels a seat offers: each step a name and a line in player words.

A step is the random bot, the greedy bot, or a search (:class:`meeple.bots.mcts.MCTSBot`) with
a fixed number of iterations per move, set per game (``Step.iterations``): its strength does
not depend on how busy the machine is, and a faster engine answers sooner at the same strength.
Only a table's clock (``time_limit``, ``view.deadline``) can cut a search short. Each step beats
the one below it in every game, two players, as measured by ``benchmarks/ladder.py`` into
``meeple/bots/ladder.json``.

Specs: ``"random"``, ``"greedy"`` and ``"mcts:<step>"`` (for example ``"mcts:expert"``); the old
``"mcts:1"`` … ``"mcts:5"`` and ``"mcts"`` still build the old levels, and :func:`step_of` names
them after the step closest to them in strength (``OLD_SPECS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from meeple.engine import Game, OptionError
from meeple.engine.i18n import N_, words

from .base import Bot
from .mcts import MCTSBot
from .simple import GreedyBot, RandomBot

_, _n = words(__file__)

DEFAULT = "*"
"""The key of ``Step.iterations`` for a game the table does not name."""


@dataclass(frozen=True)
class Step:
    """One level of the ladder: the spec ``make_bot`` reads, what a player is shown (``name``
    and ``description`` in English; :attr:`said_name` and :attr:`said_description` in the
    language in use), and the bot behind it."""

    spec: str
    name: str
    description: str
    kind: str
    """``"random"``, ``"greedy"`` or ``"search"``."""
    iterations: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """Search iterations per move, by game name (``DEFAULT`` for any other game)."""

    @property
    def said_name(self) -> str:
        """The level's name in the language in use ("Gelegenheitsspieler")."""
        return _(self.name)

    @property
    def said_description(self) -> str:
        """The level's line in the language in use."""
        return _(self.description)

    def budget(self, game: str) -> int:
        """The search iterations per move of this step in ``game`` (0 for a bot that does not
        search)."""
        if self.kind != "search":
            return 0
        return self.iterations.get(game, self.iterations[DEFAULT])


def _per_game(**budgets: int) -> Mapping[str, int]:
    return MappingProxyType(dict(budgets))


LADDER: tuple[Step, ...] = (
    # TRANSLATORS: the names of the bot levels, weakest first; said as "{level} bot"
    Step("random", N_("Beginner"), N_("Plays any move it is allowed, at random."), "random"),
    Step("greedy", N_("Casual"),
         N_("Takes the move that looks best right now, never looking ahead."), "greedy"),
    Step("mcts:thoughtful", N_("Thoughtful"),
         N_("Tries out a few ways the game could go before each move."), "search",
         _per_game(**{DEFAULT: 100}, koplus=1000, kontor=50, botanik=100, mops_royal=100,
                   kozo=30)),
    Step("mcts:expert", N_("Expert"),
         N_("Plays out many ways the game could go before each move: the strongest."), "search",
         _per_game(**{DEFAULT: 800}, koplus=4000, kontor=400, botanik=800, mops_royal=800,
                   kozo=120)),
)
"""The steps, weakest first."""

OLD_SPECS: Mapping[str, str] = MappingProxyType({
    "mcts:1": "random",
    "mcts:2": "random",
    "mcts:3": "greedy",
    "mcts:4": "greedy",
    "mcts:5": "mcts:thoughtful",
    "mcts": "mcts:thoughtful",
})
"""The step each old level (``"mcts"`` alone was level 5) is named after: the one closest to it
in strength by the old measures, not above it. Levels 1 and 2 play a random move four times
in five and two in five; level 3 won 35% of 2-player KoPlus games against the greedy bot, level
5 won 92-97% against it in every game (as the Thoughtful step does)."""

_BY_SPEC = {s.spec: s for s in LADDER}


def steps() -> tuple[Step, ...]:
    """The ladder, weakest first."""
    return LADDER


def adjacent_pairs() -> list[tuple[Step, Step]]:
    """Each step with the one above it, weakest pair first: what the ladder is measured by."""
    return list(zip(LADDER[:-1], LADDER[1:], strict=True))


def step_number(spec: str) -> int | None:
    """The 1-based place of ``spec``'s step on the ladder (old specs by :func:`step_of`)."""
    step = step_of(spec)
    return None if step is None else LADDER.index(step) + 1


def step_of(spec: str | None) -> Step | None:
    """The ladder step a bot spec stands for: its own, or for an old spec the step it is
    measured closest to; ``None`` for a bot the ladder does not know."""
    if not spec:
        return None
    spec = spec.strip()
    return _BY_SPEC.get(spec) or _BY_SPEC.get(OLD_SPECS.get(spec, ""))


def bot_name(spec: str | None) -> str | None:
    """The name a player sees for a bot seat of ``spec``, in the language in use (``None`` for
    an unknown bot)."""
    step = step_of(spec)
    return None if step is None else step.said_name


def is_step(spec: str) -> bool:
    """Whether ``spec`` names a step of the ladder itself."""
    return spec in _BY_SPEC


def build(spec: str, game: Game, seed: int | None = None) -> Bot:
    """The bot of the ladder step ``spec`` for ``game``."""
    step = _BY_SPEC.get(spec)
    if step is None:
        known = ", ".join(s.spec for s in LADDER)
        raise OptionError(_("no bot level {spec}; the levels are {levels}", spec=repr(spec),
                            levels=known))
    if step.kind == "random":
        return RandomBot(game, seed=seed)
    if step.kind == "greedy":
        return GreedyBot(game, seed=seed)
    bot = MCTSBot(game, seed=seed, iterations=step.budget(game.name), seconds=0.0,
                  mistakes=0.0)
    bot.name = step.spec
    return bot


def choices() -> list[dict[str, object]]:
    """The ladder as a seat offers it: ``spec``, ``name``, ``description`` (in the language in
    use), ``step`` (1 is the weakest), weakest first."""
    return [{"spec": s.spec, "name": s.said_name, "description": s.said_description, "step": i}
            for i, s in enumerate(LADDER, start=1)]


__all__ = [
    "DEFAULT",
    "LADDER",
    "OLD_SPECS",
    "Step",
    "adjacent_pairs",
    "bot_name",
    "build",
    "choices",
    "is_step",
    "step_number",
    "step_of",
    "steps",
]
