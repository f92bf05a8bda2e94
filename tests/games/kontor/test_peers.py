"""PettingZoo's seed test on every Kontor configuration (the adapter suite runs the first one)."""

from __future__ import annotations

import pytest

import meeple

pytest.importorskip("pettingzoo")

from pettingzoo.test import seed_test  # noqa: E402

from meeple.adapters.pettingzoo import env  # noqa: E402

CONFIGS = meeple.engine.game_class("kontor").configurations()[1:]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("players,options", CONFIGS)
def test_seed_test(players, options):
    seed_test(lambda: env("kontor", players=players, **options), num_cycles=60)
