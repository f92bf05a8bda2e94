"""The move log in words: ``State.describe`` (a move's sentence, from the state before it),
``describe_unseen`` (a move a viewer may not know yet) and ``describe_setup`` (the set-up's
chance events in one line), and the server's log that carries them.

Over random play of every configuration of every game each sentence is a plain sentence in
the game's words: a player's starts with its verb (the log puts the name first), chance's
with a capital; it ends with a full stop and shows none of the game's codes, no notation, no
"chance" and no Python values. Worked examples of each rules page give exact sentences. The
set-up is one line of the log, and no viewer's log names a card or tile they may not know."""

from __future__ import annotations

import random
import re
import zlib

import pytest

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS, State
from meeple.engine.core import resolve_chance

pytest.importorskip("fastapi", reason="the server's move log needs the web extra")
from meeple.server import views  # noqa: E402
from meeple.server.live import _advance  # noqa: E402

CONFIGS = [
    pytest.param(name, players, options, id=f"{name}-{players}p-" + "-".join(
        f"{k}={v}" for k, v in options.items()) if options else f"{name}-{players}p")
    for name in meeple.games()
    for players, options in meeple.engine.game_class(name).configurations()
]

EXTRA = [
    r"\bchance\b",  # the old log's word for a chance outcome
    r"\bPlayer \d",  # seats have names; the log puts them first
    r"[\[\]{}<>|\\]",  # Python values, markup
]
"""Patterns no sentence of the log may contain (with the labels' ``COMMON`` and codes)."""


def sentence_problems(name: str, text: object, chance: bool) -> list[str]:
    """What is wrong with ``text`` as a sentence of ``name``'s log (empty: nothing)."""
    from tests.games.test_labels import CODES_OF, COMMON

    if not isinstance(text, str) or len(text) < 8:
        return [f"not a sentence: {text!r}"]
    out = []
    if chance and not text[0].isupper():
        out.append("a chance event's sentence starts with a capital letter")
    if not chance and not text[0].islower():
        out.append("a player's sentence starts with its verb (the name comes first)")
    if not text.endswith(".") or text.endswith("..") or ". " in text:
        out.append("one sentence ending with a full stop")
    if text != text.strip() or "  " in text or " ," in text or ",," in text:
        out.append("stray spaces or commas")
    for pattern in COMMON + CODES_OF[name] + EXTRA:
        m = re.search(pattern, text[:-1], re.IGNORECASE if pattern == EXTRA[0] else 0)
        if m:
            out.append(f"shows {m.group(0)!r} ({pattern})")
    return out


def _assert_sentence(name: str, text: str, chance: bool, notation: str = "") -> None:
    problems = sentence_problems(name, text, chance)
    assert not problems, (text, notation, problems)
    if notation:  # the notation as a whole word
        assert not re.search(r"(?<![\w-])" + re.escape(notation) + r"(?![\w-])", text), (
            text, notation)


def test_the_old_log_would_fail():
    assert sentence_problems("kontor", "chance", True)
    assert sentence_problems("koplus", "deal S12/2 @0", True)
    assert sentence_problems("mops_royal", "score D3 (-2,-2) (-1,-1) (0,0) flip (-1,-1)", False)
    assert sentence_problems("kontor", "Player 2 chooses red-15.", False)
    assert sentence_problems("kozo", "Places the red dicube.", False)  # a capital: no subject
    assert sentence_problems("botanik", "puts the red elbow on pile 2", False)
    assert not sentence_problems("koplus", "places a plus centred on row 4, column 2.", False)


@pytest.mark.parametrize("name,players,options", CONFIGS)
def test_every_sentence_of_random_play_is_plain(name, players, options):
    game = meeple.load(name, players=players, **options)
    rng = random.Random(zlib.crc32(f"sentences/{name}/{players}/{options}".encode()))
    state = game.new_initial_state()
    kinds: set[tuple[int, str]] = set()
    leading_chance = 0
    while not state.is_terminal():
        cp = state.current_player
        actor = rng.choice(state.pending_players()) if cp == SIMULTANEOUS else cp
        legal = state.legal_actions(actor)
        action = meeple.sample_chance(state, rng) if actor == CHANCE else rng.choice(legal)
        text = state.describe(actor, action)
        _assert_sentence(name, text, actor == CHANCE, state.action_to_string(action, actor))
        _assert_sentence(name, state.describe_unseen(actor), actor == CHANCE)
        kinds.add((actor == CHANCE, text.split()[0]))
        state.apply(action, actor)
        if leading_chance == state.move_number() - 1 and actor == CHANCE:
            leading_chance += 1
            if state.current_player != CHANCE:
                _assert_sentence(name, state.describe_setup(), True)
    assert len(kinds) >= 2, kinds


