"""Matches, statistics and ratings of the arena (see :mod:`meeple.arena`)."""

from __future__ import annotations

import itertools
import json
import logging
import math
import os
import random
import signal
import socket
import sys
import time
import zlib
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from meeple.bots import make_bot, view_for
from meeple.engine import OptionError, State, play_out
from meeple.engine.i18n import words
from meeple.engine.registry import game_class, load

_, _n = words(__file__)


# -- match making -----------------------------------------------------------------------------


def lineups(num_bots: int, players: int) -> list[tuple[int, ...]]:
    """The seatings the arena cycles through: bot indices per seat, seat order rotated.

    As many bots as players: every rotation of the line-up. More bots than players: every
    ordered choice of ``players`` bots (each pairing in each seat order). Fewer: the bots are
    repeated round the table, and every rotation of that is used.
    """
    if num_bots <= 0 or players <= 0:
        raise OptionError("the arena needs at least one bot and one player")
    if num_bots >= players:
        if num_bots == players:
            base = tuple(range(players))
            return [base[i:] + base[:i] for i in range(players)]
        return list(itertools.permutations(range(num_bots), players))
    base = tuple(i % num_bots for i in range(players))
    return [base[i:] + base[:i] for i in range(players)]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of an arena run seeded with ``seed``."""
    return zlib.crc32(f"{seed}/{index}".encode())


def play_game(
    game_name: str,
    players: int,
    options: dict[str, Any],
    specs: list[str],
    seed: int,
    index: int = 0,
) -> dict[str, Any]:
    """Play one game between the bots ``specs`` (one per seat); return its record.

    Chance is resolved with an RNG seeded by ``seed``; each bot gets its own seed. The record's
    ``meta`` holds the seats, the seed and each seat's thinking time (wall clock, and the
    process's CPU time, which a busy machine does not inflate) and number of moves.
    """
    game = load(game_name, players=players, **options)
    rng = random.Random(seed)
    bots = [make_bot(spec, game, seed=rng.randrange(2**31)) for spec in specs]
    think = [0.0] * players
    cpu = [0.0] * players
    moves = [0] * players

    def policy(state: State, p: int, rng: random.Random) -> int:
        t0, c0 = time.perf_counter(), time.process_time()
        action = bots[p].act(view_for(state, p))
        think[p] += time.perf_counter() - t0
        cpu[p] += time.process_time() - c0
        moves[p] += 1
        return action

    state = play_out(game.new_initial_state(), rng, policy=policy)
    return game.record(
        state,
        index=index,
        seed=seed,
        seats=list(specs),
        think_seconds=[round(t, 4) for t in think],
        think_cpu_seconds=[round(t, 4) for t in cpu],
        moves_per_seat=moves,
    )


def _play_task(args: tuple) -> dict[str, Any]:
    return play_game(*args)


# -- statistics -------------------------------------------------------------------------------


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a success rate; ties count as halves."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotResult:
    """One bot's results over an arena run."""

    bot: str
    games: int = 0
    """Games the bot took part in (once per game, however many seats it held)."""
    seats: int = 0
    """Seats it played: ``games`` unless it sat at the same table more than once."""
    wins: float = 0.0
    """Seats that won; a shared first place counts as a share (1/k for k winners)."""
    mean_return: float = 0.0
    win_rate: float = 0.0
    """Wins per seat played."""
    mean_rank: float = 0.0
    """The mean place it finished in (1 is first; tied players share the better place)."""
    ci_low: float = 0.0
    ci_high: float = 1.0
    rating_mu: float = 25.0
    rating_sigma: float = 25.0 / 3
    rating: float = 0.0
    """The conservative rating (mu - 3 sigma, openskill's ordinal)."""
    seconds_per_move: float = 0.0
    """Thinking time per move, wall clock."""
    cpu_seconds_per_move: float = 0.0
    """Thinking time per move in CPU time (one core), the same on a busy machine."""


