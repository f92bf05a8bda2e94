"""What everyone may know of a Mops Royal game (rules 4.5 and 4.1): every start tile, the
caller and every tile the caller reveals are public at once; a round's choices are known to
the player who made them and to nobody else until every player has finished that round. Checked
for each viewer (each seat and a spectator) in the engine's history, in the server's log and
in the terminal's replay, with no hidden move leaking into a sentence or a notation."""

from __future__ import annotations

import random

import pytest

import meeple
from meeple import cli
from meeple.engine import CHANCE, SIMULTANEOUS
from meeple.engine.records import move_numbers
from meeple.games.mops_royal.components import TILES
from meeple.games.mops_royal.notation import the_tile

pytest.importorskip("fastapi", reason="the server's move log needs the web extra")
from meeple.server import views  # noqa: E402


def _played(players: int, seed: int, moves: int):
    """A game of ``players`` after ``moves`` random actions, with the server's log of it."""
    state = meeple.load("mops_royal", players=players).new_initial_state()
    rng = random.Random(seed)
    log: list[views.Entry] = []
    while not state.is_terminal() and state.move_number() < moves:
        cp = state.current_player
        actor = rng.choice(state.pending_players()) if cp == SIMULTANEOUS else cp
        action = (meeple.sample_chance(state, rng) if actor == CHANCE
                  else rng.choice(state.legal_actions(actor)))
        text = state.action_to_string(action, actor)
        sentence, unseen = views.sentences(state, actor, action, text)
        state.apply(action, actor)
        log.append(views.Entry(len(log), actor, action, text, sentence, unseen,
                               views.setup_line(state, actor, log)))
    return state, log


def _secret(state, viewer):
    """The entries the rules keep from ``viewer`` now, worked out from the rules alone: the
    choices made since the last reveal by the other players, while that round is open (some
    player still has to finish it)."""
    history = state.history()
    if state.current_player != SIMULTANEOUS:
        return set()
    reveal = max(i for i, (p, _) in enumerate(history) if p == CHANCE)
    return {i for i in range(reveal + 1, len(history)) if history[i][0] != viewer}


VIEWERS = [0, 1, 2, None]


@pytest.mark.parametrize("moves", [3, 5, 6, 9, 14, 40, 77])
def test_each_viewer_sees_exactly_what_the_rules_make_public(moves):
    state, _ = _played(3, 11, moves)
    history = state.history()
    assert len(history) == moves
    for viewer in VIEWERS:
        visible = state.visible_history(viewer)
        secret = _secret(state, viewer)
        assert visible == [(p, None if i in secret else a)
                           for i, (p, a) in enumerate(history)], (moves, viewer)
        # the set-up is public to all: each seat's start tile, the caller, each reveal
        assert all(a is not None for p, a in visible if p == CHANCE)


def test_the_set_up_in_the_history_matches_the_public_view():
    state, _ = _played(3, 5, 5)  # three start tiles, the caller, the first reveal
    for viewer in VIEWERS:
        visible = state.visible_history(viewer)
        obs = state.observation(viewer)
        assert [TILES[a] for _, a in visible[:3]] == obs["start_tiles"]
        assert visible[3][1] == obs["caller"]
        assert TILES[visible[4][1]] == obs["called_tile"]


def test_a_round_stays_secret_until_everyone_has_finished_it():
    """One seat places: only it knows; it scores: still only it; when the last seat finishes,
    every viewer knows every choice of the round."""
    state = meeple.load("mops_royal", players=2).new_initial_state()
    rng = random.Random(4)
    checked = 0
    while checked < 2 and not state.is_terminal():
        if state.current_player != SIMULTANEOUS or state.pending_players() != [0, 1]:
            meeple.play_out(state, rng, max_actions=1)
            continue
        start = state.move_number()
        state.apply(state.legal_actions(0)[0], 0)  # a placement
        assert state.visible_history(0)[start] == state.history()[start]
        assert state.visible_history(1)[start] == state.visible_history(None)[start] == (0, None)
        if 0 in state.pending_players():  # a combination to score: its scoring step
            state.apply(state.legal_actions(0)[-1], 0)
            assert 0 not in state.pending_players()
            assert state.visible_history(1)[start:] == [(0, None), (0, None)]
            assert state.visible_history(None)[start:] == [(0, None), (0, None)]
            assert state.visible_history(0)[start:] == state.history()[start:]
            checked += 1
        while state.current_player == SIMULTANEOUS:
            p = state.pending_players()[0]
            before = state.move_number()
            state.apply(state.legal_actions(p)[0], p)
            if state.current_player == SIMULTANEOUS:
                assert state.visible_history(0)[before] == (1, None)
                assert state.visible_history(1)[before] == state.history()[before]
        for viewer in [0, 1, None]:
            assert state.visible_history(viewer) == state.history()
    assert checked == 2


