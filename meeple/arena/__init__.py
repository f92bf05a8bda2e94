"""The arena: bots play many games against each other; win rates, ratings, records, a plot.

>>> from meeple.arena import run_arena
>>> result = run_arena("koplus", ["mcts:3", "greedy"], games=20, players=2, workers=2,
...                    ray=None, out_dir=Path("arena-out"), seed=1, options={},
...                    progress=False)                                 # doctest: +SKIP
>>> print(result.format_table())                                       # doctest: +SKIP

Seats are rotated for fairness: with as many bots as players each game uses a rotation of the
line-up; with more bots than players the games cycle through every ordered choice of bots
(each pairing in every seat order). Games run on a local process pool (``workers``) or, with
``ray``, as Ray tasks (``"local"`` starts a Ray instance on this machine; otherwise the address
of a running cluster). Every game is saved as a record under ``out_dir/games``, the results as
``out_dir/results.json`` and the ratings plot as ``out_dir/ratings.png`` (but for a run stopped
by Ctrl-C, which stops at once).
"""

from __future__ import annotations

from .core import ArenaResult, BotResult, lineups, play_game, run_arena, wilson_interval

__all__ = ["ArenaResult", "BotResult", "lineups", "play_game", "run_arena", "wilson_interval"]
