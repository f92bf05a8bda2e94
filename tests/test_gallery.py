"""The games' pictures in the lobby and the gallery: sample positions, and pictures of random
positions of every configuration that are well-formed, of a sane size and free of internal
codes in their visible text."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple import gallery
from meeple.engine import CHANCE, game_class
from meeple.games.botanik import components as botanik_parts
from meeple.games.kontor import components as kontor_parts
from meeple.games.koplus import components as koplus_parts
from meeple.games.mops_royal import components as mops_parts

GAMES = ("botanik", "kontor", "koplus", "kozo", "mops_royal")
CONFIGURATIONS = [(name, players, options) for name in GAMES
                  for players, options in game_class(name).configurations()]
MAX_SIDE = 1600
"""The largest width or height of a picture's viewBox."""
MAX_BYTES = 300_000
"""The largest picture file."""
RANDOM_POSITIONS = 3
"""Random positions drawn per configuration, besides the end of the game."""
SVG_NS = "{http://www.w3.org/2000/svg}"

GENERIC = {
    "a seat number such as P0 or P1": r"\bP\d+\b",
    "an identifier with underscores": r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b",
    "a Python dict or list": r"[{}\[\]]",
    "a Python None, True or False": r"\b(?:None|True|False)\b",
    "an object address": r"\b0x[0-9a-f]{4,}\b",
}
"""What no picture shows: each pattern with what it would be."""


def _words(ids: set[str]) -> str:
    """A pattern matching any of ``ids`` as a whole token (not inside a longer word or id)."""
    alternatives = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return rf"(?<![\w-])(?:{alternatives})(?![\w-])"


def _botanik_ids() -> set[str]:
    ids = set()
    for name, table in botanik_parts.TILE_SETS.items():
        ids.update(botanik_parts.TileSet(name).ids)  # "R-ST1", "SRC0"
        ids.update(suffix for suffix, *_ in table)  # "ST3", "TE3", "CR", "PL"
    return ids


GAME_CODES: dict[str, dict[str, str]] = {
    "koplus": {
        "a section id such as S01": _words({s for sets in koplus_parts.SECTION_SETS.values()
                                            for s in sets}),
        "a tile code such as U0": _words({s for s in koplus_parts.SHAPE_NAMES
                                          if any(ch.isdigit() for ch in s)}),
    },
    "botanik": {"a tile code such as TE3, ST3, CR or PL": _words(_botanik_ids())},
    "kontor": {"a card id such as red-35": _words({n for n in kontor_parts.CARD_NAME
                                                   if any(ch.isdigit() for ch in n)})},
    "mops_royal": {
        "a tile code such as BC": _words(set(mops_parts.CODES)),
        "a tile id such as blue-pillow": _words(set(mops_parts.TILES)),
        "a shape id such as L4": _words(set(mops_parts.SHAPE_IDS)),
    },
    "kozo": {},
}
"""The ids each game's data uses that its pictures must not show (read from its components)."""


def visible_text(root: ET.Element) -> list[str]:
    """The texts a person sees: every ``text`` element, and ``title`` tooltips."""
    out = []
    for el in root.iter():
        if el.tag in (f"{SVG_NS}text", f"{SVG_NS}title"):
            text = " ".join("".join(el.itertext()).split())
            if text:
                out.append(text)
    return out


def problems(svg: str, name: str) -> list[str]:
    """What is wrong with one picture of ``name``, in words (empty when nothing is)."""
    found: list[str] = []
    if len(svg.encode("utf-8")) > MAX_BYTES:
        found.append(f"{len(svg.encode('utf-8'))} bytes, more than {MAX_BYTES}")
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as e:
        return found + [f"not well-formed XML: {e}"]
    if root.tag != f"{SVG_NS}svg":
        found.append(f"the root element is {root.tag}, not an SVG")
    box = root.get("viewBox", "").replace(",", " ").split()
    if len(box) != 4:
        found.append(f"no viewBox: {root.get('viewBox')!r}")
    else:
        w, h = float(box[2]), float(box[3])
        if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE):
            found.append(f"viewBox {w:g} x {h:g}, larger than {MAX_SIDE}")
    codes = {**GENERIC, **GAME_CODES[name]}
    ids = option_ids(name)
    if ids:
        codes["an option name"] = _words(ids)
    for text in visible_text(root):
        for what, pattern in codes.items():
            m = re.search(pattern, text)
            if m:
                found.append(f"{what}: {m.group(0)!r} in {text!r}")
    return found


