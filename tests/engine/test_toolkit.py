"""The engine's shared toolkit: grid bitboards, shapes, palette and naming, score lines, SVG,
the plug-in contract, the visible history and the play loop."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from rich.text import Text

import meeple
from meeple.engine import grid, registry, svg
from meeple.engine.look import PALETTE, seat_name, seat_names
from meeple.engine.plugins import Heuristics, Renderer, optional
from meeple.engine.scores import ScoreLine, columns, fmt, score_lines, score_table_text

from .tinygame import Pictures, SealedBids, register_tiny


@pytest.fixture(autouse=True)
def _registered():
    register_tiny()
    yield
    registry._GAMES.pop("sealed_bids", None)


# -- grid -------------------------------------------------------------------------------------
def cells_flood(cells: set[tuple[int, int]], start: tuple[int, int]) -> set[tuple[int, int]]:
    """A plain set-based flood fill, the reference for the bitboard one."""
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen


def test_bits_come_lowest_first():
    assert grid.bits(0) == []
    assert grid.bits(0b101001) == [0, 3, 5]
    assert list(grid.iter_bits(1 << 70 | 2)) == [1, 70]
    assert grid.lowest(0b1000) == 3
    assert grid.mask_of_indices([0, 3, 5]) == 0b101001


def test_cells_and_indices_round_trip():
    g = grid.Grid(3, 5)
    assert g.index(2, 4) == 14 and g.cell(14) == (2, 4)
    assert g.bit(1, 2) == 1 << 7
    assert g.cells_of(g.mask_of([(0, 0), (2, 3), (1, 4)])) == [(0, 0), (1, 4), (2, 3)]
    assert g.row_mask(1) == 0b11111 << 5
    assert g.cells_of(g.col_mask(4)) == [(0, 4), (1, 4), (2, 4)]
    assert g.inside(2, 4) and not g.inside(3, 0) and not g.inside(0, -1)
    with pytest.raises(ValueError):
        grid.Grid(0, 3)


def test_shifts_never_wrap_around_the_edges():
    g = grid.Grid(4, 4)
    right_col = g.col_mask(3)
    left_col = g.col_mask(0)
    assert g.right(right_col) == 0
    assert g.left(left_col) == 0
    assert g.up(g.row_mask(0)) == 0
    assert g.down(g.row_mask(3)) == 0
    assert g.right(left_col) == g.col_mask(1)
    assert g.down(g.row_mask(0)) == g.row_mask(1)


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 7), (6, 1), (5, 8), (9, 9)])
def test_neighbours_match_the_cell_definition(rows, cols):
    g = grid.Grid(rows, cols)
    for i in range(g.size):
        r, c = g.cell(i)
        expect = {(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                  if g.inside(r + dr, c + dc)}
        assert set(g.cells_of(g.neighbours(1 << i))) == expect
        assert {g.cell(j) for j in g.neighbour_indices(i)} == expect
        assert g.grow(1 << i) == g.neighbours(1 << i) | 1 << i


def test_flood_and_components_agree_with_a_set_flood_fill():
    rng = random.Random(5)
    g = grid.Grid(7, 9)
    for _ in range(200):
        mask = rng.getrandbits(g.size)
        cells = set(g.cells_of(mask))
        parts = g.components(mask)
        assert sum(parts) == mask and all(a & b == 0 for a in parts for b in parts if a is not b)
        for part in parts:
            first = g.cell(grid.lowest(part))
            assert set(g.cells_of(part)) == cells_flood(cells, first)
        assert [grid.lowest(p) for p in parts] == sorted(grid.lowest(p) for p in parts)
        if mask:
            seed = mask & -mask
            assert g.flood(seed, mask) == parts[0]
    assert g.flood(1, 0) == 0


def test_orientations_of_the_classic_shapes():
    square = [(0, 0), (0, 1), (1, 0), (1, 1)]
    ell = [(0, 0), (1, 0), (2, 0), (2, 1)]
    plus = [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]
    s_tetromino = [(0, 1), (0, 2), (1, 0), (1, 1)]
    assert len(grid.orientations(square)) == 1
    assert len(grid.orientations(plus)) == 1
    assert len(grid.orientations(ell)) == 8
    assert len(grid.orientations(ell, mirrored=False)) == 4
    assert len(grid.orientations(s_tetromino)) == 4
    assert grid.orientations(ell)[0] == grid.normalize(ell)
    assert grid.orientations(ell)[1] == grid.rotate_cw(ell)
    assert grid.mirror(grid.mirror(ell)) == grid.normalize(ell)


def test_rotate_grid_turns_a_quarter_clockwise():
    assert grid.rotate_grid_cw([[1, 2, 3], [4, 5, 6]]) == [[4, 1], [5, 2], [6, 3]]


# -- palette, names, score lines --------------------------------------------------------------
def test_palette_colours_and_symbols_are_all_different():
    assert len({c.fill for c in PALETTE}) == len(PALETTE)
    assert len({c.symbol for c in PALETTE}) == len(PALETTE)
    assert len({c.name for c in PALETTE}) == len(PALETTE)


def test_seat_names_count_from_one_and_prefer_given_names():
    assert seat_name(0) == "Player 1"
    assert seat_name(1, ["Ann", "Bob"]) == "Bob"
    assert seat_name(1, ["Ann", ""]) == "Player 2"
    assert seat_names(3, ["Ann"]) == ["Ann", "Player 2", "Player 3"]


def test_score_lines_round_trip_and_print_each_total_once():
    lines = [ScoreLine(0, (("Aliens", 12), ("Bonus", 3)), 15),
             ScoreLine(1, (("Aliens", 20.0), ("Penalty", -2)), 18, "holds harbour card 35")]
    obs = {"final_breakdown": [ln.to_json() for ln in lines]}
    assert score_lines(obs) == lines
    assert score_lines({"final_breakdown": None}) == []
    assert columns(lines) == ["Aliens", "Bonus", "Penalty"]
    assert fmt(20.0) == "20" and fmt(2.5) == "2.5" and fmt(-2) == "-2"
    out = score_table_text(lines, ["Ann", "Bob"], ranks=[1, 2])
    rows = out.splitlines()
    assert rows[0].split() == ["Rank", "Player", "Aliens", "Bonus", "Penalty", "Total"]
    assert rows[1].split() == ["1", "Ann", "12", "3", "15"]
    assert rows[2].split() == ["2", "Bob", "20", "-2", "18"]
    assert out.count("15") == 1 and out.count("18") == 1
    assert rows[3] == "Bob: holds harbour card 35"
    assert "{" not in out and "[" not in out
    assert score_table_text([], None) == ""


# -- SVG --------------------------------------------------------------------------------------
def test_svg_text_is_escaped_and_the_document_well_formed():
    body = [svg.text(5, 10, '<script>alert("x")</script> & more', class_="status"),
            svg.rect(0, 0, 10, 10, fill="#fff", data_seat=1),
            svg.player_label(1, PALETTE, ["Ann", 'Bo"b'], 10, 30, viewer=1, current=True)]
    doc = svg.document(100, 50, body, cls="test-board", label="A board")
    root = ET.fromstring(doc)
    assert root.get("viewBox") == "0 0 100 50" and root.get("class") == "test-board"
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert '<script>alert("x")</script> & more' in texts
    assert 'Bo"b (you)' in texts
    assert "<script>" not in doc
    rects = [r.get("data-seat") for r in root.iter("{http://www.w3.org/2000/svg}rect")]
    assert rects == [None, "1"]  # the background, then the drawn one


SVG_TEXT = "{http://www.w3.org/2000/svg}text"
SVG_CIRCLE = "{http://www.w3.org/2000/svg}circle"


def _texts(*body: str) -> list[str]:
    root = ET.fromstring(svg.document(300, 60, body, cls="t"))
    return ["".join(t.itertext()) for t in root.iter(SVG_TEXT)]


def test_a_kept_drawing_is_drawn_once_per_language_and_arguments():
    from meeple.engine import i18n

    calls = []

    @i18n.memo(maxsize=8)
    def mark(x: float) -> str:
        calls.append(x)
        return svg.text(x, 0, svg._n("{n} point", "{n} points", 2))

    assert mark(1) == mark(1) and calls == [1]
    with i18n.speaking("de"):
        german = mark(1)
    assert german != mark(1) and "2 Punkte" in german and calls == [1, 1]
    assert mark(2) != mark(1) and calls == [1, 1, 2]


def test_the_status_line_of_a_finished_game_names_the_winners():
    assert svg.game_over([1], ["Ann", "Bob"]) == "Game over: Bob wins"
    assert svg.game_over([0, 1], ["Ann", "Bob"]) == "Game over: Ann and Bob share the win"
    assert svg.game_over([0, 2, 3], None) == \
        "Game over: Player 1, Player 3 and Player 4 share the win"
    assert svg.game_over([], None) == "Game over"
    assert svg.points(1) == "1 point" and svg.points(12.0) == "12 points"
    assert svg.points(2.5) == "2.5 points"
    assert svg.count(1, "open end") == "1 open end" and svg.count(0, "tile") == "0 tiles"
    assert svg.count(3.0, "bonus turn") == "3 bonus turns"


def test_a_player_line_shows_the_name_and_the_points_once():
    line = svg.player_line(1, PALETTE, ["Ann", "Bob"], 0, 20, 260, 12.0, viewer=1,
                           info="caller")
    assert _texts(line) == ["▲", "Bob (you)", "caller · 12 points"]
    narrow = svg.player_line(1, PALETTE, ["Ann", "Bob"], 0, 20, 200, 12.0, viewer=1,
                             info="caller")  # the name gives way to the points, "(you)" stays
    assert _texts(narrow) == ["▲", "B… (you)", "caller · 12 points"]
    root = ET.fromstring(svg.document(300, 60, [line], cls="t"))
    assert [c.get("fill") for c in root.iter(SVG_CIRCLE)] == [PALETTE[1].fill]
    assert _texts(svg.player_line(0, PALETTE, None, 0, 20, 200, None)) == ["●", "Player 1"]
    current = svg.player_line(0, PALETTE, None, 0, 20, 200, 3, current=True)
    ring = [c.get("class") for c in ET.fromstring(svg.document(300, 60, [current], cls="t"))
            .iter(SVG_CIRCLE) if c.get("class")]
    assert ring == ["current"]


def test_the_header_has_the_title_the_detail_and_the_status():
    head, height = svg.header(10, 0, "Kontor · round 2", "Ann places red-4", "Basic game")
    assert _texts(head) == ["Kontor · round 2", "Basic game", "Ann places red-4"]
    short, short_h = svg.header(10, 0, "Kozo", "Game over: Ann wins")
    assert _texts(short) == ["Kozo", "Game over: Ann wins"] and short_h < height
    assert 'class="status"' in short


def test_players_in_terminal_markup_line_up_and_keep_their_names_as_they_are():
    names = ["[red]Eve", "Bob"]
    width = svg.who_width(2, names, viewer=1)
    shown = [Text.from_markup(svg.who(p, PALETTE, names, 1, current=p == 0, width=width)).plain
             for p in range(2)]
    assert shown == [" ●  [red]Eve ◀ ", " ▲  Bob (you)  "]
    assert len({len(s) for s in shown}) == 1
    assert svg.plain("[bold]x") != "[bold]x"
    assert Text.from_markup(svg.plain("[bold]x")).plain == "[bold]x"


def test_no_results_table_is_left_in_the_toolkit():
    assert not hasattr(svg, "score_table")


@pytest.mark.parametrize("name", ["koplus", "kozo", "mops_royal", "botanik", "kontor"])
def test_a_finished_state_as_text_is_the_board_then_one_results_table(name):
    state = meeple.play_out(meeple.load(name, players=2).new_initial_state(), 4)
    obs = state.observation(None)
    lines = score_lines(obs)
    table = score_table_text(lines, seat_names(2), state.ranks())
    shown = str(state)
    board = Text.from_markup(state.game.renderer.text(obs)).plain
    assert shown == f"{board}\n\n{table}"
    assert Text.from_markup(shown).plain == shown  # plain text, no markup left
    assert shown.count(table) == 1 and shown.count("Total") == 1
    assert len(re.findall(r"^\s*Rank\s+Player", shown, re.M)) == 1
    for line in lines:
        row = [r for r in table.splitlines() if f" {seat_name(line.player)} " in f" {r} "]
        assert len(row) == 1 and row[0].split()[-1] == fmt(line.total)
        if line.note:
            assert shown.count(line.note) == 1
    unfinished = meeple.play_out(meeple.load(name, players=2).new_initial_state(), 4,
                                 max_actions=8)
    assert not unfinished.is_terminal()
    board = unfinished.game.renderer.text(unfinished.observation(None))
    assert str(unfinished) == Text.from_markup(board).plain


# -- plug-ins ---------------------------------------------------------------------------------
def test_every_game_declares_a_renderer_and_heuristics():
    for name in meeple.games():
        cls = registry.game_class(name)
        assert isinstance(cls.renderer, Renderer), name
        if name != "sealed_bids":
            assert isinstance(cls.heuristics, Heuristics), name
        assert cls.describe()["views"][0] == "board"
    assert registry.game_class("kozo").motion is not None
    assert registry.game_class("kozo").describe()["views"] == ["board", "tower-3d"]
    assert registry.game_class("koplus").motion is None


def test_register_refuses_what_is_not_a_plugin():
    with pytest.raises(TypeError, match="renderer"):
        registry.register(SealedBids, renderer=object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="heuristics"):
        registry.register(SealedBids, renderer=Pictures(), heuristics=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="views"):
        registry.register(SealedBids, renderer=Pictures(), views=("hologram",))


def test_optional_heuristics_members():
    kontor = registry.game_class("kontor")
    assert optional(kontor.heuristics, "evaluate") is not None
    assert optional(None, "evaluate") is None
    with pytest.raises(AttributeError):
        optional(kontor.heuristics, "action_valu")


# -- visible history and the play loop --------------------------------------------------------
def test_the_visible_history_hides_chance_and_open_bids_until_the_end():
    s = meeple.load("sealed_bids").new_initial_state()
    meeple.resolve_chance(s, 1)
    prize = s.history()[0]
    assert s.visible_history(0) == [(meeple.CHANCE, None)]
    s.apply(s.legal_actions(0)[0], 0)
    bid0 = s.history()[1]
    assert s.visible_history(0) == [(meeple.CHANCE, None), bid0]
    assert s.visible_history(1) == [(meeple.CHANCE, None), (0, None)]
    assert s.visible_history(None) == [(meeple.CHANCE, None), (0, None)]
    s.apply(s.legal_actions(1)[0], 1)  # both bids known: the round is over
    assert s.visible_history(1)[1:] == s.history()[1:3]
    meeple.play_out(s, 3)
    assert s.visible_history(None) == s.history() and s.history()[0] == prize


def test_perfect_information_games_show_the_whole_history():
    s = meeple.play_out(meeple.load("koplus").new_initial_state(), 2, max_actions=40)
    assert s.visible_history(1) == s.history()


def test_the_play_loop_reports_every_action_and_follows_the_policy():
    seen: list[tuple[int, int]] = []
    game = meeple.load("sealed_bids")

    def highest(state, player, rng):
        return max(state.legal_actions(player))

    s = meeple.play_out(game.new_initial_state(), 4, policy=highest,
                        on_move=lambda st, p, a: seen.append((p, a)))
    assert s.is_terminal() and seen == s.history()
    assert all(a == max(range(3)) or p == meeple.CHANCE for p, a in seen[:3])
    same = meeple.play_out(game.new_initial_state(), 4, policy=highest)
    assert same.history() == s.history()
    short = meeple.play_out(game.new_initial_state(), 4, max_actions=2)
    assert short.move_number() <= 3 and not short.is_terminal()


def test_the_current_player_ring():
    label = ET.fromstring(svg.document(50, 20, [svg.player_label(0, PALETTE, None, 0, 15,
                                                                  current=True)], cls="t"))
    ring = [c for c in label.iter(SVG_CIRCLE) if c.get("class")]
    assert [c.get("class") for c in ring] == ["current"]
    assert all(t.get("class") != "current" for t in label.iter(SVG_TEXT))


def test_the_play_loop_stops_where_until_holds():
    game = meeple.load("sealed_bids")
    stopped = meeple.play_out(game.new_initial_state(), 6,
                              until=lambda st: st.move_number() >= 4)
    assert stopped.move_number() == 4 and not stopped.is_terminal()
    untouched = meeple.play_out(game.new_initial_state(), 6, until=lambda st: True)
    assert untouched.move_number() == 0
    whole = meeple.play_out(game.new_initial_state(), 6)
    assert whole.history()[:4] == stopped.history()


def test_wrap_fits_the_width_at_the_font_size():
    words = "Everyone chooses a card: waiting for Ann (2) and the others at the table"
    for size, bold in ((12, False), (28, True)):
        lines = svg.wrap(words, 360, size, bold=bold)
        assert " ".join(lines) == words
        letter = (svg.BOLD_LETTER if bold else svg.LETTER) * size
        assert all(len(line) * letter <= 360 for line in lines)
    bold_lines, plain_lines = svg.wrap(words, 360, 28, bold=True), svg.wrap(words, 360, 28)
    assert max(map(len, bold_lines)) < max(map(len, plain_lines))  # bold letters are wider
    assert svg.wrap("   ", 100, 12) == []


def test_a_place_is_said_from_its_landmark():
    from meeple.engine.words import number_word, place_from

    assert place_from(0, 0, "the anchor") == "on the anchor"
    assert place_from(0, -1, "the anchor") == "just above the anchor"
    assert place_from(-1, 0, "your Source") == "next to your Source, on the left"
    assert place_from(2, 1, "the anchor") == "two to the right and one below the anchor"
    assert place_from(-3, 0, "your start tile") == "three to the left of your start tile"
    assert place_from(0, 4, "your start tile") == "four below your start tile"
    assert number_word(9) == "nine" and number_word(12) == "12"
