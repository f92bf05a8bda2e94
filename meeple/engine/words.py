"""Words every game's labels share: small numbers in words, a place said from a landmark
("two to the left and one below the anchor"), and the mover's own things said to them or of
them ("your start tile" / "their start tile").

Everything here is said in the language in use (:mod:`meeple.engine.i18n`), through the
engine's catalog; a landmark is given already said by the game's own catalog."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .i18n import N_, words

_, _n = words(__file__)

NUMBER_WORDS = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"),
                N_("six"), N_("seven"), N_("eight"), N_("nine"))
"""Numbers up to nine in words (English; :func:`number_word` says them)."""


def number_word(n: int) -> str:
    """``n`` in words up to nine, else in digits, in the language in use."""
    return _(NUMBER_WORDS[n]) if 0 <= n < len(NUMBER_WORDS) else str(n)


def place_from(x: int, y: int, landmark: str) -> str:
    """The place ``x`` to the right and ``y`` down from ``landmark`` in words: "on the anchor",
    "just above the anchor", "next to the anchor, on the left", "two to the right and one
    below the anchor". Each is one whole phrase of the engine's catalog, so that every
    language puts the words in its own order.

    ``landmark`` ("the anchor", "your start tile") is said by the game, in the form that
    follows a preposition in its language (German: the dative, "dem Anker")."""
    if x == 0 and y == 0:
        # TRANSLATORS: a place; {landmark} is a thing on the board ("the anchor")
        return _("on {landmark}", landmark=landmark)
    if abs(x) + abs(y) == 1:
        if y == -1:
            return _("just above {landmark}", landmark=landmark)
        if y == 1:
            return _("just below {landmark}", landmark=landmark)
        if x == -1:
            return _("next to {landmark}, on the left", landmark=landmark)
        return _("next to {landmark}, on the right", landmark=landmark)
    h, v = number_word(abs(x)), number_word(abs(y))
    if not y:
        if x < 0:
            # TRANSLATORS: {count} is a number in words ("two")
            return _("{count} to the left of {landmark}", count=h, landmark=landmark)
        return _("{count} to the right of {landmark}", count=h, landmark=landmark)
    if not x:
        if y < 0:
            return _("{count} above {landmark}", count=v, landmark=landmark)
        return _("{count} below {landmark}", count=v, landmark=landmark)
    # TRANSLATORS: {across} and {down} are numbers in words: "two to the left and one
    # below the anchor"
    if x < 0 and y < 0:
        return _("{across} to the left and {down} above {landmark}", across=h, down=v,
                 landmark=landmark)
    if x < 0:
        return _("{across} to the left and {down} below {landmark}", across=h, down=v,
                 landmark=landmark)
    if y < 0:
        return _("{across} to the right and {down} above {landmark}", across=h, down=v,
                 landmark=landmark)
    return _("{across} to the right and {down} below {landmark}", across=h, down=v,
             landmark=landmark)


# -- said to the mover, or of them --------------------------------------------------------------

_of_them: ContextVar[bool] = ContextVar("meeple_of_them", default=False)


@contextmanager
def of_them() -> Iterator[None]:
    """Inside the block, a move's words name the mover's things as said of them to someone
    else ("their start tile"), not to the mover ("your start tile"): the engine says labels
    so for the others' replies in a tutorial and in a review."""
    token = _of_them.set(True)
    try:
        yield
    finally:
        _of_them.reset(token)


def said_of_others() -> bool:
    """Whether words are being said of the mover to someone else (inside :func:`of_them`)."""
    return _of_them.get()


def yours(to_them: str, of_them_: str) -> str:
    """The words for the mover's own thing: ``to_them`` ("your start tile") when said to the
    mover, ``of_them_`` ("their start tile") inside :func:`of_them`. A game says both with its
    own catalog: ``yours(_("your start tile"), _("their start tile"))``."""
    return of_them_ if _of_them.get() else to_them


def and_list(items: list[str] | tuple[str, ...]) -> str:
    """Words joined as people list them, in the language in use: "A", "A and B",
    "A, B and C"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    head = items[0]
    for item in items[1:-1]:
        # TRANSLATORS: the list so far and one more item, before the last: "A, B"
        head = _("{items}, {item}", items=head, item=item)
    # TRANSLATORS: the last item of a list: "A, B and C"
    return _("{items} and {last}", items=head, last=items[-1])