def option_ids(name: str) -> set[str]:
    """The game's option names and choices that are identifiers, not words: a picture may
    say "mode" or "rounds" as plain words, never "random_size" or "placeholder_v1"."""
    found = set()
    for o in game_class(name).option_schema:
        found.add(o.name)
        found.update(str(c) for c in (o.choices or ()) if isinstance(c, str))
    return {i for i in found if not i.isalpha()}


def random_positions(name: str, players: int, options: dict[str, Any], seed: int) -> list:
    """A few positions of one random game: ``RANDOM_POSITIONS`` at random moves, and the end."""
    game = meeple.load(name, players=players, **options)
    length = len(meeple.play_out(game.new_initial_state(), random.Random(seed)).history())
    chosen = set(random.Random(seed + 1).sample(range(length), min(RANDOM_POSITIONS, length)))
    kept = []

    def keep(state, player, action) -> None:
        if len(state.history()) - 1 in chosen and state.current_player != CHANCE:
            kept.append(state.clone())

    end = meeple.play_out(game.new_initial_state(), random.Random(seed), on_move=keep)
    assert len(end.history()) == length  # the same game both times
    return kept + [end]


@pytest.mark.parametrize(("name", "players", "options"), CONFIGURATIONS,
                         ids=[gallery.configuration_slug(*c) for c in CONFIGURATIONS])
def test_pictures_of_random_positions_are_clean(name, players, options):
    seed = sum(map(ord, gallery.configuration_slug(name, players, options)))
    wrong: dict[str, list[str]] = {}
    for state in random_positions(name, players, options, seed):
        for viewer in [None, *range(players)]:
            names = None if viewer is None else list(gallery.NAMES[:players])
            svg = state.game.renderer.svg(state.observation(viewer), names)
            for p in problems(svg, name):
                wrong.setdefault(p, []).append(f"move {state.move_number()}, viewer {viewer}")
    assert not wrong, f"{len(wrong)} problems, e.g.:\n" + "\n".join(
        f"{p} (at {where[0]})" for p, where in list(wrong.items())[:12])


def test_the_checks_see_codes_and_reprs():
    """The checks themselves: each kind of internal text is caught, plain words are not."""
    def svg(text: str) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">'
                f"<text>{text}</text></svg>")

    assert problems(svg("Ada places a net"), "koplus") == []
    assert problems(svg("Basic mode, 3 rounds"), "kontor") == []
    for name, text in [("koplus", "P1 to play"), ("koplus", "section_set"),
                       ("koplus", "Section S02"), ("koplus", "next U2"),
                       ("botanik", "TE3"), ("botanik", "R-ST1"), ("botanik", "a CR tile"),
                       ("kontor", "red-35"), ("kontor", "{'mode': 1}"), ("kontor", "None"),
                       ("mops_royal", "Bc"), ("mops_royal", "blue-pillow"),
                       ("mops_royal", "score_when_full"), ("kozo", "random_size"),
                       ("kozo", "derived_v1")]:
        assert problems(svg(text), name), (name, text)
    big = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2000 100"/>'
    assert problems(big, "kozo")
    assert problems("<svg", "kozo")


def test_every_game_has_a_pitch_and_a_duration():
    for name in GAMES:
        d = game_class(name).describe()
        assert d["pitch"] and not d["pitch"].endswith("."), name
        assert problems(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">'
                        f'<text>{d["pitch"]}</text></svg>', name) == [], name
        low, high = d["minutes"]
        assert 0 < low <= high <= 240, name


def test_sample_positions_are_the_start_middle_and_end_of_one_seeded_game():
    positions = gallery.sample_positions("mops_royal", 3)
    assert list(positions) == list(gallery.STAGES)
    start, middle, end = positions.values()
    assert end.is_terminal()
    assert start.current_player != CHANCE and middle.current_player != CHANCE
    assert 0 < len(start.history()) < len(middle.history()) < len(end.history())
    assert len(middle.history()) >= len(end.history()) // 2
    assert end.history()[: len(middle.history())] == middle.history()
    again = gallery.sample_positions("mops_royal", 3)
    assert [s.history() for s in again.values()] == [s.history() for s in positions.values()]
    other = gallery.sample_positions("mops_royal", 3, seed=gallery.SEED + 1)
    assert other["end"].history() != end.history()