# ------------------------------------------------------------------ the server's log

def build(state: State, rng: random.Random, until, log: list[views.Entry] | None = None
          ) -> list[views.Entry]:
    """Play ``state`` at random as the server does (its own Entry builder, adding to
    ``log``) until ``until(state)``; return the log."""
    log = [] if log is None else log
    pending: dict[int, int] = {}
    while not state.is_terminal() and not until(state):
        cp = state.current_player
        p = CHANCE if cp == CHANCE else state.pending_players()[0]
        a = meeple.sample_chance(state, rng) if p == CHANCE else rng.choice(
            state.legal_actions(p))
        _advance(state, p, a, state.action_to_string(a, p), log, pending)
    return log


def test_kontors_first_frame_shows_one_set_up_line():
    state = meeple.load("kontor", players=2).new_initial_state()
    log = build(state, random.Random(5), lambda s: s.current_player != CHANCE)
    assert len(log) == 21 and all(e.player == CHANCE for e in log)
    setup = ("The cards are shuffled and eight water cards are laid out around the anchor; "
             "each player draws three harbour cards and two water cards, and the top card of "
             "every pile is turned face up.")
    for viewer in (None, 0, 1):
        shown = views.log_json(state, log, viewer, show_all=False)
        assert shown == [{"n": 0, "player": CHANCE, "text": "chance", "sentence": setup,
                          "moves": 21}]
    finished = views.log_json(state, log, None, show_all=True)
    assert finished == [{"n": 0, "player": CHANCE, "sentence": setup, "moves": 21,
                         "text": "; ".join(e.text for e in log)}]


def test_the_set_up_line_and_later_chance_lines_of_a_whole_game():
    state = meeple.load("kontor", players=2).new_initial_state()
    log = build(state, random.Random(9), lambda s: s.move_number() >= 80)
    shown = views.log_json(state, log, 0, show_all=False)
    assert shown[0]["moves"] == 21 and shown[0]["n"] == 0
    assert [e["n"] for e in shown[1:]] == list(range(21, len(log)))  # one line per move
    later = [e for e in shown[1:] if e["player"] == CHANCE]
    assert later and all(e["sentence"] == "A card is turned up on its pile." for e in later)
    assert all("moves" not in e for e in shown[1:])
    # a finished table shows every sentence as the game says it
    every = views.log_json(state, log, None, show_all=True)
    assert [e["sentence"] for e in every[1:]] == [e.sentence for e in log[21:]]
    assert any(e["sentence"].startswith("The ") and "is turned up on its pile" in e["sentence"]
               for e in every if e["player"] == CHANCE)


def test_a_set_up_of_one_chance_event_keeps_its_own_sentence():
    state = meeple.load("kozo", players=2, random_size=True).new_initial_state()
    log = build(state, random.Random(2), lambda s: s.move_number() >= 2)
    shown = views.log_json(state, log, None, show_all=False)
    assert "moves" not in shown[0] and shown[0]["sentence"].startswith(
        "The scoring tile drawn is a ")
    assert shown[1]["sentence"].startswith("places the ")


def test_a_game_without_chance_at_the_start_has_no_set_up_line():
    state = meeple.load("kozo", players=2).new_initial_state()
    log = build(state, random.Random(2), lambda s: s.move_number() >= 3)
    shown = views.log_json(state, log, None, show_all=False)
    assert len(shown) == 3 and all("moves" not in e for e in shown)
    assert all(e["sentence"] == x.sentence and e["text"] == x.text for e, x in zip(
        shown, log, strict=True))


def test_a_sentence_that_fails_falls_back_to_the_notation():
    class Broken:
        def is_legal(self, action, player):
            return True

        def describe(self, player, action):
            raise RuntimeError("no words")

        def describe_unseen(self, player):
            raise RuntimeError("no words")

    assert views.sentences(Broken(), 0, 3, "bid 3") == ("bid 3", "(hidden)")
    assert views.sentences(Broken(), CHANCE, 3, "x") == ("x", "chance")
    state = meeple.load("koplus", players=2).new_initial_state()
    assert views.sentences(state, 0, 5, "X@0,5") == ("X@0,5", "(hidden)")  # not legal now


