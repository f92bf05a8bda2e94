"""How long the review of a typical 2-player game of each title takes on one core (the games
played by two level-3 search bots): wall time and this process's CPU time (the figure for one
core to itself on a busy machine), and the longest hint at a few positions. Prints figures;
never fails.

``--served``: what a player meets on a server (in this process, on a SQLite file): a game
against the Expert bot played at a player's pace (each move after the estimates of the
positions so far are stored, or after ``--think`` seconds at most), then the wall time from
the game's end to its review open; then hints at another table while the review of a game
played without estimates (one from before) is worked out on demand, and their wall times
(and the longest a hint took in its process, ``made``: the rest is waiting for one). Each
title and player count is played by a guest of its own, and a request the server's rate
limits refuse is asked again after the wait it names (``refused``: how many times; the
wait is not in the hint's time), as a player would.

    .venv/bin/python benchmarks/review.py [--games NAME ...] [--hints N]
    .venv/bin/python benchmarks/review.py --served [--players 2 4] [--think 8] [--games ...]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import meeple
from meeple.bots import make_bot, seats_policy
from meeple.bots.hint import hint
from meeple.bots.review import iterations_for, review


def typical_game(name: str, seed: int) -> meeple.State:
    """A finished 2-player game of ``name`` between two level-3 search bots."""
    game = meeple.load(name, 2)
    state = game.new_initial_state()
    bots = [make_bot("mcts:3", game, seed=seed), make_bot("mcts:3", game, seed=seed + 1)]
    meeple.play_out(state, random.Random(seed), seats_policy(bots))
    return state


# ---------------------------------------------------------------------- on a server
def _served_table(client: Any, name: str, players: int, bot: str) -> str:
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": bot}] * (players - 1)
    r = client.post("/api/tables", json={"game": name, "players": players, "seats": seats})
    assert r.status_code == 201, r.text
    return str(r.json()["table"]["id"])


def _turn(client: Any, tid: str) -> dict[str, Any]:
    while True:
        f: dict[str, Any] = client.get(f"/api/tables/{tid}/frame?seat=0").json()
        if f["status"] != "running" or (f["actions"] and 0 in f["to_move"]):
            return f
        time.sleep(0.01)


def _caught_up(app: Any, tid: str, views: list[int | None]) -> bool:
    """Whether every view's estimates of the table's positions so far are stored."""
    from meeple.bots.review import charted, info_key

    lt = app.state.services.tables.tables.get(tid)
    if lt is None:
        return True
    need = len(charted([(e.player, e.action) for e in lt.log]))
    for seat in views:
        job = app.state.reviews.store.get(tid, info_key(lt.game, seat))
        if job is None or job.done < need:
            return False
    return True


def _play(client: Any, tid: str, rng: random.Random, think: float | None,
          views: list[int | None]) -> tuple[float, int, int]:
    """Play seat 0's random moves to the end: after the estimates caught up (or ``think``
    seconds; ``None``: at once). The time the end was seen, the moves played, and how many
    times the player moved before the estimates caught up."""
    behind = moves = 0
    while True:
        f = _turn(client, tid)
        if f["status"] != "running":
            return time.perf_counter(), moves, behind
        if think is not None:
            end = time.perf_counter() + think
            while not _caught_up(client.app, tid, views):
                if time.perf_counter() > end:
                    behind += 1
                    break
                time.sleep(0.05)
        r = client.post(f"/api/tables/{tid}/act", json={
            "seat": 0, "action": rng.choice(f["actions"])["action"],
            "move_number": f["move_number"]})
        assert r.status_code == 200, r.text
        moves += 1


def _asked(client: Any, method: str, url: str, **kw: Any) -> tuple[Any, float, int]:
    """``client``'s answer to ``method`` ``url``, its wall time, and how many times the
    server's rate limits refused it first (each time asked again after the ``Retry-After``
    seconds it named)."""
    refused = 0
    while True:
        t = time.perf_counter()
        r = client.request(method, url, **kw)
        wall = time.perf_counter() - t
        if r.status_code != 429:
            return r, wall, refused
        refused += 1
        time.sleep(float(r.headers.get("Retry-After") or 1))


def served(names: list[str], counts: list[int], think: float, hints: int, bot: str) -> None:
    """The served figures (see the module's doc)."""
    import tempfile

    from fastapi.testclient import TestClient

    from meeple.bots.review import views as views_of
    from meeple.server import create_app

    print(f"{'game':<11} {'pl':>2} {'moves':>5} {'behind':>6} {'end->open s':>11} "
          f"{'hint max s':>10} {'hint mean s':>11} {'review busy':>11} {'made max s':>10} "
          f"{'refused':>7}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/bench.db", warm_bots=True)
        with TestClient(app) as client:
            reviews = app.state.reviews
            tables = app.state.services.tables
            for name in names:
                for players in counts:
                    try:
                        game = meeple.load(name, players)
                    except Exception:
                        continue  # not a player count of this game
                    views = views_of(game)
                    # a new guest (Ann, Ann2, ...): one player's rate limits per table group
                    client.cookies.clear()
                    r, _wall, refused = _asked(client, "POST", "/api/guest", json={"name": "Ann"})
                    assert r.status_code == 200, r.text
                    seat = None if game.perfect_information else 0
                    q = f"?seat={seat}" if seat is not None else ""
                    rng = random.Random(5)
                    tid = _served_table(client, name, players, bot)
                    ended, moves, behind = _play(client, tid, rng, think, views)
                    r, _wall, n = _asked(client, "POST", f"/api/tables/{tid}/review{q}")
                    body, refused = r.json(), refused + n  # the page opens
                    while body["status"] != "done":
                        time.sleep(0.02)
                        body = client.get(f"/api/tables/{tid}/review{q}").json()
                    opened = time.perf_counter() - ended
                    # a game from before (no estimates in play), reviewed on demand, while
                    # hints are asked for at another table
                    tables.on_change = None
                    old = _served_table(client, name, players, "greedy")
                    _play(client, old, rng, None, views)
                    tables.on_change = reviews.changed
                    now = _served_table(client, name, players, bot)
                    r, _wall, n = _asked(client, "POST", f"/api/tables/{old}/review{q}")
                    assert r.status_code == 200, r.text
                    refused += n
                    walls, own, busy = [], [], 0
                    for _ in range(hints):
                        f = _turn(client, now)
                        if f["status"] != "running":
                            break
                        running = client.get(f"/api/tables/{old}/review{q}").json()
                        busy += running["status"] == "running"
                        h, wall, n = _asked(client, "GET", f"/api/tables/{now}/hint?seat=0")
                        assert h.status_code == 200, h.text
                        walls.append(wall)
                        refused += n
                        own.append(float(h.json()["seconds"]))
                        client.post(f"/api/tables/{now}/act", json={
                            "seat": 0, "action": h.json()["action"],
                            "move_number": f["move_number"]})
                    if client.get(f"/api/tables/{now}/frame?seat=0").json()["status"] == \
                            "running":  # a guest's address has room for 6 tables with bots
                        client.post(f"/api/tables/{now}/resign", json={"seat": 0})
                    mean = sum(walls) / max(1, len(walls))
                    print(f"{name:<11} {players:>2} {moves:>5} {behind:>6} {opened:>11.2f} "
                          f"{max(walls, default=0):>10.2f} {mean:>11.2f} "
                          f"{busy:>5}/{len(walls):<5} {max(own, default=0):>10.2f} "
                          f"{refused:>7}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=meeple.games())
    parser.add_argument("--hints", type=int, default=5, help="hints timed per game")
    parser.add_argument("--served", action="store_true", help="the figures on a server")
    parser.add_argument("--players", type=int, nargs="*", default=[2])
    parser.add_argument("--think", type=float, default=8.0,
                        help="served: the longest a player thinks before each move (s)")
    parser.add_argument("--bot", default="mcts:expert", help="served: the opponents' bot")
    args = parser.parse_args()
    if args.served:
        served(args.games, args.players, args.think, args.hints, args.bot)
        return
    print(f"{'game':<11} {'moves':>5} {'points':>6} {'iters':>5} {'review s':>9} "
          f"{'cpu s':>7} {'hint max s':>10}")
    for name in args.games:
        final = typical_game(name, 7)
        viewer = None if final.game.perfect_information else 0
        t, cpu = time.perf_counter(), time.process_time()
        r = review(final, viewer)
        took, cpu = time.perf_counter() - t, time.process_time() - cpu
        # hints at a few positions of the same game
        history = final.history()
        worst = 0.0
        rng = random.Random(3)
        for _ in range(args.hints):
            state = final.game.new_initial_state()
            stop = rng.randrange(len(history))
            for p, a in history[:stop]:
                state.apply(a, p)
            if state.current_player == meeple.CHANCE:
                continue
            seat = state.pending_players()[0]
            h = hint(state, seat)
            worst = max(worst, h.seconds)
        print(f"{name:<11} {len(history):>5} {len(r.points):>6} {iterations_for(final.game):>5} "
              f"{took:>9.1f} {cpu:>7.1f} {worst:>10.2f}")


if __name__ == "__main__":
    main()
