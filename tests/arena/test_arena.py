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
    from meeple.cli import app

    runner = CliRunner()
    out = tmp_path / "run"
    res = runner.invoke(app, ["arena", TINY, "--bots", "greedy,random", "--games", "4",
                              "--workers", "1", "-o", str(out), "-O", "rounds=2",
                              "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "win rate" in res.output and "greedy" in res.output and "mean rank" in res.output
    assert json.loads((out / "results.json").read_text())["options"] == {"rounds": 2}
    # the same game options as play: --option key=value and --key value
    res = runner.invoke(app, ["arena", TINY, "--bots", "greedy,random", "--games", "2",
                              "--workers", "1", "--out", str(out), "--rounds", "3",
                              "--no-progress"])
    assert res.exit_code == 0, res.output
    assert json.loads((out / "results.json").read_text())["options"] == {"rounds": 3}
    res = runner.invoke(app, ["arena", TINY, "--bots", "nobody", "--out", str(out)])
    assert res.exit_code == 2 and "no bot named" in res.output


def test_arena_and_play_share_the_option_parser(tmp_path):
    """--mode, --option/-O and case-insensitive names with a "did you mean" in both."""
    from meeple.cli import app

    runner = CliRunner()
    for command in (["arena"], ["play"]):
        tail = ["--bots", "random,random", "--games", "2", "--workers", "1", "--no-progress",
                "-o", str(tmp_path / "x")] if command == ["arena"] else \
            ["--seats", "random,random", "--json"]
        res = runner.invoke(app, [*command, "KONTOR", "--mode", "advanced", *tail])
        assert res.exit_code == 0, res.output
        res = runner.invoke(app, [*command, "Kontor", "-O", "mode=advanced", *tail])
        assert res.exit_code == 0, res.output
        res = runner.invoke(app, [*command, "kontr", *tail])
        assert res.exit_code == 2 and "did you mean 'kontor'?" in res.output, res.output
        res = runner.invoke(app, [*command, "botanik", "--mode", "advanced", *tail])
        assert res.exit_code == 2 and "Botanik has no modes" in res.output, res.output
    saved = json.loads((tmp_path / "x" / "results.json").read_text())
    assert saved["options"]["mode"] == "advanced"


def test_bots_that_do_not_fit_the_seats_are_refused(tmp_path):
    bots = ["random", "greedy", "mcts:1", "mcts:2", "random"]
    with pytest.raises(meeple.OptionError, match="5 bots do not fit .* 2 players"):
        run_arena(TINY, bots, 40, None, 1, None, tmp_path, 0, {}, False)
    # more bots than seats: only with games enough for every pairing in every seat order
    with pytest.raises(meeple.OptionError, match="takes 20 games"):
        run_arena(TINY, bots, 10, 2, 1, None, tmp_path, 0, {}, False)
    result = run_arena(TINY, bots[:3], 6, 2, 1, None, tmp_path, 0, {"rounds": 1}, False)
    assert [r.games for r in result.results] == [4, 4, 4]
    assert not list((tmp_path).glob("games/*.json"))[6:]


def test_game_counts_count_games_not_seats(tmp_path):
    """One bot against itself: --games 2 is 2 games for it (4 seats), and its seats win
    half the time (a shared win counts as a share)."""
    result = run_arena(TINY, ["random"], 2, 2, 1, None, tmp_path, 0, {}, False)
    (r,) = result.results
    assert result.games == 2 and r.games == 2 and r.seats == 4
    assert r.win_rate == pytest.approx(0.5) and r.wins == pytest.approx(2)
    assert r.mean_rank >= 1
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["results"][0]["games"] == 2


def test_three_players_show_win_rates_and_mean_ranks_not_head_to_head(tmp_path):
    from rich.console import Console

    from meeple.arena.command import head_to_head_table, result_table

    result = run_arena("koplus", ["random", "greedy", "random"], 3, None, 1, None, tmp_path, 2,
                       {}, False)
    assert result.players == 3
    for r in result.results:
        ranks = []
        for p in sorted((tmp_path / "games").glob("*.json")):
            record = json.loads(p.read_text())
            returns = record["returns"]
            for s, bot in enumerate(record["meta"]["seats"]):
                label = r.bot.split("#")[0]
                if bot == label:
                    ranks.append(1 + sum(x > returns[s] for x in returns))
        if "#" not in r.bot:
            assert r.mean_rank == pytest.approx(sum(ranks) / len(ranks))
    pairs = result.head_to_head["greedy"]["random#1"]
    assert "win_rate" not in pairs and 0 <= pairs["ahead_rate"] <= 1
    console = Console(width=200, color_system=None)
    with console.capture() as out:
        console.print(result_table(result))
        console.print(head_to_head_table(result))
    text = out.get()
    assert "mean rank" in text and "win rate" in text
    assert "row finished above column" in text and "win rate against" not in text


def test_ctrl_c_stops_the_workers_and_keeps_what_was_played(tmp_path):
    """Ctrl-C (SIGINT to the terminal's process group): the workers stop at once, the games
    played so far are written with their results, ratings and a note, and the arena exits
    without drawing the plot (importing matplotlib and drawing take seconds)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    def waited(condition, what: str, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, what
            time.sleep(0.2)

    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", "arena", "kontor", "--bots", "random,mcts:3",
         "--games", "40", "--workers", "2", "--out", str(out), "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        waited(lambda: list((out / "games").glob("*.json")), "no game finished")
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)  # a hang, not a slow exit, fails here
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr
    waited(lambda: subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True,
                                  text=True).stdout.strip() == "", "workers still running")
    saved = json.loads((out / "results.json").read_text())
    records = list((out / "games").glob("*.json"))
    assert saved["interrupted"] is True and saved["games_planned"] == 40
    assert saved["games"] == len(records) < 40
    assert len(saved["rating_history"]["random"]) == len(records) + 1  # from the start
    assert not (out / "ratings.png").exists() and "ratings.png" not in stdout
    assert f"{len(records)} of 40 games" in stdout


def test_an_unreachable_ray_address_is_refused_before_ray_starts(tmp_path):
    """Nothing listens: refused by meeple's own check of the address, which gives up after
    RAY_TIMEOUT seconds, before Ray (whose client tries for 20 s or more) is started."""
    with pytest.raises(meeple.OptionError,
                       match=r"no Ray cluster answers at 127\.0\.0\.1:1 \(connection refused"):
        run_arena(TINY, ["random"], 2, 2, 1, "127.0.0.1:1", tmp_path, 0, {}, False)


@pytest.mark.slow
def test_ray_backend_on_a_local_instance(tmp_path, monkeypatch):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    import ray

    result = run_arena("koplus" if "koplus" in registry.games() else TINY,
                       ["greedy", "random"], 4, 2, 2, "local", tmp_path, 5, {}, False)
    assert result.games == 4 and len(list((tmp_path / "games").glob("*.json"))) == 4
    assert not ray.is_initialized()


def test_a_ray_address_that_answers_but_is_no_cluster_is_refused_in_seconds(tmp_path):
    """An address that takes the connection but is no Ray cluster: a message once meeple's own
    check has waited RAY_TIMEOUT seconds for Ray's answer (Ray itself tries for 20 or more), no
    traceback, no log lines from Ray."""
    import socket
    import threading

    from meeple.arena.core import RAY_TIMEOUT

    pytest.importorskip("ray")
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    threading.Thread(target=lambda: [server.accept() for _ in range(50)], daemon=True).start()
    try:
        with pytest.raises(meeple.OptionError, match=rf"no Ray cluster answers at 127\.0\.0\.1:"
                           rf"{port} \(no answer within {RAY_TIMEOUT:g} s\)"):
            run_arena(TINY, ["random"], 2, 2, 1, f"127.0.0.1:{port}", tmp_path, 0, {}, False)
    finally:
        server.close()