@dataclass
class ArenaResult:
    """What an arena run measured; ``to_json()`` is what ``results.json`` holds."""

    game: str
    players: int
    options: dict[str, Any]
    bots: list[str]
    games: int
    seed: int
    seconds: float
    results: list[BotResult]
    head_to_head: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    """``head_to_head[a][b]`` in 2-player runs: games, wins and ``win_rate`` (with CI) of
    ``a`` against ``b``. With 3 or more players no game is between two bots alone, so it
    holds what was measured instead: games together, ``ahead`` and ``ahead_rate`` (with CI),
    how often ``a`` finished above ``b`` (a tie counts half)."""
    rating_history: dict[str, list[float]] = field(default_factory=dict)
    out_dir: str | None = None
    games_planned: int = 0
    """Games the run was asked for; more than ``games`` when it was interrupted."""
    interrupted: bool = False
    """Whether the run was stopped (Ctrl-C) before every game was played."""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["results"] = [asdict(r) for r in self.results]
        return out

    def result(self, bot: str) -> BotResult:
        for r in self.results:
            if r.bot == bot:
                return r
        raise KeyError(bot)

    def format_table(self) -> str:
        """The results as a plain-text table (the command prints it with rich)."""
        head = f"{'bot':<14} {'games':>6} {'win rate':>9} {'95% CI':>15} {'mean rank':>9} " \
               f"{'rating':>8} {'mu':>7} {'sigma':>6} {'s/move':>7}"
        lines = [f"{self.game}, {self.players} players, {self.games} games", head]
        for r in sorted(self.results, key=lambda r: -r.rating):
            lines.append(
                f"{r.bot:<14} {r.games:>6} {100 * r.win_rate:>8.1f}% "
                f"{f'{100 * r.ci_low:.1f}-{100 * r.ci_high:.1f}%':>15} {r.mean_rank:>9.2f} "
                f"{r.rating:>8.2f} "
                f"{r.rating_mu:>7.2f} {r.rating_sigma:>6.2f} {r.seconds_per_move:>7.3f}"
            )
        return "\n".join(lines)


def _labels(bots: list[str]) -> list[str]:
    """Bot names, numbered where a spec appears more than once."""
    seen: dict[str, int] = {}
    out = []
    for b in bots:
        seen[b] = seen.get(b, 0) + 1
        out.append(b if bots.count(b) == 1 else f"{b}#{seen[b]}")
    return out


