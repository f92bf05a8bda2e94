"""The ladder of bot levels: ordered, buildable in every game, old specs placed on it, and
measured (``meeple/bots/ladder.json`` matches the ladder and every step beats the one below)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import meeple
from meeple.arena import run_arena, wilson_interval
from meeple.bots import MCTSBot, bot_choices, bot_name, bot_names, levels, make_bot, view_for
from meeple.bots.levels import DEFAULT, LADDER, OLD_SPECS, adjacent_pairs, step_of
from meeple.engine import OptionError
from meeple.engine.registry import game_class
from tests.adapters.games import TINY

GAMES = ("koplus", "kontor", "mops_royal", "botanik", "kozo")
LADDER_JSON = Path(levels.__file__).with_name("ladder.json")


def _game(name: str) -> meeple.Game:
    counts = game_class(name).player_counts
    return meeple.load(name, players=2 if 2 in counts else None)


def test_the_ladder_is_ordered_random_first_then_greedy_then_searches():
    kinds = [s.kind for s in LADDER]
    assert kinds[:2] == ["random", "greedy"] and set(kinds[2:]) == {"search"}
    assert len(LADDER) >= 4
    assert [s.spec for s in LADDER][:2] == ["random", "greedy"]
    for game in (*GAMES, TINY):
        budgets = [s.budget(game) for s in LADDER if s.kind == "search"]
        assert all(0 < a < b for a, b in zip(budgets, budgets[1:], strict=False)), game
    for s in LADDER:
        if s.kind == "search":
            assert DEFAULT in s.iterations and set(s.iterations) - {DEFAULT} <= set(GAMES)


def test_choices_name_each_step_in_plain_words_weakest_first():
    choices = bot_choices()
    assert [c["step"] for c in choices] == list(range(1, len(LADDER) + 1))
    assert [c["spec"] for c in choices] == [s.spec for s in LADDER]
    assert bot_names()[: len(LADDER)] == [s.spec for s in LADDER]
    names = [str(c["name"]) for c in choices]
    assert len(set(names)) == len(names)
    for c in choices:
        name, text = str(c["name"]), str(c["description"])
        assert name[0].isupper() and name.replace(" ", "").isalpha()
        assert text[0].isupper() and text.endswith(".") and len(text) < 90
        for word in ("mcts", "greedy", "iteration", "spec", "_"):
            assert word not in text.lower() and word not in name.lower()


@pytest.mark.parametrize("game_name", [*GAMES, TINY])
def test_every_step_builds_in_every_game_with_a_fixed_budget(game_name):
    game = _game(game_name)
    for step in LADDER:
        bot = make_bot(step.spec, game, seed=3)
        assert bot.name == step.spec
        if step.kind == "search":
            assert isinstance(bot, MCTSBot)
            assert bot.iterations == step.budget(game_name) > 0
            assert bot.seconds == 0 and bot.mistakes == 0  # no wall-clock budget, no slips
            assert bot.time_limit is None


def test_every_step_plays_legal_moves_to_the_end():
    game = meeple.load(TINY)
    for step in LADDER:
        bots = [make_bot(step.spec, game, seed=p) for p in range(game.num_players)]
        seen: list[int] = []

        def policy(state, p, rng, bots=bots, seen=seen):
            view = view_for(state, p)
            a = bots[p].act(view)
            assert a in view.legal_actions
            seen.append(a)
            return a

        state = meeple.play_out(game.new_initial_state(), random.Random(1), policy=policy)
        assert state.is_terminal() and seen


def test_a_search_step_searches_its_budget_exactly():
    game = _game("koplus")
    step = LADDER[2]
    bot = make_bot(step.spec, game, seed=1)
    assert isinstance(bot, MCTSBot)
    state = game.new_initial_state()
    while state.current_player < 0 or len(state.legal_actions(state.current_player)) < 2:
        meeple.play_out(state, random.Random(0), max_actions=1)
    bot.act(view_for(state, state.current_player))
    assert bot.last_iterations == step.budget("koplus")


def test_old_specs_build_the_old_levels_and_stand_on_the_ladder():
    game = meeple.load(TINY)
    for level in range(1, 6):
        bot = make_bot(f"mcts:{level}", game, seed=0)
        assert isinstance(bot, MCTSBot) and bot.level == level and bot.name == f"mcts:{level}"
    assert set(OLD_SPECS) == {"mcts", "mcts:1", "mcts:2", "mcts:3", "mcts:4", "mcts:5"}
    order = [s.spec for s in LADDER]
    placed = [order.index(OLD_SPECS[f"mcts:{k}"]) for k in range(1, 6)]
    assert placed == sorted(placed)  # a higher old level never stands lower
    assert step_of("mcts:3") is LADDER[1] and bot_name("mcts:3") == "Casual"
    assert step_of("mcts") is step_of("mcts:5")
    assert step_of("random") is LADDER[0] and bot_name("greedy") == LADDER[1].name
    for s in LADDER:
        assert step_of(s.spec) is s and bot_name(s.spec) == s.name
    assert bot_name("patient") is None and bot_name(None) is None and step_of("") is None


def test_unknown_levels_are_refused_with_the_known_ones():
    game = meeple.load(TINY)
    for bad in ("mcts:grandmaster", "mcts:6", "deep"):
        with pytest.raises(OptionError) as e:
            make_bot(bad, game)
        if bad != "mcts:6":
            assert "mcts:expert" in str(e.value)


def _recorded() -> dict:
    return json.loads(LADDER_JSON.read_text())


def test_ladder_json_measures_this_ladder_in_every_game():
    data = _recorded()
    assert data["players"] == 2
    assert data["ladder"] == [s.spec for s in LADDER]
    assert set(data["games"]) == set(GAMES)
    for game, entry in data["games"].items():
        pairs = entry["pairs"]
        assert [(p["lower"], p["upper"]) for p in pairs] == [
            (a.spec, b.spec) for a, b in adjacent_pairs()], game
        for p, (lower, upper) in zip(pairs, adjacent_pairs(), strict=True):
            # a budget changed since the measure makes this fail: measure again
            assert p["lower_iterations"] == lower.budget(game), (game, lower.spec)
            assert p["upper_iterations"] == upper.budget(game), (game, upper.spec)
            assert p["games"] >= 100
            assert 0 <= p["upper_wins"] and 0 <= p["draws"]
            assert p["upper_wins"] + p["draws"] <= p["games"]


def test_ladder_json_every_step_beats_the_one_below():
    for game, entry in _recorded()["games"].items():
        for p in entry["pairs"]:
            points = p["upper_wins"] + p["draws"] / 2
            assert points > p["games"] / 2, (game, p)
            low, _ = wilson_interval(points, p["games"])
            assert low > 0.5, (game, p)  # the 95% interval stands above one half


def test_ladder_json_every_search_step_answers_within_two_seconds():
    """The CPU time per move recorded for each search step (one core of this machine)."""
    for game, entry in _recorded()["games"].items():
        cpu: dict[str, list[float]] = {}
        for p in entry["pairs"]:
            for side in ("lower", "upper"):
                if f"{side}_cpu_seconds_per_move" in p:
                    cpu.setdefault(p[side], []).append(p[f"{side}_cpu_seconds_per_move"])
        for step in LADDER:
            if step.kind == "search":
                assert cpu.get(step.spec), (game, step.spec)  # measured at least once
                assert all(0 < t < 2.0 for t in cpu[step.spec]), (game, step.spec, cpu)


def test_arena_records_thinking_time_in_cpu_seconds(tmp_path):
    result = run_arena(TINY, ["greedy", LADDER[2].spec], 4, None, 1, None, tmp_path, 1, {},
                       False)
    record = json.loads(next((tmp_path / "games").glob("*.json")).read_text())
    assert len(record["meta"]["think_cpu_seconds"]) == 2
    assert all(t >= 0 for t in record["meta"]["think_cpu_seconds"])
    search = result.result(LADDER[2].spec)
    assert search.cpu_seconds_per_move > 0 and search.seconds_per_move > 0
