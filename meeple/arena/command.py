"""``meeple arena GAME --bots mcts:5,mcts:3,greedy,random --games 400``: the arena command.

``arena`` is a plain typer command function; the ``meeple`` app registers it.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from meeple.engine import MeepleError, OptionError
from meeple.engine.registry import game_class

from .core import ArenaResult, run_arena

console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
"""The arena's output; written to a file or a pipe, the tables keep their figures whole."""


def parse_game_options(game: str, pairs: list[str]) -> dict[str, Any]:
    """Game options from ``key=value`` texts, read with each option's own parser."""
    cls = game_class(game)
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise OptionError(f"--option needs key=value, got {pair!r}")
        key = key.strip().replace("-", "_")
        out[key] = cls.option(key).parse(value.strip(), game)
    return out


def result_table(result: ArenaResult) -> Table:
    """The win rates (95% Wilson intervals) and openskill ratings as a rich table."""
    table = Table(
        title=f"{result.game}: {result.games} games, {result.players} players, "
        f"{result.seconds:.0f} s"
    )
    for col, justify in [
        ("bot", "left"),
        ("games", "right"),
        ("win rate", "right"),
        ("95% CI", "right"),
        ("mean return", "right"),
        ("rating", "right"),
        ("mu ± sigma", "right"),
        ("s/move", "right"),
    ]:
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for r in sorted(result.results, key=lambda r: -r.rating):
        table.add_row(
            r.bot,
            str(r.games),
            f"{100 * r.win_rate:.1f}%",
            f"{100 * r.ci_low:.1f}–{100 * r.ci_high:.1f}%",
            f"{r.mean_return:+.3f}",
            f"{r.rating:.2f}",
            f"{r.rating_mu:.2f} ± {r.rating_sigma:.2f}",
            f"{r.seconds_per_move:.3f}",
        )
    return table


def head_to_head_table(result: ArenaResult) -> Table:
    """Row bot's win rate in games with the column bot (2 players: against it)."""
    table = Table(title="head to head: row's win rate against column")
    table.add_column("")
    for b in result.bots:
        table.add_column(b, justify="right")
    for a in result.bots:
        cells = []
        for b in result.bots:
            h = result.head_to_head.get(a, {}).get(b)
            cells.append(
                "—" if h is None else
                f"{100 * h['win_rate']:.0f}% ({100 * h['ci_low']:.0f}–{100 * h['ci_high']:.0f})"
            )
        table.add_row(a, *cells)
    return table


def arena(
    game: str = typer.Argument(..., metavar="GAME", help="the game to play"),
    bots: str = typer.Option(
        "mcts:3,greedy,random", "--bots", "-b",
        help="comma-separated bot specs, e.g. mcts:5,mcts:3,greedy,random",
    ),
    games: int = typer.Option(100, "--games", "-n", help="how many games to play"),
    players: int | None = typer.Option(
        None, "--players", "-p", help="players per game (default: one seat per bot)"
    ),
    workers: int = typer.Option(
        max(1, os.cpu_count() or 1), "--workers", "-w", help="local worker processes"
    ),
    ray: str | None = typer.Option(
        None, "--ray", help="run the games on a Ray cluster at ADDRESS, or 'local'"
    ),
    out: Path | None = typer.Option(
        None, "--out", help="folder for records, results.json and ratings.png"
    ),
    seed: int = typer.Option(0, "--seed", help="seed of the whole run"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option key=value"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="show a progress bar"),
) -> None:
    """Bots play many games: win rates with 95% CIs, ratings, records and a ratings plot."""
    try:
        specs = [b.strip() for b in bots.split(",") if b.strip()]
        options = parse_game_options(game, option)
        out_dir = out or Path("arena") / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}"
        result = run_arena(
            game, specs, games, players, workers, ray, out_dir, seed, options, progress
        )
    except MeepleError as e:
        console.print(f"[bold red]error:[/] {e}")
        raise typer.Exit(2) from None
    console.print(result_table(result))
    if len(result.bots) > 1:
        console.print(head_to_head_table(result))
    console.print(
        f"records in {out_dir / 'games'}, results in {out_dir / 'results.json'}, "
        f"plot in {out_dir / 'ratings.png'}"
    )


__all__ = ["arena", "head_to_head_table", "parse_game_options", "result_table"]
