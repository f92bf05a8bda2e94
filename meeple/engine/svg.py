"""The toolkit every game's pictures are drawn with: the SVG document, escaped text, shapes,
the header, player marks, labels and score lines, and the few pieces of rich markup the terminal
pictures share, all in the one palette of :mod:`.look`.

A picture draws the board and the players, never the results table: each client draws that
once from the observation's ``final_breakdown``. The words here ("Game over", "(you)", points)
are said in the language in use, when the picture is drawn."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence
from functools import lru_cache
from html import escape

from rich.markup import escape as rich_escape

from . import words as _words
from .i18n import memo, words
from .look import HIGHLIGHT, INK, MUTED, PAPER, Colour, seat_name
from .scores import Number, fmt

_, _n = words(__file__)

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
STYLE = (
    "<style>"
    ".current{stroke:" + HIGHLIGHT + ";stroke-width:3}"
    ".last-move{stroke:" + HIGHLIGHT + ";stroke-width:2.5;stroke-dasharray:4 2}"
    "</style>"
)
"""The classes every game uses for the current player and the last move."""


_UNSAFE = re.compile(r"[&<>\"']")


def esc(value: object) -> str:
    """Text made safe for SVG element content and attribute values."""
    text = value if isinstance(value, str) else str(value)
    return escape(text, quote=True) if _UNSAFE.search(text) else text


@lru_cache(maxsize=512)
def _attr_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def attrs(**values: object) -> str:
    """``key="value"`` pairs, escaped; ``None`` and ``False`` are left out; ``_`` becomes ``-``
    and a trailing ``_`` is dropped (``class_`` -> ``class``)."""
    return "".join(f' {_attr_name(key)}="{esc(value)}"' for key, value in values.items()
                   if value is not None and value is not False)


def document(width: float, height: float, body: Iterable[str], *, cls: str,
             background: str | None = PAPER, label: str | None = None) -> str:
    """A whole SVG picture ``width`` x ``height`` with the shared font, styles and
    background; ``label`` is its accessible name."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}" height="{height:g}"{attrs(class_=cls, role="img", aria_label=label)} '
        f'font-family="{FONT}">'
    )
    bg = f'<rect width="100%" height="100%" fill="{background}"/>' if background else ""
    return head + STYLE + bg + "".join(body) + "</svg>"


def icon(body: Iterable[str], size: float = 32, *, background: str | None = None) -> str:
    """A small picture ``size`` square of one symbol of a board, for the board's legend (its
    meaning is said beside it, so the picture itself is hidden from screen readers)."""
    bg = f'<rect width="100%" height="100%" rx="4" fill="{background}"/>' if background else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size:g} {size:g}" '
            f'width="{size:g}" height="{size:g}" aria-hidden="true" font-family="{FONT}">'
            + bg + "".join(body) + "</svg>")


def text(x: float, y: float, content: object, *, size: float = 12, anchor: str = "start",
         weight: str | None = None, fill: str = INK, **extra: object) -> str:
    """One line of escaped text."""
    a = attrs(x=f"{x:g}", y=f"{y:g}", font_size=f"{size:g}",
              text_anchor=None if anchor == "start" else anchor, font_weight=weight, fill=fill,
              **extra)
    return f"<text{a}>{esc(content)}</text>"


def rect(x: float, y: float, w: float, h: float, *, fill: str = "none", **extra: object) -> str:
    a = attrs(x=f"{x:g}", y=f"{y:g}", width=f"{w:g}", height=f"{h:g}", fill=fill, **extra)
    return f"<rect{a}/>"


def circle(cx: float, cy: float, r: float, *, fill: str = "none", **extra: object) -> str:
    return f'<circle{attrs(cx=f"{cx:g}", cy=f"{cy:g}", r=f"{r:g}", fill=fill, **extra)}/>'


def path(d: str, *, fill: str = "none", **extra: object) -> str:
    return f"<path{attrs(d=d, fill=fill, **extra)}/>"


def group(body: Iterable[str], **extra: object) -> str:
    return f"<g{attrs(**extra)}>{''.join(body)}</g>"


def region(name: str, x: float, y: float, w: float, h: float, body: Iterable[str]) -> str:
    """A top-level section of a picture (the board, a player's panel, the chart) with its box
    ``x y w h`` in the picture's own coordinates: the picture stays one complete column, and a
    client with a wide screen may show each region in its own frame beside the board."""
    box = " ".join(f"{round(v, 1):g}" for v in (x, y, w, h))
    return f'<g{attrs(class_="region", data_region=name, data_box=box)}>{"".join(body)}</g>'


def title(content: object) -> str:
    """A tooltip (and accessible name) for the enclosing element."""
    return f"<title>{esc(content)}</title>"


