"""The arena: seat rotation, statistics, records, results, plot, process pool and Ray."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

import meeple
from meeple.arena import lineups, play_game, run_arena, wilson_interval
from meeple.engine import registry
from tests.adapters.games import TINY


def test_lineups_rotate_seats_fairly():
    assert lineups(2, 2) == [(0, 1), (1, 0)]
    assert sorted(lineups(3, 3)) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    four_in_two = lineups(4, 2)
    assert len(four_in_two) == 12 and len(set(four_in_two)) == 12
    for seat in range(2):  # every bot sits in every seat equally often
        assert set(Counter(l[seat] for l in four_in_two).values()) == {3}
    three_of_two = lineups(2, 3)
    assert all(sorted(Counter(l).values()) == [1, 2] for l in three_of_two)
    with pytest.raises(meeple.OptionError):
        lineups(0, 2)


def test_wilson_interval():
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    lo, hi = wilson_interval(200, 200)
    assert hi == 1.0 and lo == pytest.approx(0.9812, abs=1e-4)


def test_play_game_gives_a_replayable_record():
    record = play_game(TINY, 2, {"rounds": 3}, ["random", "greedy"], seed=4, index=0)
    state = meeple.replay(json.loads(json.dumps(record)))
    assert state.is_terminal() and state.returns() == record["returns"]
    assert record["meta"]["seats"] == ["random", "greedy"]
    assert len(record["meta"]["think_seconds"]) == 2


def test_run_arena_writes_records_results_and_plot(tmp_path):
    result = run_arena(TINY, ["mcts:2", "random"], 10, None, 1, None, tmp_path, 3, {}, False)
    assert result.players == 2 and result.games == 10
    assert [r.games for r in result.results] == [10, 10]
    wins = sum(r.wins for r in result.results)
    assert wins == pytest.approx(10)  # ties are shared
    for r in result.results:
        assert 0 <= r.ci_low <= r.win_rate <= r.ci_high <= 1
    games = sorted((tmp_path / "games").glob("*.json"))
    assert len(games) == 10
    seats = Counter(tuple(json.loads(p.read_text())["meta"]["seats"]) for p in games)
    assert seats == {("mcts:2", "random"): 5, ("random", "mcts:2"): 5}
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["games"] == 10 and {r["bot"] for r in saved["results"]} == {"mcts:2", "random"}
    assert saved["head_to_head"]["mcts:2"]["random"]["games"] == 10
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    # the strong bot is rated above the random one
    assert result.result("mcts:2").rating_mu > result.result("random").rating_mu - 1


def test_process_pool_gives_the_same_games(tmp_path):
    one = run_arena(TINY, ["greedy", "random"], 6, 2, 1, None, tmp_path / "a", 11, {}, False)
    two = run_arena(TINY, ["greedy", "random"], 6, 2, 2, None, tmp_path / "b", 11, {}, False)
    assert [r.wins for r in one.results] == [r.wins for r in two.results]
    for p in (tmp_path / "a" / "games").glob("*.json"):
        twin = tmp_path / "b" / "games" / p.name
        assert json.loads(p.read_text())["moves"] == json.loads(twin.read_text())["moves"]


def test_bad_settings_are_refused_before_any_game(tmp_path):
    with pytest.raises(meeple.OptionError, match="no bot named"):
        run_arena(TINY, ["random", "nobody"], 4, 2, 1, None, tmp_path, 0, {}, False)
    with pytest.raises(meeple.OptionError, match="games"):
        run_arena(TINY, ["random"], 0, 2, 1, None, tmp_path, 0, {}, False)
    with pytest.raises(meeple.OptionError, match="players"):
        run_arena(TINY, ["random"], 2, 5, 1, None, tmp_path, 0, {}, False)
    with pytest.raises(meeple.OptionError, match="rounds"):
        run_arena(TINY, ["random"], 2, 2, 1, None, tmp_path, 0, {"rounds": 9}, False)
    assert not list((tmp_path).glob("games/*.json"))


def test_arena_command(tmp_path):
    import typer

    from meeple.arena.command import arena

    app = typer.Typer()
    app.command()(arena)
    runner = CliRunner()
    out = tmp_path / "run"
    res = runner.invoke(app, [TINY, "--bots", "greedy,random", "--games", "4", "--workers", "1",
                              "--out", str(out), "--option", "rounds=2", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "win rate" in res.output and "greedy" in res.output
    assert json.loads((out / "results.json").read_text())["options"] == {"rounds": 2}
    res = runner.invoke(app, [TINY, "--bots", "nobody", "--out", str(out)])
    assert res.exit_code == 2 and "no bot named" in res.output


@pytest.mark.slow
def test_ray_backend_on_a_local_instance(tmp_path, monkeypatch):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    import ray

    result = run_arena("koplus" if "koplus" in registry.games() else TINY,
                       ["greedy", "random"], 4, 2, 2, "local", tmp_path, 5, {}, False)
    assert result.games == 4 and len(list((tmp_path / "games").glob("*.json"))) == 4
    assert not ray.is_initialized()
