"""The drawings of Mops Royal's pieces: the six objects (pillow, bone, bowl, can, poop and pug),
the bonus crown, a tile's face and a tile's back, all drawn in code.

Each object is drawn once, in a 40 x 40 box, into the picture's ``<defs>`` (:func:`defs`); a
tile reuses it with ``<use>``, coloured through ``color`` (the drawings fill with
``currentColor``), so a picture of a hundred tiles stays small and quick to make.
"""

from __future__ import annotations

from meeple.engine import svg as draw
from meeple.engine.look import INK, Colour

FILL = {
    "blue": "#2f6fd6",
    "green": "#2e9b48",
    "orange": "#ee8420",
    "pink": "#ef79b3",
    "purple": "#8b4fc4",
    "yellow": "#f1d02e",
}
"""The tiles' own colours: the colour an object is drawn in."""
TINT = {
    "blue": "#dce8fb",
    "green": "#dcf2e0",
    "orange": "#fde7d1",
    "pink": "#fde1ef",
    "purple": "#ebdff7",
    "yellow": "#fbf3c4",
}
"""The light face of a tile of each colour, behind its object."""
EDGE = {
    "blue": "#1d4e9e",
    "green": "#1c6b30",
    "orange": "#b05a0c",
    "pink": "#b84a80",
    "purple": "#5e2f8c",
    "yellow": "#a88a07",
}
"""The rim of a tile of each colour."""
LINE = "#2b2620"
"""The outline of every drawing."""
GOLD = "#f4c20d"
"""The crowns."""
BOX = 40
"""The side of the box every object is drawn in."""


def _outlined(shapes: str, width: float = 2.4) -> str:
    """``shapes`` (filled with ``currentColor``) with one clean outline around their union:
    drawn once thick in the outline colour, then once again on top without an outline."""
    return (f'<g stroke="{LINE}" stroke-width="{width * 2:g}" stroke-linejoin="round">'
            f"{shapes}</g>{shapes}")


def _pillow() -> str:
    cushion = ('<path d="M5,9 Q20,3 35,9 Q39,20 35,31 Q20,37 5,31 Q1,20 5,9 z" '
               'fill="currentColor"/>')
    return (
        _outlined(cushion)
        # the pinched corners, the seam and the button
        + "".join(f'<circle cx="{x}" cy="{y}" r="2.6" fill="currentColor" stroke="{LINE}" '
                  'stroke-width="1.6"/>' for x, y in ((4, 8), (36, 8), (4, 32), (36, 32)))
        + f'<path d="M9,12 Q20,9 31,12 Q33.5,20 31,28 Q20,31 9,28 Q6.5,20 9,12 z" '
          f'fill="none" stroke="{LINE}" stroke-width="1" stroke-dasharray="2 2" opacity=".55"/>'
        + f'<circle cx="20" cy="20" r="2.4" fill="{LINE}" opacity=".7"/>'
        + '<path d="M10,14 Q14,11 19,11" fill="none" stroke="#fff" stroke-width="2" '
          'stroke-linecap="round" opacity=".6"/>'
    )


def _bone() -> str:
    bone = ('<g fill="currentColor" transform="rotate(-30 20 20)">'
            '<rect x="9" y="16" width="22" height="8" rx="2"/>'
            '<circle cx="9" cy="15.5" r="5.2"/><circle cx="9" cy="24.5" r="5.2"/>'
            '<circle cx="31" cy="15.5" r="5.2"/><circle cx="31" cy="24.5" r="5.2"/></g>')
    return _outlined(bone) + (
        '<path d="M12,24 L25,16.5" stroke="#fff" stroke-width="2" stroke-linecap="round" '
        'opacity=".55"/>'
    )


def _bowl() -> str:
    body = ('<path d="M3,19 L8,33 Q20,37 32,33 L37,19 z" fill="currentColor"/>'
            '<ellipse cx="20" cy="19" rx="17" ry="5.5" fill="currentColor"/>')
    return _outlined(body) + (
        # the food heaped in the bowl and a bone on its side
        f'<ellipse cx="20" cy="19" rx="12.5" ry="3.4" fill="#7a4a22" stroke="{LINE}" '
        'stroke-width="1"/>'
        '<circle cx="14" cy="17.2" r="2.2" fill="#a86a35"/>'
        '<circle cx="19.5" cy="16.2" r="2.4" fill="#a86a35"/>'
        '<circle cx="25" cy="17.2" r="2.2" fill="#a86a35"/>'
        '<g fill="#fff" opacity=".85"><rect x="16" y="27" width="8" height="2.6" rx="1"/>'
        '<circle cx="16" cy="26.9" r="1.7"/><circle cx="16" cy="29.7" r="1.7"/>'
        '<circle cx="24" cy="26.9" r="1.7"/><circle cx="24" cy="29.7" r="1.7"/></g>'
    )


