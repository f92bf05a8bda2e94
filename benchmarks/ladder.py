"""Measure the bot ladder: every adjacent pair of steps, every game, 2 players, in the arena.

    python benchmarks/ladder.py [--games 100] [--more 100] [--max-games 600] [GAME ...]

For each adjacent pair of steps of :data:`meeple.bots.levels.LADDER` (the weakest first) and
each game (the cheapest first), the arena plays ``--games`` games with the seats rotated;
while the 95% interval of the upper step's score (a draw counts half) still straddles 50%, it
plays ``--more`` games again, up to ``--max-games``. The results go to ``meeple/bots/ladder.json``
after every pair (``--out`` elsewhere), as::

    {"games": {game: {"pairs": [{"lower": spec, "upper": spec, "games": n,
                                 "upper_wins": w, "draws": d, ...}]}}}

Each pair also records each step's thinking time per move, wall clock and CPU (one core,
the same on a busy machine). A pair already recorded there with the same specs and budgets is
kept as measured, unless ``--again``; so a stopped run goes on where it stopped. Prints a
Markdown table at the end (``--table`` prints it from the file without playing).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from meeple.arena import run_arena, wilson_interval
from meeple.bots.levels import LADDER, Step, adjacent_pairs
from meeple.engine.registry import game_class
from meeple.engine.registry import games as game_names

OUT = Path(__file__).resolve().parent.parent / "meeple" / "bots" / "ladder.json"
GAMES = ("kontor", "mops_royal", "koplus", "botanik", "kozo")
"""The games measured, in this order for each pair of steps: roughly the cheapest first (Kozo,
whose stability checks make every move cost the most, last)."""


def budgets(step: Step, game: str) -> int:
    return step.budget(game)


def score(pair: dict[str, Any]) -> tuple[float, float, float]:
    """The upper step's score (wins plus half the draws, per game) and its 95% interval."""
    n = pair["games"]
    points = pair["upper_wins"] + pair["draws"] / 2
    lo, hi = wilson_interval(points, n)
    return (points / n if n else 0.0, lo, hi)


def _measure(game: str, lower: Step, upper: Step, games: int, seed: int,
             ) -> tuple[int, int, int, list[float]]:
    """Play ``games`` games of ``game`` between the two steps (seats rotated); return the
    games, the upper step's wins, the draws and the seconds per move (wall clock, then CPU)
    of the lower and the upper step."""
    with tempfile.TemporaryDirectory() as tmp:
        result = run_arena(game, [lower.spec, upper.spec], games, 2, 1, None, Path(tmp),
                           seed, {}, progress=False)
        wins = draws = 0
        for path in sorted((Path(tmp) / "games").glob("*.json")):
            record = json.loads(path.read_text())
            winners = record["winners"]
            seats = record["meta"]["seats"]
            up = [s for s, spec in enumerate(seats) if spec == upper.spec]
            if len(winners) > 1:
                draws += 1
            elif winners and winners[0] in up:
                wins += 1
    low, high = result.result(lower.spec), result.result(upper.spec)
    return (result.games, wins, draws, [low.seconds_per_move, high.seconds_per_move,
                                        low.cpu_seconds_per_move, high.cpu_seconds_per_move])


def load(path: Path) -> dict[str, Any]:
    if path.exists():
        return json.loads(path.read_text())
    return {"games": {}}


