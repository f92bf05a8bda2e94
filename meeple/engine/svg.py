"""The SVG toolkit every game's pictures are drawn with: the document, escaped text, shapes,
player marks and the shared results table, all in the one palette of :mod:`.look`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from .look import HIGHLIGHT, INK, MUTED, PAPER, Colour, seat_name
from .scores import ScoreLine, columns, fmt, ordered

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
STYLE = (
    "<style>"
    ".current{stroke:" + HIGHLIGHT + ";stroke-width:3}"
    ".last-move{stroke:" + HIGHLIGHT + ";stroke-width:2.5;stroke-dasharray:4 2}"
    "</style>"
)
"""The classes every game uses for the current player and the last move."""


def esc(value: object) -> str:
    """Text made safe for SVG element content and attribute values."""
    return escape(str(value), quote=True)


def attrs(**values: object) -> str:
    """``key="value"`` pairs, escaped; ``None`` and ``False`` are left out; ``_`` becomes ``-``
    and a trailing ``_`` is dropped (``class_`` -> ``class``)."""
    out = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        out.append(f' {name}="{esc(value)}"')
    return "".join(out)


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


def player_label(seat: int, colours: Sequence[Colour], names: Sequence[str] | None,
                 x: float, y: float, *, size: float = 13, viewer: int | None = None,
                 current: bool = False) -> str:
    """A player's mark and name on one line (``(you)`` for the viewer); ``current`` marks the
    player to act with the shared highlight ring around the mark and a bold name."""
    name = seat_name(seat, names) + (" (you)" if seat == viewer else "")
    cx, cy, r = x + size * 0.5, y - size * 0.35, size * 0.5
    ring = [circle(cx, cy, r + 2.5, class_="current")] if current else []
    return group(
        [*ring, player_mark(colours[seat], cx, cy, r),
         text(x + size * 1.3, y, name, size=size, weight="bold" if current else None)],
        class_="player to-act" if current else "player", data_seat=seat,
    )


def status(x: float, y: float, content: object, *, size: float = 14) -> str:
    """The line saying what happens now."""
    return text(x, y, content, size=size, weight="bold", class_="status")


def score_table(lines: Sequence[ScoreLine], colours: Sequence[Colour],
                names: Sequence[str] | None, x: float, y: float,
                ranks: Sequence[int] | None = None) -> tuple[str, float, float]:
    """The final breakdown as a table (a row per player, best rank first where ``ranks`` are
    given, each total once, the tie-break notes below it): the SVG, its width and its height."""
    if not lines:
        return "", 0.0, 0.0
    lines = ordered(lines, ranks)
    labels = columns(lines)
    name_w = max(80, 8 * max(len(seat_name(ln.player, names)) for ln in lines) + 24)
    col_w = [max(44, 7 * len(label) + 12) for label in labels]
    total_w = 52
    row_h = 20
    out = [text(x, y + 14, "Player", size=12, weight="bold", fill=MUTED)]
    cx = x + name_w
    for label, w in zip(labels, col_w, strict=True):
        out.append(text(cx + w - 6, y + 14, label, size=12, anchor="end", fill=MUTED))
        cx += w
    out.append(text(cx + total_w - 6, y + 14, "Total", size=12, anchor="end", weight="bold"))
    for i, line in enumerate(lines):
        ry = y + row_h * (i + 1) + 14
        parts = dict(line.parts)
        out.append(player_label(line.player, colours, names, x, ry, size=12))
        cx = x + name_w
        for label, w in zip(labels, col_w, strict=True):
            if label in parts:
                out.append(text(cx + w - 6, ry, fmt(parts[label]), size=12, anchor="end"))
            cx += w
        out.append(text(cx + total_w - 6, ry, fmt(line.total), size=12, anchor="end",
                        weight="bold"))
    width = name_w + sum(col_w) + total_w
    height = row_h * (len(lines) + 1) + 8
    for line in lines:
        if line.note:
            note = f"{seat_name(line.player, names)}: {line.note}"
            out.append(text(x, y + height + 8, note, size=12, fill=MUTED, class_="score-note"))
            width = max(width, 7 * len(note))
            height += 18
    return group(out, class_="score-table"), float(width), float(height)