def test_the_position_after_a_move_is_a_copy():
    state = meeple.load("kontor", players=2).new_initial_state()
    resolve_chance(state, 4)
    legal = state.legal_actions(0)
    after = state.position_after(0, legal[0])
    assert after.history() == [*state.history(), (0, legal[0])]
    assert state.legal_actions(0) == legal and 0 in state.pending_players()
    assert 0 not in after.pending_players() and after.legal_actions(0) == []


# ------------------------------------------------------------------ hidden information

def _kontor_secrets(state, viewer) -> set[int]:
    """The cards ``viewer`` may not know now: in another's hand and never seen, or still
    unseen in a pile (a card chosen before the reveal: see the test)."""
    n = state.game.num_players
    out = {c for q in range(n) if q != viewer for c in state.hands[q] if not state.public[c]}
    out |= {state.chosen[q] for q in range(n) if q != viewer and state.chosen[q] >= 0
            and not state.public[state.chosen[q]]}
    for pile in state.unseen:
        out |= set(pile)
    return out


def _card_pattern(card: int) -> re.Pattern:
    from meeple.games.kontor.notation import card_words

    name = card_words(card).split(" with ")[0].removeprefix("the ")
    return re.compile(r"\b" + re.escape(name) + r"(?!\d)", re.IGNORECASE)


@pytest.mark.parametrize("players,options", [(2, {"mode": "basic"}), (3, {"mode": "expansion"}),
                                             (2, {"mode": "basic", "open_draw_piles": False})])
def test_no_kontor_log_names_a_card_its_viewer_may_not_know(players, options):
    state = meeple.load("kontor", players=players, **options).new_initial_state()
    rng = random.Random(zlib.crc32(f"kontor-secrets/{players}/{options}".encode()))
    log: list[views.Entry] = []
    checked = 0
    while not state.is_terminal() and state.move_number() < 160:
        build(state, rng, lambda s, k=state.move_number(): s.move_number() > k, log)
        if state.is_terminal():
            break
        for viewer in (None, *range(players)):
            secrets = [_card_pattern(c) for c in _kontor_secrets(state, viewer)]
            shown = views.log_json(state, log, viewer, show_all=False)
            hidden = {i for i, (_, a) in enumerate(state.visible_history(viewer)) if a is None}
            chosen = [_card_pattern(state.chosen[q]) for q in range(players)
                      if q != viewer and state.chosen[q] >= 0]
            for e in shown:
                for pattern in secrets:
                    assert not pattern.search(e["sentence"]), (viewer, e, pattern.pattern)
                for pattern in chosen:  # a card seen in a hand, chosen in secret
                    assert not (e["sentence"].startswith("chooses ")
                                and pattern.search(e["sentence"])), (viewer, e)
                if e.get("moves") is None and e["n"] in hidden:
                    assert not re.search(r"card \d", e["sentence"]), e
                    assert e["text"] in ("chance", "(hidden)")
                    checked += 1
    assert checked > 50


def test_no_mops_royal_log_says_where_a_hidden_tile_went():
    from meeple.games.mops_royal.components import ROUND
    from meeple.games.mops_royal.notation import layout_place, the_tile

    state = meeple.load("mops_royal", players=3).new_initial_state()
    rng = random.Random(11)
    log: list[views.Entry] = []
    checked = 0
    tiles = [the_tile(t) for t in range(36)]
    while not state.is_terminal() and state.move_number() < 120:
        build(state, rng, lambda s, k=state.move_number(): s.move_number() > k, log)
        if state.phase != ROUND:
            continue
        for viewer in (None, 0, 1, 2):
            shown = views.log_json(state, log, viewer, show_all=False)
            hidden = {i for i, (_, a) in enumerate(state.visible_history(viewer)) if a is None}
            for q in range(3):
                if q == viewer or state.rplace[q] < 0:
                    continue
                where = layout_place(state.rplace[q]).replace("your", "their")
                secret = f"places {the_tile(state.tile)} {where}."
                assert all(secret not in e["sentence"] for e in shown if e["player"] == q)
            for e in shown:
                if e.get("moves") is None and e["n"] in hidden:
                    assert not any(t in e["sentence"] for t in tiles), e
                    assert "start tile" not in e["sentence"] or e["player"] == CHANCE, e
                    checked += 1
    assert checked > 50


# ------------------------------------------------------------------ exact sentences, per game