def save(data: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n")


def measure_pair(game: str, lower: Step, upper: Step, args: argparse.Namespace,
                 ) -> dict[str, Any]:
    """One adjacent pair, with more games while the interval straddles 50%."""
    total = wins = draws = 0
    secs = [0.0] * 4
    batch, seed = args.games, args.seed
    t0 = time.perf_counter()
    while True:
        n, w, d, more = _measure(game, lower, upper, batch, seed)
        secs = [(a * total + b * n) / (total + n) for a, b in zip(secs, more, strict=True)]
        total, wins, draws = total + n, wins + w, draws + d
        pair = {"lower": lower.spec, "upper": upper.spec, "games": total, "upper_wins": wins,
                "draws": draws}
        rate, lo, hi = score(pair)
        print(f"  {game} {upper.name} over {lower.name}: {rate:.0%} of {total} "
              f"({lo:.0%}-{hi:.0%}), {time.perf_counter() - t0:.0f} s", flush=True)
        if not lo <= 0.5 <= hi or total + args.more > args.max_games:
            break
        batch, seed = args.more, seed + 1
    pair.update({
        "lower_iterations": budgets(lower, game),
        "upper_iterations": budgets(upper, game),
        "lower_seconds_per_move": round(secs[0], 4),
        "upper_seconds_per_move": round(secs[1], 4),
        "lower_cpu_seconds_per_move": round(secs[2], 4),
        "upper_cpu_seconds_per_move": round(secs[3], 4),
    })
    return pair


def _same(old: dict[str, Any], lower: Step, upper: Step, game: str) -> bool:
    return (old.get("lower") == lower.spec and old.get("upper") == upper.spec
            and old.get("lower_iterations") == budgets(lower, game)
            and old.get("upper_iterations") == budgets(upper, game))


def run(args: argparse.Namespace) -> dict[str, Any]:
    data = load(args.out)
    data["players"] = 2
    data["ladder"] = [s.spec for s in LADDER]
    chosen = args.game or [g for g in GAMES if g in game_names()]
    for g in chosen:
        entry = data["games"].setdefault(g, {"pairs": []})
        entry["pairs"] = [p for p in entry["pairs"]
                          if (p["lower"], p["upper"]) in
                          {(a.spec, b.spec) for a, b in adjacent_pairs()}]
    order = [(g, lower, upper) for lower, upper in adjacent_pairs() for g in chosen]
    for g, lower, upper in order:
        pairs = data["games"][g]["pairs"]
        old = next((p for p in pairs if p["lower"] == lower.spec), None)
        if old is not None and _same(old, lower, upper, g) and not args.again:
            continue
        pair = measure_pair(g, lower, upper, args)
        pairs[:] = [p for p in pairs if p["lower"] != lower.spec] + [pair]
        pairs.sort(key=lambda p: [s.spec for s in LADDER].index(p["lower"]))
        save(data, args.out)
    return data


def _title(game: str) -> str:
    return game_class(game).title or game


def table(data: dict[str, Any]) -> str:
    """The Markdown table: for each game and adjacent pair, the upper step's score."""
    pairs = adjacent_pairs()
    head = "| Game | " + " | ".join(f"{b.name} over {a.name}" for a, b in pairs) + " |"
    lines = [head, "|" + "---|" * (len(pairs) + 1)]
    for g, entry in data["games"].items():
        cells = []
        for a, b in pairs:
            p = next((p for p in entry["pairs"] if p["lower"] == a.spec
                      and p["upper"] == b.spec), None)
            if p is None:
                cells.append("not measured")
                continue
            rate, lo, hi = score(p)
            cells.append(f"{rate:.0%} of {p['games']} ({lo:.0%}–{hi:.0%})")
        lines.append(f"| {_title(g)} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("| Game | " + " | ".join(f"{s.name}: s/move" for s in LADDER) + " |")
    lines.append("|" + "---|" * (len(LADDER) + 1))
    for g, entry in data["games"].items():
        secs: dict[str, float] = {}
        for p in entry["pairs"]:  # CPU seconds (one core) where measured
            for side in ("lower", "upper"):
                if f"{side}_cpu_seconds_per_move" in p:
                    secs[p[side]] = p[f"{side}_cpu_seconds_per_move"]
        lines.append(f"| {_title(g)} | " + " | ".join(
            f"{secs[s.spec]:.3f}" if s.spec in secs else "–" for s in LADDER) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", nargs="*", help="games to measure (default: all five)")
    ap.add_argument("--games", type=int, default=100, help="games per pair, at first")
    ap.add_argument("--more", type=int, default=100,
                    help="games added while the interval straddles 50%%")
    ap.add_argument("--max-games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--again", action="store_true", help="measure recorded pairs again")
    ap.add_argument("--table", action="store_true", help="only print the table from --out")
    args = ap.parse_args(argv)
    data = load(args.out) if args.table else run(args)
    print(table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
