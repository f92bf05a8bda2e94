"""``meeple arena``: bots play many games; the results as tables, records and a plot."""

from __future__ import annotations

import os
import time
from pathlib import Path

import typer
from rich.markup import escape

from meeple.arena.command import head_to_head_table, result_table
from meeple.arena.core import run_arena
from meeple.cli.common import (
    EXTRA,
    GAME,
    MODE_HELP,
    OPTION_HELP,
    errors,
    fail,
    handled,
    parse_options,
    reason,
    resolve_game,
    tables,
)
from meeple.engine.i18n import N_, words

_, _n = words(__file__)
commands = typer.Typer()
"""The commands of this module (``meeple.cli`` adds them to ``meeple``)."""


@commands.command("arena", context_settings=EXTRA, help=N_(
    "Bots play many games: win rates with 95% CIs, mean ranks, ratings, records and a ratings "
    "plot. Ctrl-C stops at once and keeps the games played so far."))
@handled
def arena(
    ctx: typer.Context,
    game: str = typer.Argument(..., metavar=GAME, help=N_("the game to play")),
    bots: str = typer.Option(
        "mcts:3,greedy,random", "--bots", "-b",
        help=N_("comma-separated bot specs, e.g. mcts:5,mcts:3,greedy,random"),
    ),
    games: int = typer.Option(100, "--games", "-n", help=N_("how many games to play")),
    players: int | None = typer.Option(
        None, "--players", "-p", help=N_("players per game (default: one seat per bot)")
    ),
    workers: int = typer.Option(
        max(1, os.cpu_count() or 1), "--workers", "-w", help=N_("local worker processes")
    ),
    ray: str | None = typer.Option(
        None, "--ray", help=N_("run the games on a Ray cluster at ADDRESS, or 'local'")
    ),
    out: Path | None = typer.Option(
        None, "--out", "-o", help=N_("folder for records, results.json and ratings.png")
    ),
    seed: int = typer.Option(0, "--seed", help=N_("seed of the whole run")),
    option: list[str] = typer.Option([], "--option", "-O", help=OPTION_HELP),
    mode: str | None = typer.Option(None, "--mode", help=MODE_HELP),
    progress: bool = typer.Option(True, "--progress/--no-progress",
                                  help=N_("show a progress bar")),
) -> None:
    """Bots play many games: win rates with 95% CIs, mean ranks, ratings, records and a
    ratings plot. Ctrl-C stops at once and keeps the games played so far."""
    name = resolve_game(game)
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    options = parse_options(name, option, list(ctx.args), mode)
    out_dir = out or Path("arena") / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(_("cannot make the folder {folder}: {reason}", folder=str(out_dir),
               reason=reason(e)))
    result = run_arena(
        name, specs, games, players, workers, ray, out_dir, seed, options, progress
    )
    tables.print(result_table(result))
    if len(result.bots) > 1:
        tables.print(head_to_head_table(result))
    records, results = str(out_dir / "games"), str(out_dir / "results.json")
    tables.print(escape(
        _("records in {records}, results in {results}", records=records, results=results)
        if result.interrupted else
        _("records in {records}, results in {results}, plot in {plot}", records=records,
          results=results, plot=str(out_dir / "ratings.png"))))
    if result.interrupted:
        errors.print(escape(_n(
            "interrupted: {n} of {planned} games was played; the results above are of that "
            "game only",
            "interrupted: {n} of {planned} games were played; the results above are of those "
            "games only", result.games, planned=result.games_planned)))
        raise typer.Exit(130)