def test_koplus_sentences_of_the_worked_examples():
    from tests.games.koplus.test_examples import K3_MOVES, f2, play

    fresh = meeple.load("koplus", players=2).new_initial_state()
    assert fresh.describe(CHANCE, fresh.string_to_action("deal S05/1 @0", CHANCE)) == (
        "Board section 5 is laid in place 1, turned a quarter to the right.")
    s = f2()
    assert s.describe_setup() == (
        "The board is built from 9 sections drawn at random, 3 by 3, each turned at random.")
    assert s.describe(0, s.string_to_action("U2@6,5")) == (  # K1: 5 and 4 under the U
        "places a U opening down with the middle of its top side on row 7, column 7 and "
        "catches 2 aliens worth 9 points.")
    play(s, *K3_MOVES[:4])
    assert s.describe(0, s.string_to_action(K3_MOVES[4])) == (  # K3: 13 + 7 = 20
        "places a U opening down with the middle of its top side on row 9, column 9, catches "
        "3 aliens worth 7 points and reaches 20 points, which earns a bonus turn.")
    play(s, K3_MOVES[4])
    assert s.describe(0, s.string_to_action(K3_MOVES[5])) == (
        "places a plus centred on row 4, column 2, catches no aliens and stays on 20 points, "
        "which earns a bonus turn.")
    unturned = meeple.load("koplus", players=4, random_rotation=False).new_initial_state()
    resolve_chance(unturned, 1)
    assert unturned.describe_setup().endswith("16 sections drawn at random, 4 by 4, none of "
                                              "them turned.")


def test_kozo_sentences_of_z5_z6_and_z7():
    from tests.games.kozo.test_examples import Z5, play, z7_position

    s = meeple.load("kozo", players=3).new_initial_state()
    said = []
    for poly, bal in Z5[:5]:
        for move in (poly, bal):
            if move:
                said.append(s.describe(s.current_player, s.string_to_action(move)))
                play(s, move)
    assert said[0] == ("places the brown V-pentacube (L) across the south-west, south, "
                       "south-east, west and north-west columns, lying flat, resting on the "
                       "board: the tower stands.")
    assert said[1] == ("puts a balance cube on top of the south-west column, at height 1: the "
                       "tower stands and they take the scoring tile worth 5.")
    assert said[7] == ("puts a balance cube on top of the east column, at height 2: the tower "
                       "stands and they take the scoring tile worth 2.")
    assert said[8] == ("places the green I-tricube (B) across the south-west, south and "
                       "south-east columns, lying flat, resting at height 3: the tower falls, "
                       "round 1 is over and they lose this round's 4 points.")
    t = meeple.load("kozo", players=2, tremor=0.1).new_initial_state()
    play(t, "P12.5@0,0")
    assert t.describe(CHANCE, t.string_to_action("tremor 0,0")) == (
        "The tremor leaves the piece where it is: the tower stands.")
    z = z7_position(random_size=True)
    assert z.describe(CHANCE, z.string_to_action("draw 5")) == (
        "The scoring tile drawn is a 5, so the next piece must have five cubes: the next "
        "piece has nowhere to go and round 1 is over.")
    z = z7_position(opponent_choice=True)
    assert z.describe(1, z.string_to_action("size 3", 1)) == (
        "chooses the size of the next piece: three cubes.")


def test_mops_royal_sentences_of_a_worked_layout():
    from meeple.games.mops_royal.notation import the_tile
    from tests.games.mops_royal.helpers import enter_placement, enter_scoring, make_state
    from tests.games.mops_royal.test_play import M2

    s = enter_scoring(make_state([M2, {(0, 0): "Gl"}]))
    assert s.describe(0, s.string_to_action("score V3 (0,0) (1,0) (1,1) flip (1,0)", 0)) == (
        "scores a small corner of bowls for 3 points, turning face down the green bowl next "
        "to their start tile, on the right.")
    assert s.describe(0, s.string_to_action("noscore", 0)) == "scores nothing this round."
    assert s.describe_unseen(0) == "decides in secret whether to score."
    enter_placement(s, "Yp")
    assert s.describe(0, s.string_to_action("place (-1,-2)", 0)) == (
        "places the yellow poop with a crown one to the left and two above their start tile.")
    assert s.describe_unseen(0) == "decides in secret where the revealed tile goes."
    fresh = meeple.load("mops_royal", players=2).new_initial_state()
    assert fresh.describe(CHANCE, fresh.string_to_action("start blue-pug", CHANCE)) == (
        "The start tile of the first player in seat order is drawn and laid face up: the blue pug.")
    assert fresh.describe_unseen(CHANCE) == "A start tile is drawn."
    meeple.play_out(fresh, 3, until=lambda st: st.current_player != CHANCE)
    assert fresh.describe_setup() == (
        "Each player's start tile is drawn and laid face up, the caller is chosen at random "
        f"and the caller reveals {the_tile(fresh.tile)}.")