def _can() -> str:
    tin = ('<path d="M9,8 L9,32 A11,4 0 0 0 31,32 L31,8 z" fill="currentColor"/>'
           '<ellipse cx="20" cy="8" rx="11" ry="4" fill="currentColor"/>')
    return _outlined(tin) + (
        # the lid with its ring pull, and a paw print on the label
        f'<ellipse cx="20" cy="8" rx="8.5" ry="2.6" fill="#d9d9d9" stroke="{LINE}" '
        'stroke-width="1"/>'
        f'<ellipse cx="23" cy="8" rx="3" ry="1.2" fill="none" stroke="{LINE}" '
        'stroke-width="1"/>'
        f'<path d="M9,14 A11,4 0 0 0 31,14 M9,27 A11,4 0 0 0 31,27" fill="none" '
        f'stroke="{LINE}" stroke-width="1.2"/>'
        '<g fill="#fff"><ellipse cx="20" cy="22.8" rx="3.4" ry="2.6"/>'
        '<circle cx="15.8" cy="19.6" r="1.4"/><circle cx="18.6" cy="17.8" r="1.4"/>'
        '<circle cx="21.6" cy="17.8" r="1.4"/><circle cx="24.3" cy="19.6" r="1.4"/></g>'
    )


def _poop() -> str:
    pile = ('<g fill="currentColor"><ellipse cx="20" cy="31" rx="16" ry="5.5"/>'
            '<ellipse cx="20" cy="23.5" rx="12" ry="5"/>'
            '<ellipse cx="20" cy="16.5" rx="8" ry="4.5"/>'
            '<path d="M15,14 Q21,11 22,4 Q27,10 25,15 z"/></g>')
    return _outlined(pile) + (
        f'<path d="M8,27.5 Q20,31 32,27.5 M11,20 Q20,23 29,20 M14,13.5 Q20,16 26,13.5" '
        f'fill="none" stroke="{LINE}" stroke-width="1.2" stroke-linecap="round"/>'
        '<path d="M12,30 Q15,32 19,32" fill="none" stroke="#fff" stroke-width="1.8" '
        'stroke-linecap="round" opacity=".55"/>'
    )


def _pug() -> str:
    head = ('<ellipse cx="20" cy="23" rx="14" ry="12.5" fill="currentColor"/>'
            '<path d="M6,14 Q4,21 9,23 Q12,16 12,12 z" fill="currentColor"/>'
            '<path d="M34,14 Q36,21 31,23 Q28,16 28,12 z" fill="currentColor"/>')
    return _outlined(head, 2.2) + (
        # the folded ears and the dark muzzle of a pug, its big eyes, and the little crown it
        # always wears (the decoration the rules speak of, not the bonus crown)
        f'<path d="M6.5,14 Q4.5,20.5 9,22.5 Q11.5,16.5 11.5,12.5 z" fill="{LINE}"/>'
        f'<path d="M33.5,14 Q35.5,20.5 31,22.5 Q28.5,16.5 28.5,12.5 z" fill="{LINE}"/>'
        f'<ellipse cx="20" cy="28" rx="8" ry="6" fill="{LINE}" opacity=".88"/>'
        '<circle cx="13.5" cy="21" r="3.6" fill="#fff"/><circle cx="26.5" cy="21" r="3.6" '
        'fill="#fff"/>'
        f'<circle cx="14" cy="21.4" r="2.2" fill="{LINE}"/><circle cx="26" cy="21.4" r="2.2" '
        f'fill="{LINE}"/>'
        f'<ellipse cx="20" cy="25.5" rx="3" ry="2" fill="{LINE}"/>'
        '<path d="M18,31 Q20,33 22,31" fill="none" stroke="#e86a8a" stroke-width="1.5"/>'
        f'<path d="M16,15.5 Q20,13.5 24,15.5" fill="none" stroke="{LINE}" stroke-width="1"/>'
        f'<path d="M14.5,9.5 L14.5,4 L17.3,7 L20,2.5 L22.7,7 L25.5,4 L25.5,9.5 z" fill="{GOLD}" '
        f'stroke="{LINE}" stroke-width="1" stroke-linejoin="round"/>'
    )


