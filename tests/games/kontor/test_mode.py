"""Kontor's game follows the player count unless it is set by hand: 2 players play the basic
game, 3 or 4 the expansion; a game that does not fit the count is refused, saying which fits."""

from __future__ import annotations

import pytest

import meeple
from meeple.games.kontor.rules import Kontor


@pytest.mark.parametrize(("players", "mode"), [(2, "basic"), (3, "expansion"), (4, "expansion")])
def test_the_default_mode_follows_the_player_count(players, mode):
    g = meeple.load("kontor", players=players)
    assert g.options["mode"] == mode and g.mode == mode
    assert g == meeple.load("kontor", players=players, mode=mode)
    assert Kontor.option("mode").default is None


def test_the_default_for_three_and_four_is_the_whole_expansion():
    for n, cut, size in [(3, "largest_7", 8), (4, "largest_9", 9)]:
        g = meeple.load("kontor", players=n)
        assert g.expansion and g.special and g.triple_removed and g.has_ship
        assert g.options["scored_areas"] == cut and g.N == size
    g = meeple.load("kontor", players=2)
    assert not g.expansion and not g.has_ship and g.N == 6


def test_a_mode_set_by_hand_is_kept():
    assert meeple.load("kontor", players=2, mode="advanced").options["mode"] == "advanced"


@pytest.mark.parametrize(("players", "mode", "reason"), [
    (3, "basic", "Kontor's basic game is for 2 players; with 3 players play the expansion"),
    (4, "advanced", "Kontor's advanced game is for 2 players; with 4 players play the "
                    "expansion"),
    (2, "expansion", "Kontor's expansion is for 3 or 4 players; with 2 players play the "
                     "basic or the advanced game"),
])
def test_a_mode_that_does_not_fit_the_count_is_refused_with_the_reason(players, mode, reason):
    with pytest.raises(meeple.OptionError) as e:
        meeple.load("kontor", players=players, mode=mode)
    assert str(e.value) == reason


def test_a_record_replays_with_the_mode_the_count_chose():
    g = meeple.load("kontor", players=3)
    s = g.new_initial_state()
    record = g.record(s)
    assert record["options"]["mode"] == "expansion"
    assert meeple.replay(record).game == g
