"""Sample positions of every game and the gallery of their pictures.

For each game and configuration (``Game.configurations()``) the greedy bots play one game from a
fixed seed with the engine's play loop (``meeple.play_out``); the start, the middle and the end
of that game are the sample positions. Each is drawn by the game's own renderer from a player's
view and from the public view. The lobby shows one of them per game
(:func:`lobby_picture`); ``meeple gallery`` writes them all as SVG and PNG
(:func:`write_gallery`), and ``docs/gallery.md`` shows them (:func:`write_docs`).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import meeple
from meeple.bots import GreedyBot, view_for
from meeple.engine import CHANCE, Game, State, game_class
from meeple.engine.core import Policy

SEED = 2026
"""The seed of every sample game: the same positions on every machine and every run."""
STAGES = ("start", "middle", "end")
"""The sample positions of one game, in the order they are played."""
NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay")
"""The players' names in the sample pictures."""
PNG_WIDTH = 960
"""The width of the PNG pictures, in pixels."""


@dataclass(frozen=True)
class Picture:
    """One sample position drawn from one view: ``viewer`` is a seat, or ``None`` for the
    public view a spectator gets."""

    game: str
    players: int
    options: dict[str, Any]
    stage: str
    viewer: int | None
    svg: str

    @property
    def slug(self) -> str:
        """The file name (without suffix): game, players, options, stage and view."""
        view = "public" if self.viewer is None else f"seat{self.viewer + 1}"
        return "-".join((configuration_slug(self.game, self.players, self.options),
                         self.stage, view))

    @property
    def caption(self) -> str:
        """The picture's caption in plain words."""
        view = ("as a spectator sees it" if self.viewer is None
                else f"as {NAMES[self.viewer]} sees it")
        return f"{self.stage.capitalize()} of the game, {view}"


def configuration_slug(name: str, players: int, options: dict[str, Any]) -> str:
    """A file-name-safe label of one configuration, e.g. ``kontor-3p-mode-expansion``."""
    parts = [name, f"{players}p"]
    for key, value in sorted(options.items()):
        parts += [key, str(value).lower()]
    return re.sub(r"[^a-z0-9_.]+", "-", "-".join(parts).lower()).strip("-")


def configuration_title(cls: type[Game], players: int, options: dict[str, Any]) -> str:
    """One configuration in words: ``3 players; random size: on``."""
    words = [f"{players} players"]
    for key, value in sorted(options.items()):
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        words.append(f"{key.replace('_', ' ')}: {shown}")
    return "; ".join(words)


def greedy_policy(game: Game, seed: int) -> Policy:
    """A play-loop policy where every seat is a greedy bot with its own seeded generator."""
    bots = [GreedyBot(game, seed=seed * 31 + seat) for seat in range(game.num_players)]

    def policy(state: State, player: int, rng: random.Random) -> int:
        return bots[player].act(view_for(state, player))

    return policy