def player_mark(colour: Colour, cx: float, cy: float, r: float = 7, **extra: object) -> str:
    """A player's token: a disc in their colour with their symbol on it."""
    return group(
        [circle(cx, cy, r, fill=colour.fill, stroke=INK, stroke_width="0.8"),
         text(cx, cy + r * 0.42, colour.symbol, size=r * 1.15, anchor="middle", fill=colour.ink)],
        class_="player-mark", **extra,
    )


def player_name(seat: int, names: Sequence[str] | None, viewer: int | None = None) -> str:
    """A player's display name, with ``(you)`` when they are the viewer."""
    name = seat_name(seat, names)
    if seat == viewer:
        # TRANSLATORS: the viewer's own name in a picture: "Ann (you)"
        return _("{name} (you)", name=name)
    return name


def count(n: Number, word: str) -> str:
    """``n`` and the word, plural where ``n`` is not 1: "1 open end", "3 tiles". English only:
    a game says its own counts with ``_n("{n} tile", "{n} tiles", n)``."""
    return f"{fmt(n)} {word}" + ("" if n == 1 else "s")


def points(value: Number) -> str:
    """A number of points in words, in the language in use: "1 point", "12 points"."""
    if isinstance(value, float) and not value.is_integer():
        return _("{points} points", points=fmt(value))
    return _n("{n} point", "{n} points", int(value))


def and_list(words: Sequence[str]) -> str:
    """Words joined as people list them, in the language in use: "A", "A and B",
    "A, B and C"."""
    return _words.and_list(list(words))


def game_over(winners: Sequence[int] | None, names: Sequence[str] | None) -> str:
    """The status line of a finished game: who won, by name."""
    won = [seat_name(p, names) for p in winners or []]
    if len(won) == 1:
        return _("Game over: {player} wins", player=won[0])
    if won:
        return _("Game over: {players} share the win", players=and_list(won))
    return _("Game over")


def player_label(seat: int, colours: Sequence[Colour], names: Sequence[str] | None,
                 x: float, y: float, *, size: float = 13, viewer: int | None = None,
                 current: bool = False, room: float | None = None) -> str:
    """A player's mark and name on one line (``(you)`` for the viewer); ``current`` marks the
    player to act with the shared highlight ring around the mark and a bold name. ``room`` is
    the width from ``x`` the label may take: a longer name is shortened to fit it (see
    :func:`fit`), the whole name then its tooltip."""
    name = player_name(seat, names, viewer)
    shown = name
    if room is not None:
        shown = fit_name(seat, names, viewer, room - size * 1.3, size, bold=True)
    cx, cy, r = x + size * 0.5, y - size * 0.35, size * 0.5
    ring = [circle(cx, cy, r + 2.5, class_="current")] if current else []
    tip = [title(name)] if shown != name else []
    return group(
        [*tip, *ring, player_mark(colours[seat], cx, cy, r),
         text(x + size * 1.3, y, shown, size=size, weight="bold" if current else None)],
        class_="player to-act" if current else "player", data_seat=seat,
    )


def label_width(seat: int, names: Sequence[str] | None, viewer: int | None = None, *,
                size: float = 13) -> float:
    """The width :func:`player_label` takes for the whole name (mark included)."""
    return size * 1.3 + text_width(player_name(seat, names, viewer), size, bold=True)


def player_line(seat: int, colours: Sequence[Colour], names: Sequence[str] | None,
                x: float, y: float, width: float, score: Number | None, *,
                size: float = 13, viewer: int | None = None, current: bool = False,
                info: str = "") -> str:
    """A player's panel line: their label, and at the right end (``width`` from ``x``) their
    points beside ``info`` (what they are doing, in words), where there are any; the name is
    shortened where it would otherwise reach them. A line drawn before (the same player,
    points and place) is taken from a cache."""
    return _player_line(seat, tuple(colours), None if names is None else tuple(names), x, y,
                        width, score, size, viewer, current, info)


@memo(maxsize=8192)
def _player_line(seat: int, colours: tuple[Colour, ...], names: tuple[str, ...] | None,
                 x: float, y: float, width: float, score: Number | None, size: float,
                 viewer: int | None, current: bool, info: str) -> str:
    right = " · ".join([*([info] if info else []), *([points(score)] if score is not None
                                                     else [])])
    room = width - (text_width(right, size) + size * 0.6 if right else 0)
    out = [player_label(seat, colours, names, x, y, size=size, viewer=viewer, current=current,
                        room=room)]
    if right:
        out.append(text(x + width, y, right, size=size, anchor="end", class_="score"))
    return group(out, class_="player-line", data_seat=seat)


def status(x: float, y: float, content: object, *, size: float = 14) -> str:
    """The line saying what happens now."""
    return text(x, y, content, size=size, weight="bold", class_="status")


