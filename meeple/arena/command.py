"""The arena's tables for the terminal: what ``meeple arena`` prints (the command itself is
in :mod:`meeple.cli`, with the game options shared with ``meeple play``)."""

from __future__ import annotations

from rich.table import Table

from meeple.engine.i18n import words

from .core import ArenaResult

_, _n = words(__file__)


def result_table(result: ArenaResult) -> Table:
    """Each bot's win rate (95% Wilson interval), mean rank, mean return and openskill
    rating as a rich table."""
    played = _n("{n} game", "{n} games", result.games)
    if result.interrupted:
        played = _n("{n} of {planned} games (interrupted)", "{n} of {planned} games (interrupted)",
                    result.games, planned=result.games_planned)
    table = Table(
        title=_("{game}: {played}, {players} players, {seconds} s", game=result.game,
                played=played, players=result.players, seconds=round(result.seconds)),
        caption=_("win rate: the share of its seats that won (a shared win counts as a "
                  "share); mean rank: its mean place, 1 is first"),
    )
    for col, justify in [
        (_("bot"), "left"),
        (_("games"), "right"),
        (_("win rate"), "right"),
        (_("95% CI"), "right"),
        (_("mean rank"), "right"),
        (_("mean return"), "right"),
        (_("rating"), "right"),
        (_("mu ± sigma"), "right"),
        (_("s/move"), "right"),
    ]:
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for r in sorted(result.results, key=lambda r: -r.rating):
        table.add_row(
            r.bot,
            str(r.games),
            f"{100 * r.win_rate:.1f}%",
            f"{100 * r.ci_low:.1f}–{100 * r.ci_high:.1f}%",
            f"{r.mean_rank:.2f}",
            f"{r.mean_return:+.3f}",
            f"{r.rating:.2f}",
            f"{r.rating_mu:.2f} ± {r.rating_sigma:.2f}",
            f"{r.seconds_per_move:.3f}",
        )
    return table


def head_to_head_table(result: ArenaResult) -> Table:
    """Pairs of bots. Two players: the row bot's win rate against the column bot. Three or
    more: how often the row bot finished above the column bot in the games they shared (no
    game is between two bots alone, so there is no head-to-head win rate to show)."""
    two = result.players == 2
    key = "win_rate" if two else "ahead_rate"
    title = (_("head to head: row's win rate against column") if two else
             _("row finished above column, in the games they shared (a tie counts half)"))
    table = Table(title=title)
    table.add_column("")
    for b in result.bots:
        table.add_column(b, justify="right")
    for a in result.bots:
        cells = []
        for b in result.bots:
            h = result.head_to_head.get(a, {}).get(b)
            cells.append(
                "—" if h is None else
                f"{100 * h[key]:.0f}% ({100 * h['ci_low']:.0f}–{100 * h['ci_high']:.0f})"
            )
        table.add_row(a, *cells)
    return table


__all__ = ["head_to_head_table", "result_table"]
