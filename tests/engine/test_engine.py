"""The engine contract on a small game of the test suite's own: chance, simultaneous nodes,
errors that leave the state unchanged, records and replay."""

from __future__ import annotations

import random

import pytest

import meeple
from meeple.engine import registry
from meeple.engine.core import play_out

from .tinygame import register_tiny


@pytest.fixture(autouse=True)
def _registered():
    register_tiny()
    yield
    registry._GAMES.pop("sealed_bids", None)


def fresh():
    return meeple.load("sealed_bids").new_initial_state()


def test_options_are_validated_with_clear_messages():
    with pytest.raises(meeple.OptionError, match="unknown option 'foo'.*rounds"):
        meeple.load("sealed_bids", foo=1)
    with pytest.raises(meeple.OptionError, match=r"must be a whole number \(int\).*str"):
        meeple.load("sealed_bids", rounds="2")
    with pytest.raises(meeple.OptionError, match="allowed: 1, 2, 3"):
        meeple.load("sealed_bids", rounds=7)
    with pytest.raises(meeple.OptionError, match="3 players.*allowed: 2"):
        meeple.load("sealed_bids", players=3)
    with pytest.raises(meeple.OptionError, match="no game named 'chess'"):
        meeple.load("chess")
    assert meeple.load("sealed_bids", rounds=2).options == {"rounds": 2}


def test_chance_node_and_outcomes():
    s = fresh()
    assert s.current_player == meeple.CHANCE
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [0, 1, 2]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    s.apply(1)
    assert s.current_player == meeple.SIMULTANEOUS
    assert s.chance_outcomes() == []


def test_simultaneous_node_any_order_and_hidden_choice():
    s = fresh()
    s.apply(2)
    assert s.pending_players() == [0, 1]
    assert s.legal_actions(0) == [0, 1, 2]
    before = s.observation(0)
    s.apply(0, player=1)  # player 1 bids first
    assert s.pending_players() == [0]
    assert s.legal_actions(1) == []
    after = s.observation(0)
    # player 0 sees only that player 1 has bid, not what
    assert after["hand"] == before["hand"]
    assert "bids" not in after and after["has_bid"] == [False, True]
    s.apply(2, player=0)
    assert s.current_player == meeple.CHANCE
    assert s.scores() == [3.0, 0.0]


def test_illegal_actions_are_refused_and_state_unchanged():
    s = fresh()
    s.apply(0)
    s.apply(0, player=0)
    snapshot = meeple.load("sealed_bids").record(s)
    with pytest.raises(meeple.IllegalAction, match="player 0 has nothing to choose"):
        s.apply(1, player=0)
    with pytest.raises(meeple.IllegalAction, match="no such action id"):
        s.apply(9, player=1)
    with pytest.raises(meeple.IllegalAction, match="an action is an int"):
        s.apply("bid 1", player=1)
    with pytest.raises(ValueError, match="say which player"):
        fresh_s = fresh()
        fresh_s.apply(0)
        fresh_s.apply(1)
    assert meeple.load("sealed_bids").record(s) == snapshot
    with pytest.raises(meeple.NotationError, match="expected 'bid N'"):
        s.string_to_action("bet 4", player=1)


def test_play_out_record_replay_roundtrip():
    game = meeple.load("sealed_bids")
    for seed in range(20):
        s = play_out(game.new_initial_state(), random.Random(seed))
        assert s.is_terminal()
        rec = game.record(s)
        again = meeple.replay(rec)
        assert again.history() == s.history()
        assert again.scores() == s.scores()
        assert again.returns() == s.returns()
        assert sum(s.returns()) == pytest.approx(0.0)
        assert set(s.winners()) <= {0, 1}


def test_replay_refuses_other_versions_and_bad_moves():
    game = meeple.load("sealed_bids")
    rec = game.record(play_out(game.new_initial_state(), 1))
    with pytest.raises(meeple.RecordError, match="version 0.*version 1"):
        meeple.replay({**rec, "version": "0"})
    bad = {**rec, "moves": [[-1, "prize 1"], [0, "bid 9"]]}
    with pytest.raises(meeple.RecordError, match="move 2"):
        meeple.replay(bad)


def test_resample_agrees_with_the_observation():
    rng = random.Random(3)
    for seed in range(30):
        s = fresh()
        play_out(s, random.Random(seed), max_actions=rng.randrange(1, 6))
        for p in (0, 1):
            r = s.resample(p, rng)
            assert r.observation(p) == s.observation(p)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": 2}, "format 2 is not one this meeple reads"),
        ({"format": True}, "format True"),
        ({"game": 7}, "'game' must be a name"),
        ({"players": "2"}, "'players' must be a player count"),
        ({"players": True}, "'players' must be a player count"),
        ({"options": []}, "'options' must be an object"),
        ({"moves": {}}, "'moves' must be a list"),
        ({"moves": [[-1]]}, "move 1 must be \\[player, notation\\]"),
        ({"moves": [["x", "y"]]}, "move 1 must be"),
        ({"moves": [[0, 5]]}, "move 1 must be"),
        ({"terminal": "yes"}, "'terminal' must be true or false"),
        ({"scores": [1]}, "'scores' has 1 entries for 2 players"),
        ({"scores": [float("nan"), 1]}, "'scores' must be a list of numbers"),
        ({"winners": "0"}, "'winners' must be a list of whole numbers"),
        ({"meta": []}, "'meta' must be an object"),
        ({"meta": {"seats": "ab"}}, "meta 'seats' must be 2 names"),
        ({"meta": {"seats": ["a"]}}, "meta 'seats' must be 2 names"),
    ],
)
def test_records_of_the_wrong_shape_are_refused_with_a_reason(change, message):
    good = meeple.load("sealed_bids").record(play_out(fresh(), 3), seats=["Ann", "Bob"])
    assert meeple.replay(good).is_terminal()
    with pytest.raises(meeple.RecordError, match=message):
        meeple.replay({**good, **change})
    for missing in ("game", "version", "players", "options", "moves"):
        broken = {k: v for k, v in good.items() if k != missing}
        with pytest.raises(meeple.RecordError, match=f"has no '{missing}'"):
            meeple.replay(broken)
    with pytest.raises(meeple.RecordError, match="a record is a JSON object, got list"):
        meeple.replay([good])  # type: ignore[arg-type]
