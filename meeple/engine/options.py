"""Declared option schemas: every game lists its options so they can be validated and shown."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError

MAX_INT = 10**9
"""No whole-number option is larger than this (a board, a count, a seed)."""
MAX_TEXT = 200
"""No text option is longer than this."""
RECONSTRUCTED = "no source says how the printed game does this; this is our reading"
"""What "reconstructed" means, in one line, wherever an option or rule is marked so."""


@dataclass(frozen=True)
class Option:
    """One game option: its name, type, default, allowed values and whether it is reconstructed.

    ``reconstructed`` marks options whose default is our reading where no source said; the rules
    page and the lobby show them as such. ``label`` names the option in the players' words and
    ``labels`` says each value (every choice, and ``None`` where the game decides) in those
    words, for a form; ``help`` is the one-line explanation the terminal and the form show.
    ``advanced`` options are folded away in a form, behind the everyday ones.
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

    def __post_init__(self) -> None:
        said = [value for value, _ in self.labels]
        for value, words in self.labels:
            if not words:
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
        return self.label or self.name.replace("_", " ").capitalize()

    def words(self, value: Any) -> str:
        """What a player reads for ``value`` of this option."""
        for known, words in self.labels:
            if known == value and type(known) is type(value):
                return words
        if value is None:
            return "as the game decides"
        if self.type is bool:
            return "on" if value else "off"
        return str(value)

    def allowed(self) -> str:
        """Say in words which values this option accepts."""
        if self.choices is not None:
            return ", ".join(repr(c) for c in self.choices)
        if self.type is bool:
            return "True, False"
        lo = "" if self.minimum is None else f"{self.minimum} ≤ "
        hi = "" if self.maximum is None else f" ≤ {self.maximum}"
        return f"{lo}{self.type.__name__}{hi}"

    def check(self, value: Any, game: str) -> Any:
        """Return ``value`` converted to this option's type, or raise :class:`OptionError`."""
        t = self.type
        ok = isinstance(value, t) and not (t is not bool and isinstance(value, bool))
        if t is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise OptionError(
                f"option {self.name!r} of {game} must be {t.__name__}, got "
                f"{type(value).__name__} {value!r}; allowed: {self.allowed()}"
            )
        if t is float and not math.isfinite(value):
            raise OptionError(
                f"option {self.name!r} of {game} must be a finite number, got {value!r}; "
                f"allowed: {self.allowed()}"
            )
        if t is int and abs(value) > MAX_INT:
            raise OptionError(
                f"option {self.name!r} of {game} is far too large; allowed: {self.allowed()}"
            )
        if t is str and len(value) > MAX_TEXT:
            raise OptionError(
                f"option {self.name!r} of {game} is longer than {MAX_TEXT} characters; "
                f"allowed: {self.allowed()}"
            )
        if self.choices is not None and value not in self.choices:
            raise OptionError(
                f"option {self.name!r} of {game} cannot be {value!r}; allowed: {self.allowed()}"
            )
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise OptionError(
                f"option {self.name!r} of {game} cannot be {value!r}; allowed: {self.allowed()}"
            )
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
            raise OptionError(
                f"option {self.name!r} of {game}: cannot read {text!r} as {t.__name__}; "
                f"allowed: {self.allowed()}"
            ) from None
        return self.check(value, game)

    def to_json(self) -> dict[str, Any]:
        """The schema entry as JSON, for the lobby and the docs."""
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "reconstructed": self.reconstructed,
            "help": self.help,
            "label": self.title,
            "labels": [{"value": value, "label": words} for value, words in self.labels],
            "advanced": self.advanced,
        }


@dataclass(frozen=True)
class Preset:
    """A named set of options a player picks in one go ("Standard", "Short game", ...).

    ``options`` are the values that differ from the defaults; ``players`` the player counts
    it is meant for (``None``: every count of the game).
    """

    name: str
    description: str
    options: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The preset as JSON, for the lobby."""
        return {
            "name": self.name,
            "description": self.description,
            "options": dict(self.options),
            "players": list(self.players) if self.players is not None else None,
        }


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
                allowed = ", ".join(by_name) or "none"
                raise OptionError(f"unknown option {key!r} for {game}; its options are: {allowed}")
        return {
            o.name: o.check(given[o.name], game) if o.name in given else o.default
            for o in self.options
        }