def header(x: float, y: float, name: str, content: object, detail: str = "") -> \
        tuple[str, float]:
    """The head of a picture: the game's name (with the round, say), a muted ``detail`` line
    where given, and the status line; the SVG and the height it takes."""
    out = [text(x, y + 16, name, size=17, weight="bold", class_="title")]
    dy = 16.0
    if detail:
        dy += 17
        out.append(text(x, y + dy, detail, size=12, fill=MUTED, class_="detail"))
    dy += 21
    out.append(status(x, y + dy, content))
    return group(out, class_="header"), dy + 8


# -- rich markup for the terminal pictures -----------------------------------------------------
def plain(words: object) -> str:
    """Words shown as they are inside rich markup (their brackets escaped)."""
    return rich_escape(str(words))


def who(seat: int, colours: Sequence[Colour], names: Sequence[str] | None,
        viewer: int | None = None, *, current: bool = False, width: int = 0) -> str:
    """A player as rich markup: their symbol on their colour, then their name (``(you)`` for
    the viewer, bold and followed by ``◀`` when they are the player to act), padded to
    ``width`` characters (:func:`who_width` of the players, to line them up)."""
    c = colours[seat]
    name = player_name(seat, names, viewer)
    pad = " " * max(0, width - len(name) - (2 if current else 0))
    shown = f"[bold]{plain(name)}[/bold] ◀" if current else plain(name)
    return f"[{c.ink} on {c.fill}] {c.symbol} [/] {shown}{pad}"


def who_width(players: int, names: Sequence[str] | None, viewer: int | None = None) -> int:
    """The width :func:`who` pads to so that the players' names line up, the marker included."""
    return max((len(player_name(p, names, viewer)) for p in range(players)), default=0) + 2


LETTER = 0.56
"""The width of an average letter of the shared font, as a share of its size."""
BOLD_LETTER = 0.64
"""The same for bold text."""

_NARROW = frozenset("iljI.,:;'|!·")
_THIN = frozenset("frt()[]- /\"")
_WIDE = frozenset("mwMW…—%@")
_CAPS = 0.72
_DIGIT = 0.64


def _letter(ch: str) -> float:
    """The width of one character as a share of the font size, taken on the wide side (the
    metrics of DejaVu Sans, the widest font of the shared list) so that an estimate that fits
    fits in every browser."""
    if ch in _NARROW:
        return 0.3
    if ch in _THIN:
        return 0.42
    if ch in _WIDE:
        return 1.0
    if ch.isdigit():
        return _DIGIT
    if ch.isupper():
        return _CAPS
    return 0.62


def text_width(words: object, size: float, *, bold: bool = False) -> float:
    """An estimate (on the wide side) of the width of ``words`` in the shared font at ``size``."""
    return _text_width(str(words), size, bold)


BOLD = 1.1
"""How much wider bold letters are than regular ones (in :func:`text_width`)."""


@lru_cache(maxsize=8192)
def _text_width(words: str, size: float, bold: bool) -> float:
    return sum(_letter(ch) for ch in words) * size * (BOLD if bold else 1.0)


def fit(words: str, width: float, size: float, *, bold: bool = False) -> str:
    """``words`` as they are where they fit ``width`` at font ``size``, else shortened to the
    longest start that fits followed by "…" (at least one letter)."""
    if text_width(words, size, bold=bold) <= width:
        return words
    room = width - text_width("…", size, bold=bold)
    scale = size * (BOLD if bold else 1.0)
    used, end = 0.0, 0
    for ch in words:
        used += _letter(ch) * scale
        if used > room:
            break
        end += 1
    return (words[:end].rstrip() or words[:1]) + "…"


def fit_name(seat: int, names: Sequence[str] | None, viewer: int | None, width: float,
             size: float, *, bold: bool = False) -> str:
    """A player's display name (:func:`player_name`) fitted to ``width``: where it is too long
    the name is shortened and ``(you)`` kept whole."""
    whole = player_name(seat, names, viewer)
    if text_width(whole, size, bold=bold) <= width or seat != viewer:
        return fit(whole, width, size, bold=bold)
    name = seat_name(seat, names)
    extra = text_width(whole, size, bold=bold) - text_width(name, size, bold=bold)
    short = fit(name, width - extra, size, bold=bold)
    return player_name(seat, [*(names or [seat_name(p) for p in range(seat)])[:seat], short],
                       viewer)


def wrap(words: str, width: float, size: float, *, bold: bool = False) -> list[str]:
    """``words`` broken into lines that fit ``width`` units at font ``size`` (none for blank
    words)."""
    letter = (BOLD_LETTER if bold else LETTER) * size
    return textwrap.wrap(words, max(8, int(width / letter)), break_on_hyphens=False)
