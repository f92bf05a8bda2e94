"""The compiled build and the pure-Python build play the same games: the same seeded random
games of every game, player count and listed configuration, run once with
``MEEPLE_PURE_PYTHON=1`` and once compiled, give the same observation (every seat's and the
spectator's), legal actions, chance outcomes and returns at every state.

Run as a script, this file plays the games and prints one digest per configuration as JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

GAMES_PER_CONFIG = 1
ROOT = Path(__file__).resolve().parents[2]


def digests() -> dict[str, Any]:
    """Play the seeded games; a digest of every state seen, per configuration."""
    import random

    import meeple
    from meeple.engine.registry import game_class

    out: dict[str, str] = {}
    for name in meeple.games():
        cls = game_class(name)
        setups = [(n, {}) for n in cls.player_counts]
        setups += [s for s in cls.configurations() if s not in setups]
        for players, options in setups:
            game = meeple.load(name, players=players, **options)
            h = hashlib.sha256()
            for seed in range(GAMES_PER_CONFIG):
                rng = random.Random(seed)
                state = game.new_initial_state()
                while True:
                    seen = {
                        "obs": [state.observation(v) for v in [None, *range(players)]],
                        "legal": {p: state.legal_actions(p) for p in state.pending_players()},
                        "chance": state.chance_outcomes(),
                        "returns": state.returns(),
                    }
                    h.update(json.dumps(seen, sort_keys=True, default=repr).encode())
                    if state.is_terminal():
                        break
                    if state.is_chance_node():
                        state.apply(meeple.sample_chance(state, rng))
                    else:
                        player = state.pending_players()[0]
                        state.apply(rng.choice(state.legal_actions(player)), player)
            out[f"{name} {players}p {json.dumps(options, sort_keys=True)}"] = h.hexdigest()
    return {"compiled": meeple.compiled(), "digests": out}


def _env(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MEEPLE_PURE_PYTHON"}
    if pure:
        env["MEEPLE_PURE_PYTHON"] = "1"
    return env


def _run(pure: bool) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__], env=_env(pure), cwd=ROOT,
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_compiled_build_plays_exactly_as_the_pure_source():
    pure, built = _run(pure=True), _run(pure=False)
    assert pure["compiled"] is False
    from meeple import _build

    assert built["compiled"] is True, (
        f"the compiled build is not in use ({_build.why_pure()}): scripts/setup.sh builds it")
    assert len(pure["digests"]) >= 12  # every game at every player count
    assert built["digests"] == pure["digests"]


def test_meeple_games_says_which_build_runs():
    for pure, said in ((True, "Rules engine: pure Python."), (False, "Rules engine: compiled.")):
        env = {**_env(pure), "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb", "LANGUAGE": "en"}
        done = subprocess.run([sys.executable, "-m", "meeple.cli", "games"], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert said in done.stdout


if __name__ == "__main__":
    print(json.dumps(digests()))
