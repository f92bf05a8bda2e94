"""Declared option schemas: every game lists its options so they can be validated and shown."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError
from .i18n import N_, Words, words

_, _n = words(__file__)

MAX_INT = 10**9
"""No whole-number option is larger than this (a board, a count, a seed)."""
MAX_TEXT = 200
"""No text option is longer than this."""
RECONSTRUCTED = N_("no source says how the printed game does this; this is our reading")
"""What "reconstructed" means, in one line, wherever an option or rule is marked so (English:
:func:`reconstructed` says it in the language in use)."""

TYPE_WORDS: dict[type, str] = {bool: N_("on or off"), int: N_("a whole number"),
                               float: N_("a number"), str: N_("a text")}
"""What a player reads for each option type."""


def reconstructed() -> str:
    """:data:`RECONSTRUCTED` in the language in use."""
    return _(RECONSTRUCTED)


def _type_words(t: type) -> str:
    return _(TYPE_WORDS[t]) if t in TYPE_WORDS else t.__name__


def _value(value: Any) -> str:
    """A value as a programmer writes it ("'x'", "3", "True"): the same in every language."""
    return repr(value)


@dataclass(frozen=True)
class Option:
    """One game option: its name, type, default, allowed values and whether it is reconstructed.

    ``reconstructed`` marks options whose default is our reading where no source said; the rules
    page and the lobby show them as such. ``label`` names the option in the players' words and
    ``labels`` says each value (every choice, and ``None`` where the game decides) in those
    words, for a form; ``help`` is the one-line explanation the terminal and the form show.
    ``advanced`` options are folded away in a form, behind the everyday ones.

    The game marks ``label``, ``help`` and the words of ``labels`` with ``N_``; ``catalog``,
    the game's catalog, is set by the registry when the game registers (:func:`bind`), and
    :attr:`title`, :meth:`words`, :attr:`said_help` and :meth:`to_json` say them through it
    in the language in use. The engine's own words ("on", "off", the errors) come from the
    engine's catalog.
    """

    name: str
    type: type
    default: Any
    choices: tuple[Any, ...] | None = None
    reconstructed: bool = False
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    label: str = ""
    labels: tuple[tuple[Any, str], ...] = ()
    advanced: bool = False
    catalog: Words | None = field(default=None, compare=False, repr=False)

    def say(self, text: str) -> str:
        """A text the game declared for this option, in the language in use."""
        return self.catalog.say(text) if self.catalog is not None and text else text

    def __post_init__(self) -> None:
        said = [value for value, _said in self.labels]
        for value, text in self.labels:
            if not text:
                raise ValueError(f"option {self.name!r}: the words for {value!r} are empty")
            if value is None:
                if self.default is not None:
                    raise ValueError(f"option {self.name!r}: only a None default has words")
                continue
            self.check(value, "its game")
        if self.choices is not None and self.labels:
            missing = [c for c in self.choices if c not in said]
            if missing:
                raise ValueError(f"option {self.name!r}: no words for {missing!r}")
        if self.default is None and self.labels and None not in said:
            raise ValueError(f"option {self.name!r}: no words for its default, None")

    @property
    def title(self) -> str:
        """The option's name in the players' words (its id with spaces where none is given)."""
        if self.label:
            return self.say(self.label)
        return self.name.replace("_", " ").capitalize()

    @property
    def said_help(self) -> str:
        """The one-line explanation in the language in use."""
        return self.say(self.help)

    def words(self, value: Any) -> str:
        """What a player reads for ``value`` of this option, in the language in use."""
        for known, said in self.labels:
            if known == value and type(known) is type(value):
                return self.say(said)
        if value is None:
            return _("as the game decides")
        if self.type is bool:
            return _("on") if value else _("off")
        return str(value)

    def allowed(self) -> str:
        """Say in words which values this option accepts."""
        if self.choices is not None:
            return ", ".join(repr(c) for c in self.choices)
        if self.type is bool:
            return "True, False"
        kind = _type_words(self.type)
        lo = None if self.minimum is None else _limit(self.minimum, self.type)
        hi = None if self.maximum is None else _limit(self.maximum, self.type)
        if lo is not None and hi is not None:
            # TRANSLATORS: {kind} is "a whole number" or "a number"
            return _("{kind} from {low} to {high}", kind=kind, low=lo, high=hi)
        if lo is not None:
            return _("{kind} of at least {low}", kind=kind, low=lo)
        if hi is not None:
            return _("{kind} of at most {high}", kind=kind, high=hi)
        return kind

    def check(self, value: Any, game: str) -> Any:
        """Return ``value`` converted to this option's type, or raise :class:`OptionError`."""
        t = self.type
        ok = isinstance(value, t) and not (t is not bool and isinstance(value, bool))
        if t is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        name = repr(self.name)
        if not ok:
            # TRANSLATORS: {option} is the option's id ('rounds'), {game} the game's id,
            # {kind} "a whole number"/"a text"/..., {type} a programmer's type name (str)
            raise OptionError(_(
                "option {option} of {game} must be {kind} ({type}), got {got} {value}; "
                "allowed: {allowed}", option=name, game=game, kind=_type_words(t),
                type=t.__name__, got=type(value).__name__, value=_value(value),
                allowed=self.allowed()))
        if t is float and not math.isfinite(value):
            raise OptionError(_(
                "option {option} of {game} must be a finite number, got {value}; "
                "allowed: {allowed}", option=name, game=game, value=_value(value),
                allowed=self.allowed()))
        if t is int and abs(value) > MAX_INT:
            raise OptionError(_(
                "option {option} of {game} is far too large; allowed: {allowed}",
                option=name, game=game, allowed=self.allowed()))
        if t is str and len(value) > MAX_TEXT:
            raise OptionError(_(
                "option {option} of {game} is longer than {limit} characters; "
                "allowed: {allowed}", option=name, game=game, limit=MAX_TEXT,
                allowed=self.allowed()))
        if (self.choices is not None and value not in self.choices) or (
            self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise OptionError(_(
                "option {option} of {game} cannot be {value}; allowed: {allowed}",
                option=name, game=game, value=_value(value), allowed=self.allowed()))
        return value

    def parse(self, text: str, game: str) -> Any:
        """Convert text (from a command line or a form) to this option's type."""
        t = self.type
        try:
            if t is bool:
                low = text.strip().lower()
                if low in ("1", "true", "yes", "on"):
                    value: Any = True
                elif low in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise ValueError(text)
            else:
                value = t(text)
        except ValueError:
            raise OptionError(_(
                "option {option} of {game}: cannot read {text} as {type}; allowed: {allowed}",
                option=repr(self.name), game=game, text=repr(text), type=t.__name__,
                allowed=self.allowed())) from None
        return self.check(value, game)

    def to_json(self) -> dict[str, Any]:
        """The schema entry as JSON, for the lobby and the docs: ``label``, ``help`` and the
        values' ``labels`` in the language in use."""
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "reconstructed": self.reconstructed,
            "help": self.said_help,
            "label": self.title,
            "labels": [{"value": value, "label": self.say(said)} for value, said in self.labels],
            "advanced": self.advanced,
        }


