"""Declared option schemas: every game lists its options so they can be validated and shown."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError

MAX_INT = 10**9
"""No whole-number option is larger than this (a board, a count, a seed)."""
MAX_TEXT = 200
"""No text option is longer than this."""


@dataclass(frozen=True)
class Option:
    """One game option: its name, type, default, allowed values and whether it is reconstructed.

    ``reconstructed`` marks options whose default is our reading where no source said; the rules
    page and the lobby show them as such.
    """

    name: str
    type: type
    default: Any
    choices: tuple[Any, ...] | None = None
    reconstructed: bool = False
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None

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