@pytest.mark.parametrize("moves", [5, 9, 14, 40])
def test_the_servers_log_names_public_tiles_and_hides_the_open_round(moves):
    state, log = _played(3, 11, moves)
    history = state.history()
    for viewer in VIEWERS:
        secret = _secret(state, viewer)
        out = views.log_json(state, log, viewer, show_all=False)
        setup = out[0]
        assert setup["n"] == 0 and setup["moves"] == 5
        assert setup["sentence"] == log[4].setup
        assert setup["text"] == "; ".join(e.text for e in log[:5])  # every outcome named
        tile = TILES[history[4][1]]
        assert setup["text"].endswith(f"reveal {tile}")
        assert setup["sentence"].endswith(f"the caller reveals {the_tile(history[4][1])}.")
        rest = out[1:]
        assert [m["n"] for m in rest] == list(range(5, moves))
        numbers = move_numbers([(e.player,) for e in log])  # as players count moves
        for m in rest:
            e = log[m["n"]]
            if m["n"] in secret:
                assert m == {"n": e.n, "player": e.player, "text": "(hidden)",
                             "sentence": e.unseen, "number": numbers[e.n]}
                assert e.sentence not in str(out) and e.text not in [x["text"] for x in out]
            else:
                assert m == {"n": e.n, "player": e.player, "text": e.text,
                             "sentence": e.sentence, "number": numbers[e.n]}
            if e.player == CHANCE:  # a reveal: which tile, to everyone
                assert m["sentence"] == f"The caller reveals {the_tile(e.action)}."
                assert m["text"] == f"reveal {TILES[e.action]}"


def test_the_start_tile_and_caller_sentences_say_whose():
    state = meeple.load("mops_royal", players=3).new_initial_state()
    for seat, tile in enumerate(("blue-pug", "yellow-pillow", "purple-can")):
        action = state.string_to_action(f"start {tile}", CHANCE)
        word = ("first", "second", "third")[seat]
        assert state.describe(CHANCE, action) == (
            f"The start tile of the {word} player in seat order is drawn and laid face up: "
            f"{the_tile(action)}.")
        state.apply(action, CHANCE)
    assert state.start == [TILES.index(t) for t in ("blue-pug", "yellow-pillow", "purple-can")]
    caller = state.legal_actions(CHANCE)[1]
    assert state.describe(CHANCE, caller) == (
        "The caller is chosen at random: the second player in seat order; the caller's stock "
        "is face down.")


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_terminal_replay_shows_each_viewer_what_they_knew(viewer):
    """Each step of ``meeple replay --viewer``: a reveal by its tile for everyone; another
    player's choice in a round still open then as "has chosen", never its sentence."""
    game = meeple.load("mops_royal", players=3)
    rng = random.Random(8)
    state = game.new_initial_state()
    texts: list[list] = []
    while state.move_number() < 30:
        cp = state.current_player
        actor = rng.choice(state.pending_players()) if cp == SIMULTANEOUS else cp
        action = (meeple.sample_chance(state, rng) if actor == CHANCE
                  else rng.choice(state.legal_actions(actor)))
        texts.append([actor, state.action_to_string(action, actor)])
        state.apply(action, actor)
    record = state.game.record(state)
    assert [list(m) for m in record["moves"]] == texts
    names = ["Ann", "Bo", "Cy"]
    for n in range(1, len(texts) + 1):
        now = meeple.replay(record, upto=n)
        before = meeple.replay(record, upto=n - 1)
        line = cli.move_line(now, record, viewer, names, before)
        assert line is not None
        player, text = texts[n - 1]
        action = before.string_to_action(text, player)
        if n - 1 in _secret(now, viewer):
            assert line.endswith("has chosen") and text not in line, (n, line)
            assert before.describe(player, action) not in line
        else:
            sentence = before.describe(player, action)
            assert sentence in line and f"({text})" in line, (n, line)
            if player == CHANCE and n > 4:  # the start tiles and the reveals by name
                assert "A hidden draw." not in line
                assert TILES[action] in text and the_tile(action) in line