def sample_positions(name: str, players: int, options: dict[str, Any] | None = None,
                     seed: int = SEED) -> dict[str, State]:
    """The start, middle and end of one greedy game of this configuration (``STAGES``).

    The start is the first position where a player chooses (the set-up dealt), the middle is
    the first such position from half-way through the game, the end is the final position.
    """
    game = meeple.load(name, players=players, **(options or {}))
    end = meeple.play_out(game.new_initial_state(), random.Random(seed),
                          policy=greedy_policy(game, seed))
    history = end.history()
    wanted = {"start": 0, "middle": len(history) // 2}
    found: dict[str, State] = {}
    state = game.new_initial_state()
    for i, (player, action) in enumerate([*history, (None, None)]):
        for stage, first in wanted.items():
            if stage not in found and i >= first and state.current_player != CHANCE:
                found[stage] = state.clone()
        if len(found) == len(wanted) or action is None:
            break
        state.apply(action, player)
    found["end"] = end
    return {stage: found.get(stage, end) for stage in STAGES}


def draw(state: State, viewer: int | None) -> str:
    """The game's own picture of ``state`` as ``viewer`` sees it, with the sample names."""
    names = list(NAMES[: state.game.num_players])
    return state.game.renderer.svg(state.observation(viewer), names)


def pictures(name: str, seed: int = SEED) -> list[Picture]:
    """Every sample picture of a game: each configuration, each stage, seen by the first
    player and by a spectator."""
    out: list[Picture] = []
    for players, options in game_class(name).configurations():
        positions = sample_positions(name, players, options, seed)
        for stage in STAGES:
            for viewer in (0, None):
                out.append(Picture(name, players, dict(options), stage, viewer,
                                   draw(positions[stage], viewer)))
    return out


def lobby_picture(name: str, seed: int = SEED) -> str:
    """The picture of a game in the lobby: the board in the middle of a sample game of its
    first configuration, in the public view."""
    players, options = game_class(name).configurations()[0]
    return board_view(draw(sample_positions(name, players, options, seed)["middle"], None))


_ROOT = re.compile(r"<svg\b[^>]*>")
_BOARD = re.compile(r'data-region="board"\s+data-box="([-\d. ]+)"')


def board_view(svg: str) -> str:
    """The picture framed on its board region (``svg.region("board", ...)``), where it has
    one: the panels, the head and the chart are left out of view."""
    root, board = _ROOT.match(svg), _BOARD.search(svg)
    if root is None or board is None:
        return svg
    box = board.group(1).split()
    if len(box) != 4:
        return svg
    head = re.sub(r'viewBox="[^"]*"', f'viewBox="{" ".join(box)}"', root.group(0), count=1)
    head = re.sub(r'(?<=\s)width="[^"]*"', f'width="{box[2]}"', head, count=1)
    head = re.sub(r'(?<=\s)height="[^"]*"', f'height="{box[3]}"', head, count=1)
    return head + svg[root.end():]


def png(svg: str, width: int = PNG_WIDTH) -> bytes:
    """An SVG picture as PNG, ``width`` pixels wide (cairosvg, no browser needed)."""
    import cairosvg  # type: ignore[import-untyped]

    data: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
    return data


def game_names(which: str) -> list[str]:
    """The games meant by ``which``: one game's name, or ``all``."""
    if which == "all":
        return list(meeple.games())
    game_class(which)  # an unknown name raises OptionError naming the known games
    return [which]


def write_gallery(which: str, out_dir: Path, with_png: bool = True,
                  seed: int = SEED) -> list[Picture]:
    """Write the sample pictures of one game (or ``all``) into ``out_dir`` as
    ``<slug>.svg`` (and ``<slug>.png``); returns the pictures written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Picture] = []
    for name in game_names(which):
        for pic in pictures(name, seed):
            (out_dir / f"{pic.slug}.svg").write_text(pic.svg, encoding="utf-8")
            if with_png:
                (out_dir / f"{pic.slug}.png").write_bytes(png(pic.svg))
            written.append(pic)
    return written


def gallery_markdown(pics: Sequence[Picture], folder: str) -> str:
    """The gallery page: per game and configuration, the pictures of the start, middle and
    end, for a player and for a spectator; ``folder`` is where the pictures are, relative
    to the page."""
    lines = [
        "# Gallery",
        "",
        "Every game as its players see it: for each game and set-up, the start, the middle and",
        "the end of one game played by the greedy bots from a fixed seed, drawn by the game's",
        "own pictures, once as the first player (Ada) sees it and once as a spectator sees it.",
        "",
        "The page and its pictures are made by",
        "`meeple gallery all -o docs/gallery --no-png --docs docs/gallery.md`; without `--no-png`",
        "the command also writes each picture as PNG (drawn from the SVG by cairosvg).",
        "",
    ]
    by_game: dict[str, list[Picture]] = {}
    for pic in pics:
        by_game.setdefault(pic.game, []).append(pic)
    for name, group in by_game.items():
        cls = game_class(name)
        lines += [f"## {cls.title}", ""]
        if cls.pitch:
            lines += [f"{cls.pitch}.", ""]
        configs: dict[str, list[Picture]] = {}
        for pic in group:
            configs.setdefault(configuration_slug(name, pic.players, pic.options), []).append(pic)
        for config in configs.values():
            first = config[0]
            lines += [f"### {configuration_title(cls, first.players, first.options)}", ""]
            lines += ["| | " + " | ".join(s.capitalize() for s in STAGES) + " |",
                      "|---|" + "---|" * len(STAGES)]
            for viewer in (0, None):
                who = "Spectator" if viewer is None else NAMES[viewer]
                cells = []
                for stage in STAGES:
                    pic = next(p for p in config if p.stage == stage and p.viewer == viewer)
                    cells.append(f"![{pic.caption}]({folder}/{pic.slug}.svg)")
                lines.append(f"| {who} | " + " | ".join(cells) + " |")
            lines.append("")
    return "\n".join(lines)


def write_docs(pics: Sequence[Picture], page: Path, out_dir: Path) -> Path:
    """Write the gallery page ``page`` showing the pictures written into ``out_dir``."""
    folder = Path(os.path.relpath(out_dir.resolve(), page.resolve().parent))
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(gallery_markdown(pics, folder.as_posix()), encoding="utf-8")
    return page
