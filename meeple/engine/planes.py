"""Named planes of the observation tensors: what each part of a game's flat tensor means.

>>> import meeple
>>> state = meeple.load("koplus", players=2).new_initial_state()
>>> sorted(meeple.observation_planes(state, 0))[:3]
['aliens', 'board_complete', 'empty']
>>> layout(state.game)[0].name, layout(state.game)[0].shape
('aliens', (12, 12))

Each game describes its tensor with its ``Game.planes()`` hook (in ``views.py``): in order,
each part's
``name``, ``shape``, value range (``low``, ``high``) and ``meaning``. :func:`layout` adds each
part's slice of the flat tensor and checks that the parts cover it exactly;
:func:`observation_planes` cuts one tensor into named arrays (views of it, not copies);
:func:`bounds` gives the element-wise range the Gymnasium and PettingZoo spaces use. The flat
tensor itself is the game's ``observation_tensor(player)``, unchanged. ``docs/observations.md``
shows every game's layout (:func:`markdown` writes it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import Game, State


@dataclass(frozen=True)
class Plane:
    """One named part of an observation tensor: where it lies in the flat tensor, its shape,
    its value range and what it means."""

    name: str
    start: int
    stop: int
    shape: tuple[int, ...]
    low: np.ndarray
    high: np.ndarray
    meaning: str

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)


_LAYOUTS: dict[Game, list[Plane]] = {}


def layout(game: Game) -> list[Plane]:
    """The planes of ``game``'s observation tensor, in order, covering it exactly."""
    cached = _LAYOUTS.get(game)
    if cached is not None:
        return cached
    out: list[Plane] = []
    start = 0
    for part in game.planes():
        shape = tuple(int(d) for d in part["shape"])
        size = int(np.prod(shape))
        low = np.broadcast_to(np.asarray(part["low"], dtype=np.float32), shape)
        high = np.broadcast_to(np.asarray(part["high"], dtype=np.float32), shape)
        if np.any(low > high):
            raise ValueError(f"{game.name}: plane {part['name']!r} has low above high")
        out.append(Plane(part["name"], start, start + size, shape, low, high, part["meaning"]))
        start += size
    total = int(np.prod(game.observation_shape))
    if start != total:
        raise ValueError(f"{game.name}: the planes cover {start} values of a tensor of {total}")
    names = [p.name for p in out]
    if len(set(names)) != len(names):
        raise ValueError(f"{game.name}: plane names repeat")
    _LAYOUTS[game] = out
    return out


def observation_planes(state: State, player: int) -> dict[str, np.ndarray]:
    """``player``'s observation tensor cut into its named planes (each shaped as described)."""
    flat = np.ravel(np.asarray(state.observation_tensor(player), dtype=np.float32))
    return {p.name: flat[p.slice].reshape(p.shape) for p in layout(state.game)}


def bounds(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """The element-wise ``(low, high)`` of the flat observation tensor, from the planes."""
    parts = layout(game)
    low = np.concatenate([p.low.reshape(-1) for p in parts]).astype(np.float32)
    high = np.concatenate([p.high.reshape(-1) for p in parts]).astype(np.float32)
    return low, high


def _range(p: Plane) -> str:
    lo, hi = float(p.low.min()), float(p.high.max())
    if np.all(p.low == lo) and np.all(p.high == hi):
        return f"{lo:g} to {hi:g}"
    return f"{lo:g} to {hi:g} (by entry)"


def markdown(game: Game) -> str:
    """The layout of ``game``'s tensor as a Markdown table (for ``docs/observations.md``)."""
    rows = ["| Plane | Slice | Shape | Range | Meaning |", "| --- | --- | --- | --- | --- |"]
    for p in layout(game):
        shape = " × ".join(map(str, p.shape))
        rows.append(f"| `{p.name}` | {p.start}:{p.stop} | {shape} | {_range(p)} | "
                    f"{p.meaning} |")
    return "\n".join(rows)


__all__ = ["Plane", "bounds", "layout", "markdown", "observation_planes"]
