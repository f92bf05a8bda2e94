"""The adapters' tests. Each peer's suite needs its package: in the main test set-up they are
all installed and a missing one fails the run; the runs under other Python versions set
``MEEPLE_OPTIONAL_PEERS=1``, where a peer without a wheel for that version skips only its own
suite (and says so)."""

import importlib.util
import os

from tests.adapters.games import tiny_game_registered  # noqa: F401

PEER_SUITES = {
    "test_openspiel.py": "pyspiel",
    "test_pettingzoo.py": "pettingzoo",
    "test_gymnasium.py": "gymnasium",
}

collect_ignore: list[str] = []
if os.environ.get("MEEPLE_OPTIONAL_PEERS") == "1":
    for suite, module in PEER_SUITES.items():
        if importlib.util.find_spec(module) is None:
            print(f"{module} is not installed for this Python: {suite} is skipped")
            collect_ignore.append(suite)