@dataclass(frozen=True)
class Preset:
    """A named set of options a player picks in one go ("Standard", "Short game", ...).

    ``options`` are the values that differ from the defaults; ``players`` the player counts
    it is meant for (``None``: every count of the game). The game marks ``name`` and
    ``description`` with ``N_``; :meth:`to_json` says them with the game's catalog (given by
    ``Game.describe``).
    """

    name: str
    description: str
    options: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[int, ...] | None = None

    def to_json(self, say: Callable[[str], str] | None = None) -> dict[str, Any]:
        """The preset as JSON, for the lobby: its name and description said with ``say``
        (the game's catalog, in the language in use; as written without one)."""
        say = say or str
        return {
            "name": say(self.name),
            "description": say(self.description),
            "options": dict(self.options),
            "players": list(self.players) if self.players is not None else None,
        }


def _limit(value: float, t: type) -> str:
    """A bound of a number option as the language in use writes numbers."""
    from .i18n import number

    return number(int(value) if t is int else value)


def bind(schema: OptionSchema, catalog: Words) -> None:
    """Let every option of ``schema`` say its game's words through ``catalog`` (the registry
    does this when a game registers)."""
    for o in schema.options:
        if o.catalog is None:
            object.__setattr__(o, "catalog", catalog)


@dataclass(frozen=True)
class OptionSchema:
    """The ordered options of one game."""

    options: tuple[Option, ...] = field(default_factory=tuple)

    def __iter__(self):
        return iter(self.options)

    def names(self) -> list[str]:
        return [o.name for o in self.options]

    def resolve(self, game: str, given: dict[str, Any]) -> dict[str, Any]:
        """Validate ``given`` and fill in defaults; raise :class:`OptionError` on any problem."""
        by_name = {o.name: o for o in self.options}
        for key in given:
            if key not in by_name:
                if by_name:
                    raise OptionError(_("unknown option {option} for {game}; its options are: "
                                        "{options}", option=repr(key), game=game,
                                        options=", ".join(by_name)))
                raise OptionError(_("unknown option {option} for {game}; it has no options",
                                    option=repr(key), game=game))
        return {
            o.name: o.check(given[o.name], game) if o.name in given else o.default
            for o in self.options
        }
