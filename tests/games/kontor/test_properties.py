"""Property tests over random Kontor games, with checks written independently of the rules code.

Areas and their counts are recounted from the field in the observation; closed areas never
change; coins never go negative; warehouses, chits and cards are conserved; records replay
exactly; a resampled state looks the same to the player it was drawn for.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS, sample_chance
from meeple.games.kontor.components import NUM_CARDS

CONFIGS = meeple.engine.game_class("kontor").configurations() + [
    # hidden draws, a limited treasury, special cards and a scarce warehouse supply
    (2, {"mode": "advanced", "open_draw_piles": False, "limited_coins": True,
         "special_cards": True}),
    (4, {"mode": "expansion", "open_draw_piles": False, "scored_areas": "largest_3",
         "warehouses_per_type": 4, "remove_triple_cards": False}),
]
GOODS = ("tea", "wine", "spice")


def recount_areas(obs):
    """Connected land cells of the field (edge neighbours), each with its counts."""
    land = {tuple(c["cell"]): c for c in obs["field"] if not c["water"]}
    seen: set = set()
    areas = []
    for start in sorted(land, key=lambda c: (c[1], c[0])):
        if start in seen:
            continue
        comp, todo = set(), [start]
        while todo:
            c = todo.pop()
            if c in comp:
                continue
            comp.add(c)
            x, y = c
            todo += [d for d in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if d in land]
        seen |= comp
        counts = [[0, 0, 0] for _ in range(obs["players"])]
        for c in comp:
            card = land[c]
            if card["owner"] is None:
                continue
            for t in card["stored"]:
                counts[card["owner"]][GOODS.index(t)] += 1
            if card.get("crane") and card.get("crane_active"):
                counts[card["owner"]][GOODS.index(card["crane"])] += 1
        areas.append((frozenset(comp), counts))
    return areas


def check(state, closed_before):
    g = state.game
    obs = state.observation(None)
    # areas equal a recount from the field
    found = {frozenset(map(tuple, a["cells"])): a for a in obs["areas"]}
    recount = recount_areas(obs)
    assert {a for a, _ in recount} == set(found)
    for cells, counts in recount:
        a = found[cells]
        if not a["closed"]:
            assert a["counts"] == counts
            assert a["size"] == len(cells)
    # closed areas never change: same cells, owner, counts, cards
    cards = {tuple(c["cell"]): c["id"] for c in obs["field"]}
    closed_now = {frozenset(map(tuple, a["cells"])): (a["owner"], json.dumps(a["counts"]))
                  for a in obs["areas"] if a["closed"]}
    for cells, (owner, counts, ids) in closed_before.items():
        assert closed_now[cells] == (owner, counts)
        assert tuple(cards.get(c) for c in sorted(cells)) == ids
    for cells, v in closed_now.items():
        closed_before.setdefault(cells, v + (tuple(cards.get(c) for c in sorted(cells)),))
    # a closed area has no free cell next to it
    free = {tuple(c) for c in obs["legal_cells"]}
    for cells in closed_now:
        for x, y in cells:
            assert not {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)} & free
    # coins and keepers never negative; warehouses and chits conserved
    assert min(obs["coins"]) >= 0 and min(obs["keepers"]) >= 0
    stored = [0, 0, 0]
    for c in obs["field"]:
        for t in c["stored"]:
            stored[GOODS.index(t)] += 1
    per_type = g.options["warehouses_per_type"]
    assert [obs["supply"][t] + stored[i] for i, t in enumerate(GOODS)] == [per_type] * 3
    if obs["chit_supply"] is not None:
        for t in GOODS:
            assert obs["chit_supply"][t] + sum(ch[t] for ch in obs["chits"]) == 6
    keepers_used = sum(1 for a in obs["areas"] if a["closed"] and a["owner"] is not None)
    assert sum(obs["keepers"]) + keepers_used == g.keepers * g.num_players
    # every card is in exactly one place
    places = [c for h in state.hands for c in h] + [c for u in state.unseen for c in u]
    places += [c for q in state.queue for c in q] + [c for c in state.top if c >= 0]
    places += [c for c in state.revealed if c >= 0]
    places += [c for c in state.cell if c >= 0]
    assert len(places) == len(set(places))
    assert all(0 <= c < NUM_CARDS for c in places)


def play(game, seed, resample_checks=True):
    rng = random.Random(seed)
    s = game.new_initial_state()
    closed: dict = {}
    steps = 0
    while not s.is_terminal():
        cp = s.current_player
        if cp == CHANCE:
            s.apply(sample_chance(s, rng))
        else:
            actors = s.pending_players() if cp == SIMULTANEOUS else [cp]
            p = rng.choice(actors)
            if resample_checks and steps % 5 == 0:
                r = s.resample(p, random.Random(steps))
                assert r.observation(p) == s.observation(p)
                assert r.legal_actions(p) == s.legal_actions(p)
            s.apply(rng.choice(s.legal_actions(p)), p)
        steps += 1
        if steps % 3 == 0:
            check(s, closed)
    check(s, closed)
    return s


@pytest.mark.parametrize("players,options", CONFIGS,
                         ids=[f"{p}p-{'-'.join(f'{k}={v}' for k, v in o.items())}"
                              for p, o in CONFIGS])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_invariants(players, options, seed):
    game = meeple.load("kontor", players=players, **options)
    s = play(game, seed)
    obs = s.observation(0)
    fb = obs["final_breakdown"]
    assert [x["total"] for x in fb] == obs["scores"]
    # scored areas and VP recounted from the observation
    closed = [a for a in obs["areas"] if a["closed"]]
    sizes = sorted((a["size"] for a in closed), reverse=True)
    cut = s.game.scored_cut
    floor = sizes[cut - 1] if cut and len(sizes) > cut else 0
    for p in range(players):
        owned = sum(1 for a in closed if a["owner"] == p and a["size"] >= floor)
        parts = {d["label"]: d["value"] for d in fb[p]["parts"]}
        assert parts["Scored areas"] == owned
    again = meeple.replay(json.loads(json.dumps(game.record(s))))
    assert again.observation(None) == s.observation(None)
    assert again.scores() == s.scores()


def test_choices_stay_hidden_until_the_reveal():
    game = meeple.load("kontor", players=3, mode="expansion")
    rng = random.Random(5)
    s = game.new_initial_state()
    while s.current_player == CHANCE:
        s.apply(sample_chance(s, rng))
    before = [s.observation(p) for p in range(3)]
    legal = [s.legal_actions(p) for p in range(3)]
    tensors = [s.observation_tensor(p).tolist() for p in range(3)]
    s.apply(s.legal_actions(0)[0], 0)
    for p in (1, 2):
        after = s.observation(p)
        assert after["has_chosen"] == [True, False, False]
        after = dict(after, has_chosen=before[p]["has_chosen"], move_number=before[p][
            "move_number"], pending=before[p]["pending"])
        assert after == before[p]
        assert s.observation_tensor(p).tolist() == tensors[p]
        assert s.legal_actions(p) == legal[p]