DRAWINGS = {
    "pillow": _pillow(),
    "bone": _bone(),
    "bowl": _bowl(),
    "can": _can(),
    "poop": _poop(),
    "pug": _pug(),
}
"""Each object drawn in the 40 x 40 box, filled with ``currentColor``."""
CROWN = (
    f'<circle cx="20" cy="20" r="19" fill="#fffbe6" stroke="{LINE}" stroke-width="2"/>'
    f'<path d="M7,29 L5,11 L13.5,19 L20,7 L26.5,19 L35,11 L33,29 z" fill="{GOLD}" '
    f'stroke="{LINE}" stroke-width="2.2" stroke-linejoin="round"/>'
    '<circle cx="5" cy="11" r="2.4" fill="#e0463a"/><circle cx="20" cy="7" r="2.6" '
    'fill="#e0463a"/><circle cx="35" cy="11" r="2.4" fill="#e0463a"/>'
    f'<rect x="8" y="26" width="24" height="4" fill="#d9a400" stroke="{LINE}" '
    'stroke-width="1.2"/>'
)
"""The bonus crown badge, in the 40 x 40 box."""


def defs() -> str:
    """The drawings every picture holds once: ``#mr-<object>`` and ``#mr-crown``."""
    body = "".join(f'<g id="mr-{name}">{shapes}</g>' for name, shapes in DRAWINGS.items())
    return f'<defs>{body}<g id="mr-crown">{CROWN}</g></defs>'


def use(name: str, x: float, y: float, size: float, colour: str | None = None) -> str:
    """The drawing ``#mr-<name>`` fitted into the square ``size`` wide at ``(x, y)``."""
    k = size / BOX
    tint = f' color="{colour}"' if colour else ""
    return (f'<use href="#mr-{name}" transform="translate({x:.1f},{y:.1f}) scale({k:.3f})"'
            f"{tint}/>")


def tile_face(colour: str, obj: str, x: float, y: float, size: float, crown: bool) -> str:
    """A face-up tile: its object drawn in its colour on the tile's light face, and the bonus
    crown badge in the lower-left corner where the tile has one."""
    r = max(2.0, size * 0.12)
    pad = size * 0.1
    out = [
        draw.rect(x, y, size, size, fill=TINT[colour], rx=f"{r:.1f}", stroke=EDGE[colour],
                  stroke_width=f"{max(1.0, size * 0.05):.1f}"),
        use(obj, x + pad, y + pad, size - 2 * pad, FILL[colour]),
    ]
    if crown:
        c = size * 0.4
        out.append(use("crown", x - size * 0.04, y + size - c + size * 0.04, c))
    return "".join(out)


def tile_back(colour: Colour, x: float, y: float, size: float, covers: int = 0) -> str:
    """A face-down tile: the back of its owner's set, in his colour with his symbol (and the
    number of rejected tiles stacked on it, in the variant)."""
    r = max(2.0, size * 0.12)
    inset = size * 0.12
    sym = max(14.0, size * 0.42)
    out = [
        draw.rect(x, y, size, size, fill=colour.fill, rx=f"{r:.1f}", stroke=colour.fill,
                  stroke_width="1"),
        draw.rect(x + inset, y + inset, size - 2 * inset, size - 2 * inset, fill="none",
                  rx=f"{r * 0.6:.1f}", stroke=colour.ink, stroke_width="1.2",
                  stroke_opacity=".55"),
        draw.text(x + size / 2, y + size / 2 + sym * 0.36, colour.symbol, size=round(sym, 1),
                  anchor="middle", fill=colour.ink),
    ]
    if covers and size >= 40:
        out.append(draw.rect(x + size * 0.45, y + size * 0.58, size * 0.55, size * 0.42,
                             fill=INK, rx="3"))
        out.append(draw.text(x + size * 0.725, y + size * 0.93, f"+{covers}",
                             size=round(max(14.0, size * 0.3), 1), anchor="middle",
                             weight="bold", fill="#ffffff"))
    elif covers:  # too small for a number: the edges of the tiles stacked under it
        out.insert(0, draw.rect(x + 2.5, y + 2.5, size, size, fill=INK, rx=f"{r:.1f}",
                                stroke=colour.fill, stroke_width="1"))
    return "".join(out)