def summarise(
    game: str,
    players: int,
    options: dict[str, Any],
    bots: list[str],
    records: list[dict[str, Any]],
    seat_bots: list[tuple[int, ...]],
    seed: int,
    seconds: float,
) -> ArenaResult:
    """Win rates with confidence intervals, head-to-head rates and openskill ratings."""
    from openskill.models import PlackettLuce

    labels = _labels(bots)
    k = len(bots)
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    history: dict[str, list[float]] = {label: [ratings[i].ordinal()] for i, label in
                                       enumerate(labels)}
    games_ = [0] * k
    seats_ = [0] * k
    rank_sum = [0.0] * k
    wins = [0.0] * k
    ret = [0.0] * k
    think = [0.0] * k
    cpu = [0.0] * k
    moves = [0] * k
    pair_games = [[0] * k for _ in range(k)]
    pair_wins = [[0.0] * k for _ in range(k)]
    for record, seats in zip(records, seat_bots, strict=True):
        winners = record["winners"]
        returns = record["returns"]
        meta = record.get("meta", {})
        share = 1.0 / len(winners)
        ranks = [1 + sum(1 for r in returns if r > mine) for mine in returns]
        seat_win = [share if s in winners else 0.0 for s in range(players)]
        for b in set(seats):
            games_[b] += 1
        for s, b in enumerate(seats):
            seats_[b] += 1
            rank_sum[b] += ranks[s]
            wins[b] += seat_win[s]
            ret[b] += returns[s]
            think[b] += meta.get("think_seconds", [0.0] * players)[s]
            cpu[b] += meta.get("think_cpu_seconds", [0.0] * players)[s]
            moves[b] += meta.get("moves_per_seat", [0] * players)[s]
            for s2, b2 in enumerate(seats):
                if s2 != s and b2 != b:
                    pair_games[b][b2] += 1
                    if players == 2:
                        pair_wins[b][b2] += seat_win[s]
                    else:  # finished ahead of that bot (a tie is half)
                        r1, r2 = ranks[s], ranks[s2]
                        pair_wins[b][b2] += 1.0 if r1 < r2 else 0.5 if r1 == r2 else 0.0
        # ratings: one team per seat, ranked as the game ranked them
        teams = [[ratings[b]] for b in seats]
        new = model.rate(teams, ranks=[float(r) for r in ranks])
        by_bot: dict[int, list] = {}
        for s, b in enumerate(seats):
            by_bot.setdefault(b, []).append(new[s][0])
        for b, rs in by_bot.items():
            if len(rs) == 1:
                ratings[b] = rs[0]
            else:
                mu = sum(r.mu for r in rs) / len(rs)
                sigma = sum(r.sigma for r in rs) / len(rs)
                ratings[b] = model.rating(mu=mu, sigma=sigma, name=labels[b])
        for b in range(k):
            history[labels[b]].append(ratings[b].ordinal())
    results = []
    for b in range(k):
        n = seats_[b]
        lo, hi = wilson_interval(wins[b], n)
        results.append(
            BotResult(
                bot=labels[b],
                games=games_[b],
                seats=n,
                wins=round(wins[b], 3),
                mean_return=ret[b] / n if n else 0.0,
                win_rate=wins[b] / n if n else 0.0,
                mean_rank=rank_sum[b] / n if n else 0.0,
                ci_low=lo,
                ci_high=hi,
                rating_mu=ratings[b].mu,
                rating_sigma=ratings[b].sigma,
                rating=ratings[b].ordinal(),
                seconds_per_move=think[b] / moves[b] if moves[b] else 0.0,
                cpu_seconds_per_move=cpu[b] / moves[b] if moves[b] else 0.0,
            )
        )
    h2h: dict[str, dict[str, dict[str, float]]] = {}
    for a in range(k):
        for b in range(k):
            n = pair_games[a][b]
            if a == b or n == 0:
                continue
            lo, hi = wilson_interval(pair_wins[a][b], n)
            what = "wins" if players == 2 else "ahead"
            h2h.setdefault(labels[a], {})[labels[b]] = {
                "games": n,
                what: round(pair_wins[a][b], 3),
                f"{'win' if players == 2 else what}_rate": pair_wins[a][b] / n,
                "ci_low": lo,
                "ci_high": hi,
            }
    return ArenaResult(
        game=game,
        players=players,
        options=dict(options),
        bots=labels,
        games=len(records),
        seed=seed,
        seconds=seconds,
        results=results,
        head_to_head=h2h,
        rating_history=history,
    )