def test_pictures_cover_every_configuration_stage_and_view():
    pics = gallery.pictures("kontor")
    configs = game_class("kontor").configurations()
    assert len(pics) == len(configs) * len(gallery.STAGES) * 2
    assert len({p.slug for p in pics}) == len(pics)
    assert {(p.players, tuple(sorted(p.options.items()))) for p in pics} == {
        (n, tuple(sorted(o.items()))) for n, o in configs}
    assert {p.viewer for p in pics} == {0, None}
    for p in pics:
        assert ET.fromstring(p.svg).tag == f"{SVG_NS}svg"
        assert "Ada" in p.svg and "Ben" in p.svg


@pytest.mark.parametrize("name", GAMES)
def test_lobby_picture_is_the_board_in_the_middle_of_the_first_configuration(name):
    players, options = game_class(name).configurations()[0]
    whole = gallery.draw(gallery.sample_positions(name, players, options)["middle"], None)
    picture = gallery.lobby_picture(name)
    assert picture == gallery.board_view(whole)
    root, board = ET.fromstring(picture), None
    for el in root.iter(f"{SVG_NS}g"):
        if el.get("data-region") == "board":
            board = el.get("data-box")
            break
    assert board is not None, f"{name}: the picture has no board region"
    assert [float(v) for v in root.get("viewBox", "").split()] == [
        float(v) for v in board.split()]
    assert (root.get("width"), root.get("height")) == tuple(board.split()[2:])
    assert picture.endswith(whole[whole.index(">") + 1:])  # the same drawing, framed


def test_board_view_leaves_a_picture_without_a_board_region_whole():
    plain = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect/></svg>'
    assert gallery.board_view(plain) == plain


def test_png_is_drawn_from_the_svg():
    data = gallery.png(gallery.lobby_picture("kontor"))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") == gallery.PNG_WIDTH  # the IHDR width
    assert int.from_bytes(data[20:24], "big") > 100


def test_gallery_writes_svg_png_and_the_page(tmp_path, monkeypatch):
    out = tmp_path / "gallery"
    # A PNG takes cairosvg a good part of a second: the real one is tested above.
    monkeypatch.setattr(gallery, "png", lambda svg: b"PNG of " + svg[:40].encode())
    pics = gallery.write_gallery("mops_royal", out)
    assert len(pics) == len(game_class("mops_royal").configurations()) * 6
    for p in pics:
        assert (out / f"{p.slug}.svg").read_text() == p.svg
        assert (out / f"{p.slug}.png").read_bytes() == b"PNG of " + p.svg[:40].encode()
    page = gallery.write_docs(pics, tmp_path / "docs" / "gallery.md", out)
    text = page.read_text()
    assert text.startswith("# Gallery") and "## Mops Royal" in text
    shown = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    assert len(shown) == len(pics)
    assert all((page.parent / s).resolve().is_file() for s in shown)
    with pytest.raises(meeple.OptionError):
        gallery.write_gallery("chess", out)


def test_the_gallery_page_shows_pictures_that_are_there():
    page = Path(__file__).resolve().parent.parent / "docs" / "gallery.md"
    text = page.read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    assert shown and all((page.parent / s).is_file() for s in shown)
    for name in GAMES:
        assert f"## {game_class(name).title}\n" in text, name


def test_the_gallery_command(tmp_path):
    from typer.testing import CliRunner

    from meeple.cli import app

    runner = CliRunner()
    out = tmp_path / "pictures"
    r = runner.invoke(app, ["gallery", "mops_royal", "-o", str(out), "--no-png",
                            "--docs", str(tmp_path / "gallery.md")])
    assert r.exit_code == 0, r.output
    count = len(game_class("mops_royal").configurations()) * 6
    assert len(list(out.glob("*.svg"))) == count and not list(out.glob("*.png"))
    assert f"wrote {count} pictures" in r.output
    assert "pictures/mops_royal-2p-start-seat1.svg" in (tmp_path / "gallery.md").read_text()
    r = runner.invoke(app, ["gallery", "chess", "-o", str(out)])
    assert r.exit_code == 2 and "chess" in r.output
