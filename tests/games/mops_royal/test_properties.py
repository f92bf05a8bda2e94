"""Random Mops Royal games checked against an independent model kept by the test.

The model follows every action from its notation and description only: it keeps each layout
as a dict of short codes, recounts every scored combination (shape from Appendix A, common
colour or object, face-up tiles, marked flip, points), compares the legal combinations with a
brute-force search, pays rejection costs with the clamp, and checks that no seat sees another
seat's choices before the round is over.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import CHANCE, SIMULTANEOUS
from meeple.games.mops_royal.components import CODES, TILE_INDEX

from .helpers import POINTS, brute_force_combinations, classify

CONFIGS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (3, {"replacement_tiles": True}),
    (2, {"end_scoring": True}),
    (4, {"score_when_full": False}),
]


class Model:
    """The test's own account of a game: layouts, face-down cells, scores."""

    def __init__(self, n):
        self.n = n
        self.layout = [dict() for _ in range(n)]
        self.down = [set() for _ in range(n)]
        self.score = [0] * n
        self.rejections = [0] * n
        self.scored = [[] for _ in range(n)]
        self.paid = [0] * n
        self.tile = None
        self.starts = []

    def code(self, tile_id):
        return CODES[TILE_INDEX[tile_id]]


def legal_cells(layout):
    """Empty cells with an edge neighbour that keep the layout within 5 × 5 (rules 4.2)."""
    xs = [x for x, _ in layout]
    ys = [y for _, y in layout]
    out = set()
    for x, y in layout:
        for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if c in layout:
                continue
            if max(xs + [c[0]]) - min(xs + [c[0]]) < 5 and max(ys + [c[1]]) - min(ys + [c[1]]) < 5:
                out.add(c)
    return out


def recount(model, p, d):
    """Check a scoring description against the model; return its points."""
    cells = [tuple(c) for c in d["combination"]]
    lay = model.layout[p]
    assert all(c in lay and c not in model.down[p] for c in cells)
    codes = [lay[c] for c in cells]
    assert len({c[0] for c in codes}) == 1 or len({c[1] for c in codes}) == 1
    hit = classify(cells)
    assert hit is not None and hit[0] == d["shape"]
    assert tuple(d["flip"]) in hit[1]
    crown = any(c in ("Bl", "Gm", "Ow", "Kc", "Ub", "Yp") for c in codes)
    pts = POINTS[len(cells)] + crown
    assert d["points"] == pts
    return pts