def test_botanik_sentences_of_b6_b7_and_a_registry():
    from tests.games.botanik.helpers import fresh, set_registry
    from tests.games.botanik.test_dict_form import releasing
    from tests.games.botanik.test_examples import b6_machine, b7

    s = releasing(fresh(), 0, "G-TE1")
    assert s.describe(0, s.string_to_action("add G-TE1@0,1/1", 0)) == (
        "adds the green tee with a flower to their machine next to their Source, on the right, "
        "turned a quarter to the right, pipes at the right, bottom and left.")
    s = set_registry(fresh(), tops=["R-ST1", "Y-EL1", "G-TE1", "B-CR", "K-PL"],
                     rows={1: {0: "B-ST2"}}, arrival=["R-EL2", "G-ST2", "B-TE2"])
    assert s.describe(0, s.string_to_action("pile R-EL2@0", 0)) == (
        "puts the red elbow on the first central pile, releasing the blue straight pipe on "
        "their opponent's side.")
    assert s.describe(0, s.string_to_action("own R-EL2@1", 0)) == (
        "puts the red elbow on their second space.")
    s = set_registry(b6_machine(), tops=["R-ST2", "Y-EL2", "G-PL", "B-TE2", "Y-ST1"],
                     rows={0: {4: "K-CR"}}, arrival=["R-EL2", "G-ST3", "B-ST2"])
    assert s.describe(0, s.string_to_action("pile R-EL2@4", 0)) == (  # B6
        "puts the red elbow on the fifth central pile, releasing the black cross on their side; "
        "the black cross fits nowhere and is discarded.")
    s = b7()
    assert s.describe(0, s.string_to_action("swap 1", 0)) == (
        "swaps the Meca-Botanist with the top of the second central pile and takes the yellow "
        "elbow.")
    start = meeple.load("botanik").new_initial_state()
    assert start.describe(CHANCE, start.string_to_action("deal R-TE3", CHANCE)) == (
        "The red tee is dealt face up onto the first central pile.")
    meeple.play_out(start, 3, until=lambda st: st.current_player != CHANCE)
    assert start.describe_setup() == (
        "The tiles are shuffled into the supply, five are dealt face up, one onto each central "
        "pile, and three are revealed into the arrival.")


def test_kontor_sentences_of_k2_and_the_choice():
    from meeple.games.kontor.components import CARD_ID
    from meeple.games.kontor.notation import card_words
    from tests.games.kontor.helpers import act_with, choosing, fresh, lay

    s = lay(fresh(), {(1, -3): "water-47", (1, -2): "red-21", (1, -1): "red-15",
                      (2, -1): "black-20", (3, -1): "water-49"})
    s.coins = [4, 3]
    act_with(s, 1, "water-52")
    top = card_words(s.top[s.game.water_pile])
    assert s.describe(1, s.string_to_action("place water-52 (2,-2)")) == (  # K2: red wins
        "places the water card 52, two to the right and two above the anchor, takes a coin, "
        f"closes an area of three cards, which the red player wins and draws {top}.")
    c = choosing(fresh(), {0: ["red-15", "water-48"], 1: ["black-16", "water-50"]})
    assert c.describe(0, CARD_ID["red-15"]) == (
        "chooses the red harbour card 15 with wine and a coin symbol.")
    assert c.describe_unseen(0) == "chooses a card in secret."
    c.apply(CARD_ID["red-15"], 0)
    assert c.describe(1, CARD_ID["black-16"]) == (
        "chooses the black harbour card 16 with wine and a coin symbol; all the chosen cards "
        "are revealed; they and the red player each pay 1 coin of tax.")
    start = meeple.load("kontor").new_initial_state()
    assert start.describe(CHANCE, CARD_ID["water-50"]) == (
        "The water card 50 with a ship symbol is dealt to the starting cross.")
    assert start.describe_unseen(CHANCE) == "A water card is dealt to the starting cross."