# -- running ----------------------------------------------------------------------------------


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the arena, which stops it (a worker that caught it would
    report it as the game's failure and go on with the next game)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


Games = Generator[tuple[int, dict[str, Any]], None, None]
"""Finished games as they come: (index, record)."""


def _run_local(tasks: list[tuple], workers: int) -> Games:
    """Play the games in this process or on a pool; closing the iterator early (Ctrl-C)
    stops the workers at once."""
    if workers <= 1:
        for i, t in enumerate(tasks):
            yield i, _play_task(t)
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    finished = False
    try:
        pending = {pool.submit(_play_task, t): i for i, t in enumerate(tasks)}
        while pending:
            done, _pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                i = pending.pop(f)
                yield i, f.result()
        finished = True
    finally:
        if not finished:
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
        pool.shutdown(wait=finished, cancel_futures=True)


RAY_TIMEOUT = 5.0
"""Seconds to wait for a Ray cluster's address to answer before giving up."""


def check_ray_address(address: str, timeout: float = RAY_TIMEOUT) -> None:
    """Refuse at once (within ``timeout`` seconds) a Ray address where nothing answers."""
    if address in ("local", "auto"):
        return
    target = address.split("://", 1)[-1].rstrip("/")
    host, sep, port_text = target.rpartition(":")
    if not sep or not port_text.isdigit():
        host, port = target, 10001 if address.startswith("ray://") else 6379
    else:
        port = int(port_text)
    # Ray listens with gRPC: an HTTP/2 server answers the client's preface with SETTINGS
    preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
    try:
        with socket.create_connection((host.strip("[]"), port), timeout=timeout) as conn:
            conn.settimeout(timeout)
            conn.sendall(preface)
            frame = conn.recv(9)
    except OSError as e:
        reason = _("no answer") if isinstance(e, TimeoutError) \
            else (e.strerror or str(e)).lower()
        raise OptionError(_("no Ray cluster answers at {address} ({reason} within {seconds} s)",
                            address=address, reason=reason, seconds=timeout)) from None
    if len(frame) < 4 or frame[3] != 4:
        raise OptionError(_("no Ray cluster answers at {address} (something listens there, "
                            "but not Ray)", address=address))


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Standard error (the file descriptor, where native libraries write) silenced."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _run_ray(tasks: list[tuple], address: str, workers: int) -> Games:
    try:
        import ray
    except ImportError:
        raise OptionError(
            "the Ray backend needs Ray: pip install 'meeple[ray]'"
        ) from None
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    started = False
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(num_cpus=max(1, workers), include_dashboard=False,
                         log_to_driver=False)
            else:
                check_ray_address(address)
                # give up on a cluster that does not answer after RAY_TIMEOUT seconds
                os.environ.setdefault("RAY_gcs_server_port_wait_time_s", f"{RAY_TIMEOUT:.0f}")
                with _quiet_stderr():  # Ray's retries log to the terminal as they fail
                    ray.init(address=address, include_dashboard=False, log_to_driver=False,
                             logging_level=logging.WARNING)
        except (ConnectionError, TimeoutError) as e:
            raise OptionError(_("no Ray cluster answers at {address} (gave up after {seconds} "
                                "s: {reason})", address=address, seconds=RAY_TIMEOUT,
                                reason=str(e))) from None
        except RuntimeError as e:
            raise OptionError(_("cannot start Ray at {address}: {reason}", address=address,
                                reason=str(e))) from None
        started = True
    refs: dict[Any, int] = {}
    try:
        remote = ray.remote(_play_task)
        refs = {remote.remote(t): i for i, t in enumerate(tasks)}
        while refs:
            done, _waiting = ray.wait(list(refs), num_returns=1)
            for ref in done:
                yield refs.pop(ref), ray.get(ref)
    finally:
        for ref in refs:  # stopped early: the games still running are cancelled
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def run_arena(
    game: str,
    bots: list[str],
    games: int,
    players: int | None,
    workers: int,
    ray: str | None,
    out_dir: Path,
    seed: int,
    options: dict[str, Any],
    progress: bool,
    on_game: Callable[[int, dict[str, Any]], None] | None = None,
) -> ArenaResult:
    """Play ``games`` games of ``game`` between ``bots`` and measure them (see the package doc).

    Everything is checked before any game is played: the game, its options and player count,
    every bot spec, that the bots fit the seats (with more bots than seats, enough games for
    every pairing in every seat order) and that a Ray address answers. ``on_game(index,
    record)`` is called as each game finishes. Ctrl-C stops the workers at once; the games
    played so far are written and summarised in results.json, with ``interrupted`` set, and no
    plot is drawn.
    """
    if games <= 0:
        raise OptionError(_("games must be at least 1, got {number}", number=games))
    if workers <= 0:
        raise OptionError(_("workers must be at least 1, got {number}", number=workers))
    if not bots:
        raise OptionError(_("name at least one bot, e.g. --bots mcts:3,greedy"))
    cls = game_class(game)
    counts = sorted(cls.player_counts)
    if players is None:
        if len(bots) in counts:
            players = len(bots)
        elif len(bots) > counts[-1]:
            raise OptionError(
                _("{bots} bots do not fit at one table: {game} seats {low} to {high} players. "
                  "Name at most {high} bots, or choose the table size with --players",
                  bots=len(bots), game=cls.title or game, low=counts[0], high=counts[-1])
                if len(counts) > 1 else
                _("{bots} bots do not fit at one table: {game} seats {low} players. Name at "
                  "most {low} bots, or choose --players {low} to let them take turns",
                  bots=len(bots), game=cls.title or game, low=counts[0])
            )
        else:
            players = cls.default_players()
    g = load(game, players=players, **options)  # raises OptionError on bad settings
    for spec in bots:
        make_bot(spec, g, seed=0)
    seats = lineups(len(bots), players)
    if len(bots) > players and games < len(seats):
        raise OptionError(_(
            "{bots} bots at {players} seats: for every bot to meet every other in every seat "
            "order takes {needed} games, and only {games} were asked for. Play at least "
            "{needed} games, or name at most {players} bots", bots=len(bots), players=players,
            needed=len(seats), games=games))
    if ray:
        check_ray_address(ray)
    plan = [seats[i % len(seats)] for i in range(games)]
    tasks = [
        (game, players, dict(g.options), [bots[b] for b in plan[i]], game_seed(seed, i), i)
        for i in range(games)
    ]
    out_dir = Path(out_dir)
    (out_dir / "games").mkdir(parents=True, exist_ok=True)
    records: list[dict[str, Any] | None] = [None] * games
    t0 = time.perf_counter()
    runner = _run_ray(tasks, ray, workers) if ray else _run_local(tasks, workers)
    bar = None
    if progress:
        from rich.markup import escape
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        bar = Progress(
            TextColumn(escape(_("{game} arena", game=game))),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn(escape(_("ETA"))),
            TimeRemainingColumn(),
        )
        task_id = bar.add_task("games", total=games)
        bar.start()
    interrupted = False
    try:
        width = len(str(games))
        for i, record in runner:
            records[i] = record
            path = out_dir / "games" / f"game_{i + 1:0{width}d}.json"
            path.write_text(json.dumps(record, indent=1))
            if on_game is not None:
                on_game(i, record)
            if bar is not None:
                bar.advance(task_id)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        runner.close()
        if bar is not None:
            bar.stop()
    seconds = time.perf_counter() - t0
    done = [i for i, r in enumerate(records) if r is not None]
    if not interrupted and len(done) != games:
        raise RuntimeError(f"{games - len(done)} of {games} games gave no record")
    played = [r for r in records if r is not None]
    result = summarise(game, players, g.options, bots, played, [plan[i] for i in done], seed,
                       seconds)
    result.out_dir = str(out_dir)
    result.games_planned = games
    result.interrupted = interrupted
    (out_dir / "results.json").write_text(json.dumps(result.to_json(), indent=1))
    if interrupted:  # Ctrl-C asks to stop now: no plot (drawing one takes seconds)
        (out_dir / "ratings.png").unlink(missing_ok=True)
    else:
        plot_ratings(result, out_dir / "ratings.png")
    return result


def plot_ratings(result: ArenaResult, path: Path) -> Path:
    """Draw each bot's rating (mu - 3 sigma) after every game, and the final mu ± 3 sigma."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [3, 2]})
    for label, series in result.rating_history.items():
        ax1.plot(range(len(series)), series, label=label)
    ax1.set_xlabel(_("games played"))
    ax1.set_ylabel(_("rating (openskill ordinal: mu - 3 sigma)"))
    ax1.set_title(_n("{game}: ratings over {n} game", "{game}: ratings over {n} games",
                     result.games, game=result.game))
    ax1.legend(fontsize="small")
    ax1.grid(alpha=0.3)
    order = sorted(result.results, key=lambda r: r.rating_mu)
    ys = range(len(order))
    ax2.errorbar(
        [r.rating_mu for r in order], list(ys), xerr=[3 * r.rating_sigma for r in order],
        fmt="o", capsize=4,
    )
    ax2.set_yticks(list(ys), [r.bot for r in order])
    ax2.set_xlabel(_("mu ± 3 sigma"))
    ax2.set_title(_("final ratings"))
    ax2.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
