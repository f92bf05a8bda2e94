"""Player names: letters of any script, normalised, unique regardless of case, and never a
mix of scripts that makes one name look like another ("Аnn" with a Cyrillic "А")."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Sequence

from meeple.engine.i18n import N_, words

_, _n = words(__file__)

MAX_NAME = 32
"""A name is at most this many characters (after normalisation)."""
MAX_KEY = 40
"""The stored comparison key is at most this long (the users table's ``name_key`` column)."""
MAX_MARKS = 2
"""At most this many accents may sit on one letter."""
INSIDE = frozenset(" '-")
"""Spaces, apostrophes and hyphens: only between letters or digits."""
ANYWHERE = frozenset("_.")
"""Kept from the first names the site allowed."""
QUOTES = str.maketrans({"\u2019": "'", "\u02bc": "'", "\u2010": "-", "\u2011": "-"})
"""Typographic apostrophes and hyphens read as the plain ones."""
# Scripts that may share one name (Unicode's "highly restrictive" profile, UTS #39):
# Japanese, Chinese and Korean writing, each also with Latin.
MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
RULE = N_("a name is 1 to {most} letters (of any one script) or digits, with spaces, "
          "hyphens and apostrophes only between them")


def rule() -> str:
    """What a name may be, in the language in use."""
    return _(RULE, most=MAX_NAME)


def _script(ch: str) -> set[str]:
    """The script(s) a letter belongs to, read from its Unicode name."""
    name = unicodedata.name(ch, "")
    first = name.split(" ", 1)[0]
    if first == "CJK" or name.startswith("IDEOGRAPHIC"):
        return {"HAN"}
    if first == "KATAKANA-HIRAGANA":
        return {"HIRAGANA", "KATAKANA"}
    return {first}


def scripts(name: str) -> set[str]:
    """The scripts of the letters in ``name`` (digits, spaces and accents belong to none)."""
    out: set[str] = set()
    for ch in name:
        if unicodedata.category(ch).startswith("L"):
            out |= _script(ch)
    return out


def _one_writing(found: set[str]) -> bool:
    return len(found) <= 1 or any(found <= mix for mix in MIXES) or (
        # a kana sign (the long-vowel mark) counts for both kana scripts
        found <= {"HIRAGANA", "KATAKANA"})


def normalise(name: str) -> str:
    """The name as it is kept: compatibility forms folded (NFKC: a full-width "Ａ" is "A"),
    typographic apostrophes plain, runs of spaces one space, no space at either end."""
    text = unicodedata.normalize("NFKC", name).translate(QUOTES)
    return " ".join(text.split())


def check_name(name: object) -> str:
    """A valid player name in its normalised form, or ``ValueError`` saying why not."""
    if not isinstance(name, str):
        raise ValueError(rule())
    text = normalise(name)
    if not text:
        raise ValueError(_("a name cannot be empty: {rule}", rule=rule()))
    if len(text) > MAX_NAME:
        raise ValueError(_("a name is at most {most} characters", most=MAX_NAME))
    marks = 0
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if cat.startswith("M"):
            marks += 1
            if i == 0 or marks > MAX_MARKS:
                raise ValueError(_("an accent must sit on a letter, at most {most} on one letter",
                                   most=MAX_MARKS))
            continue
        marks = 0
        if cat.startswith("L") or "0" <= ch <= "9" or ch in ANYWHERE:
            continue
        if ch in INSIDE:
            if i == 0 or i == len(text) - 1 or text[i - 1] in INSIDE or text[i + 1] in INSIDE:
                raise ValueError("spaces, hyphens and apostrophes go between letters: " + RULE)
            continue
        shown = f"\u201c{ch}\u201d" if ch.isprintable() else "an invisible character"
        raise ValueError(_("a name cannot hold {shown}: {rule}", shown=shown, rule=rule()))
    found = scripts(text)
    if not _one_writing(found):
        names = " and ".join(sorted(s.capitalize() for s in found))
        raise ValueError(_("a name cannot mix {names} letters (one could pass for another "
                           "player's name); write it in one script", names=names))
    if len(name_key(text)) > MAX_KEY:
        raise ValueError(_("this name is too long once its letters are compared"))
    return text


def name_key(name: str) -> str:
    """What two names are compared by: the same letters regardless of case and of
    compatibility forms ("ANN", "ann" and "Ａｎｎ" are one name)."""
    folded = unicodedata.normalize("NFKC", normalise(name)).casefold()
    return unicodedata.normalize("NFKC", folded)


MAX_GUEST_NUMBER = 1000
"""A guest name another guest holds gets a number below this ("Bob (2)", "Bob (3)", ...)."""


def guest_names(base: str) -> Iterator[str]:
    """The names a guest who asks for ``base`` may get, in the order they are tried: the name
    itself, then numbered where other guests hold it ("Bob (2)", "Bob (3)", ...)."""
    yield base
    for i in range(2, MAX_GUEST_NUMBER):
        yield f"{base} ({i})"


def free_guest_name(base: str, taken: Callable[[str], bool]) -> str | None:
    """The name a guest who asks for ``base`` would get now (``taken``: whether a name is held,
    regardless of case), or ``None`` when every numbered name is held."""
    return next((name for name in guest_names(base) if not taken(name)), None)


def seat_names(owner: str, own: Sequence[bool], given: Sequence[str | None] | None,
               registered: Callable[[str], bool]) -> list[str | None]:
    """The names of the owner's seats at a new table, one per seat (``None`` where the seat
    is not the owner's), never one name on two seats: each given name checked like a player
    name; the owner's name on the seat given it, else on the first of their seats without a
    name; "Player N" (the seat's number) on their other seats without a name (hot-seat).

    ``own`` marks the owner's seats (hot-seat: several); ``registered(key)`` says whether a
    name key belongs to a registered player other than the owner. Raises ``ValueError``
    (a name on a seat that is not the owner's, a bad name) or ``LookupError`` (another
    player's name, two seats given one name), saying why.
    """
    wanted = list(given) if given is not None else [None] * len(own)
    if len(wanted) != len(own):
        raise ValueError(_("names lists {n_wanted} seats for {n_own} players",
                           n_wanted=len(wanted), n_own=len(own)))
    owner_key = name_key(owner)
    seats = list(zip(own, wanted, strict=True))
    for i, (mine, name) in enumerate(seats):
        if name is not None and not mine:
            raise ValueError(_("seat {value} is not yours: only your own seats take a name (a "
                               "bot or a person who joins brings their own)", value=i + 1))
    owner_seat = next((i for i, (mine, name) in enumerate(seats)
                       if mine and name is not None and name_key(name) == owner_key), None)
    if owner_seat is None:
        owner_seat = next((i for i, (mine, name) in enumerate(seats)
                           if mine and name is None), None)
    out: list[str | None] = [None] * len(own)
    taken: dict[str, str] = {}  # key -> name, of every name given out so far
    if owner_seat is not None:
        out[owner_seat] = owner
        taken[owner_key] = owner
    for i, (mine, name) in enumerate(seats):
        if not mine or name is None or i == owner_seat:
            continue
        checked = check_name(name)
        key = name_key(checked)
        if key in taken:
            raise LookupError(_("two seats cannot both be called “{value}”: give each player "
                                "their own name", value=taken[key]))
        if registered(key):
            raise LookupError(_("“{checked}” is a registered player's name: choose another for "
                                "this seat", checked=checked))
        taken[key] = checked
        out[i] = checked
    spare = len(own)
    for i, (mine, _name) in enumerate(seats):
        if mine and out[i] is None:
            label = f"Player {i + 1}"  # stored in English, shown in each language
            while name_key(label) in taken:
                spare += 1
                label = f"Player {spare}"
            taken[name_key(label)] = label
            out[i] = label
    return out