def run(players, options, seed, check_every=3):
    game = meeple.load("mops_royal", players=players, **options)
    rng = random.Random(seed)
    s = game.new_initial_state()
    m = Model(players)
    round_start_views = None
    steps = 0
    while not s.is_terminal():
        cp = s.current_player
        if cp == CHANCE:
            a = rng.choice(s.legal_actions())
            text = s.action_to_string(a)
            s.apply(a)
            word, arg = text.split()
            if word == "start":
                p = len(m.starts)
                m.starts.append(arg)
                m.layout[p][(0, 0)] = m.code(arg)
            elif word == "reveal":
                m.tile = m.code(arg)
                if s.current_player == SIMULTANEOUS:
                    round_start_views = {
                        v: json.dumps(
                            [s.observation(v)["layouts"][q] for q in range(players) if q != v]
                            + [s.scores()]
                        )
                        for v in range(players)
                    }
            continue
        actors = s.pending_players() if cp == SIMULTANEOUS else [cp]
        p = rng.choice(actors)
        legal = s.legal_actions(p)
        descs = [s.describe_action(a, p) for a in legal]
        kinds = {d["kind"] for d in descs}
        if "place" in kinds:
            got = {tuple(d["cell"]) for d in descs if d["kind"] == "place"}
            assert got == legal_cells(m.layout[p])
        if "reject" in kinds:
            assert {tuple(d["cell"]) for d in descs if d["kind"] == "reject"} == m.down[p]
        if "score" in kinds or "noscore" in kinds or "pass" in kinds:
            if steps % check_every == 0:
                brute = brute_force_combinations(m.layout[p], m.down[p])
                got = {frozenset(tuple(c) for c in d["combination"]) for d in descs
                       if d["kind"] == "score"}
                assert got == set(brute)
            if "pass" in kinds:
                assert kinds == {"pass"} and not brute_force_combinations(
                    m.layout[p], m.down[p])
        if steps % check_every == 0 and cp != SIMULTANEOUS or steps % 11 == 0:
            r = s.resample(p, random.Random(steps)) if steps % 2 else None
            if r is not None:
                assert r.observation(p) == s.observation(p)
        i = rng.randrange(len(legal))
        a, d = legal[i], descs[i]
        before = s.score[p]
        s.apply(a, p)
        steps += 1
        if d["kind"] == "place":
            cell = tuple(d["cell"])
            assert cell not in m.layout[p]
            m.layout[p][cell] = m.tile
        elif d["kind"] == "reject":
            assert tuple(d["cell"]) in m.down[p]
            m.rejections[p] += 1
            cost = min(m.rejections[p] + 1, m.score[p])
            m.score[p] -= cost
            m.paid[p] += cost
            assert s.score[p] == m.score[p]
        elif d["kind"] == "score":
            pts = recount(m, p, d)
            m.score[p] += pts
            m.scored[p].append(pts)
            m.down[p].add(tuple(d["flip"]))
            assert s.score[p] - before == pts
        if s.current_player == SIMULTANEOUS and round_start_views is not None:
            for v in range(players):
                now = json.dumps(
                    [s.observation(v)["layouts"][q] for q in range(players) if q != v]
                    + [s.scores()]
                )
                assert now == round_start_views[v], "a choice was shown before the reveal"
    assert s.scores() == [float(x) for x in m.score]
    for p in range(players):
        assert len(m.layout[p]) == 25
        obs = s.observation(p)
        seen = {(c["x"], c["y"]): c for c in obs["layouts"][p]}
        assert {c for c, v in seen.items() if not v["face_up"]} == m.down[p]
    fb = s.observation(None)["final_breakdown"]
    assert [line["player"] for line in fb] == list(range(players))
    for p in range(players):
        parts = {part["label"]: part["value"] for part in fb[p]["parts"]}
        assert fb[p]["total"] == m.score[p]
        assert parts["Combinations"] == sum(m.scored[p])
        assert parts.get("Rejections", 0) == -m.paid[p]
        assert sum(parts.values()) == m.score[p]
        assert set(parts) == ({"Combinations", "Rejections"} if options.get("replacement_tiles")
                              else {"Combinations"})
        level = [q for q in range(players) if q != p and m.score[q] == m.score[p]]
        if level:
            assert f"{len(m.down[p])} face-down" in fb[p]["note"]
        else:
            assert "note" not in fb[p]
    again = meeple.replay(json.loads(json.dumps(game.record(s))))
    assert again.observation(None) == s.observation(None)
    return s


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**31), which=st.integers(0, len(CONFIGS) - 1))
def test_random_games_agree_with_the_model(seed, which):
    players, options = CONFIGS[which]
    run(players, options, seed)


def test_every_configuration_once():
    for i, (players, options) in enumerate(CONFIGS):
        run(players, options, 1000 + i, check_every=1)


def test_rejections_happen_and_are_costed():
    """Some random games in the variant do reject; the model agrees on the cost."""
    rejected = 0
    for seed in range(8):
        s = run(3, {"replacement_tiles": True}, seed, check_every=5)
        rejected += sum(s.rej)
    assert rejected > 0


def test_resample_redraws_the_hidden_choices():
    """Another seat's finished choice is drawn afresh, and his own choices are kept."""
    game = meeple.load("mops_royal", players=3)
    rng = random.Random(5)
    s = game.new_initial_state()
    while s.round < 8 or s.current_player != SIMULTANEOUS:
        meeple.play_out(s, rng, max_actions=1)
    while 0 in s.pending_players():
        s.apply(s.legal_actions(0)[-1], 0)
    mine = s.legal_actions(1)
    s.apply(mine[-1], 1)
    placed = set()
    for seed in range(30):
        r = s.resample(1, random.Random(seed))
        assert r.observation(1) == s.observation(1)
        assert r.rplace[1] == s.rplace[1]
        placed.add(r.rplace[0])
        assert r.pending_players() == s.pending_players()
    assert len(placed) > 1
