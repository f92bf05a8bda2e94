"""Property tests over random Botanik games, checked independently of the rules module.

Machines are read from the observation (cells, tile ids, exits) and checked here: every shared
edge matches pipe to pipe and blank to blank, every machine is connected, the main network keeps
an open end, no loop exists under ``forbid_loops``. The legal additions listed are exactly the
ones an independent check finds; the score equals a recount; records replay exactly.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import CHANCE

D = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}
ORDER = "NESW"
SPEC = {  # exits at rotation 0 and flowers, by id suffix (rules 2.1)
    "ST": "NS", "EL": "NE", "TE": "NES", "CR": "NESW", "PL": "N", "VE": "N",
}


def base_exits(tile: str) -> str:
    return SPEC[tile.split("-")[1][:2]]


def flowers(tile: str) -> int:
    suf = tile.split("-")[1]
    if suf in ("PL", "VE"):
        return 3
    return 1 if suf in ("ST1", "EL1", "TE1") else 0


def turned(exits: str, k: int) -> frozenset[str]:
    return frozenset(ORDER[(ORDER.index(d) + k) % 4] for d in exits)


def grid(machine):
    return {tuple(t["cell"]): (t["tile"], frozenset(t["exits"])) for t in machine}


def main_network(g):
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        r, c = stack.pop()
        for d in g[(r, c)][1]:
            n = (r + D[d][0], c + D[d][1])
            if n in g and OPP[d] in g[n][1] and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


def open_ends(g, net):
    return sum(1 for (r, c) in net for d in g[(r, c)][1] if (r + D[d][0], c + D[d][1]) not in g)


def check_machine(g, forbid_loops):
    assert g[(0, 0)][0].startswith("SRC")
    for (r, c), (_, ex) in g.items():
        for d, (dr, dc) in D.items():
            n = (r + dr, c + dc)
            if n in g:
                assert (d in ex) == (OPP[d] in g[n][1]), f"edge mismatch at {(r, c)} {d}"
    # connected (orthogonally)
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        r, c = stack.pop()
        for dr, dc in D.values():
            n = (r + dr, c + dc)
            if n in g and n not in seen:
                seen.add(n)
                stack.append(n)
    assert seen == set(g)
    assert open_ends(g, main_network(g)) >= 1
    if forbid_loops:  # pipe graph is a forest: links = tiles - components
        links = sum(1 for (r, c), (_, ex) in g.items() for d in ex
                    if (r + D[d][0], c + D[d][1]) in g) // 2
        comps = 0
        left = set(g)
        while left:
            comps += 1
            stack = [left.pop()]
            while stack:
                r, c = stack.pop()
                for d in g[(r, c)][1]:
                    n = (r + D[d][0], c + D[d][1])
                    if n in left and OPP[d] in g[n][1]:
                        left.discard(n)
                        stack.append(n)
        assert links == len(g) - comps


def independent_adds(g, tile, forbid_loops):
    """Every legal (r, c, canonical k) for ``tile`` by rules M1-M5, found by brute force."""
    out = set()
    cand = {(r + dr, c + dc) for (r, c) in g for dr, dc in D.values()} - set(g)

    for cell in cand:
        seen_ex = set()
        for k in range(4):
            ex = turned(base_exits(tile), k)
            if ex in seen_ex:
                continue
            seen_ex.add(ex)
            ok = True
            for d, (dr, dc) in D.items():
                n = (cell[0] + dr, cell[1] + dc)
                if n in g and (d in ex) != (OPP[d] in g[n][1]):
                    ok = False
            if not ok:
                continue
            g2 = dict(g)
            g2[cell] = (tile, ex)
            if open_ends(g2, main_network(g2)) < 1:
                continue
            if forbid_loops:
                linked = [(cell[0] + D[d][0], cell[1] + D[d][1]) for d in ex
                          if (cell[0] + D[d][0], cell[1] + D[d][1]) in g]
                # two linked neighbours already connected through pipes -> a loop
                def reach(a, g=g):
                    seen = {a}
                    st_ = [a]
                    while st_:
                        r, c = st_.pop()
                        for d in g[(r, c)][1]:
                            n = (r + D[d][0], c + D[d][1])
                            if n in g and OPP[d] in g[n][1] and n not in seen:
                                seen.add(n)
                                st_.append(n)
                    return seen
                if any(b in reach(a) for i, a in enumerate(linked) for b in linked[i + 1:]):
                    continue
            out.add((cell[0], cell[1], k))
    return out


def recount(g, group_needs_pipe):
    """(points, tiles in the main network) of a machine, counted independently."""
    groups, flowers_, n = recount_parts(g, group_needs_pipe)
    return groups + flowers_, n


def recount_parts(g, group_needs_pipe):
    """(group points, flower points, tiles in the main network) of a machine."""
    net = main_network(g) - {(0, 0)}
    pts = 0
    seen = set()
    for cell in net:
        if cell in seen:
            continue
        col = g[cell][0][0]
        comp = {cell}
        stack = [cell]
        while stack:
            r, c = stack.pop()
            for d, (dr, dc) in D.items():
                n = (r + dr, c + dc)
                if n in net and n not in comp and g[n][0][0] == col:
                    if group_needs_pipe and d not in g[(r, c)][1]:
                        continue
                    comp.add(n)
                    stack.append(n)
        seen |= comp
        if len(comp) >= 3:
            pts += len(comp)
    group_pts, pts = pts, 0
    for (r, c) in net:
        tile, ex = g[(r, c)]
        f = flowers(tile)
        if tile.split("-")[1] in ("PL", "VE"):
            (d,) = ex
            n = (r + D[d][0], c + D[d][1])
            f = 3 if n in g and g[n][0][0] == tile[0] and not g[n][0].startswith("SRC") else 0
        pts += f
    return group_pts, pts, len(net)


OPTIONS = [{}, {"forbid_loops": True}, {"group_needs_pipe": True}]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.integers(0, 2))
def test_random_games_keep_every_machine_legal(seed, variant):
    options = OPTIONS[variant]
    game = meeple.load("botanik", **options)
    fl = options.get("forbid_loops", False)
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        p = s.current_player
        legal = s.legal_actions()
        obs = s.observation(None)
        if p != CHANCE:
            # tile conservation: every coloured tile is somewhere exactly once
            places = (
                [t for pile in obs["piles"] for t in pile]
                + [t for row in obs["rows"] for t in row if t]
                + obs["arrival"] + obs["discarded"] + obs["waiting"]
                + [t["tile"] for m in obs["machines"] for t in m if not t["tile"].startswith("S")]
                + ([obs["released"]["tile"]] if obs["released"] else [])
            )
            assert len(places) == len(set(places)) == 65 - obs["tiles_left"]
        if obs["phase"] == "take":
            # own spaces: empty and matching the pile top (colour or type)
            own = {s.action_to_string(a) for a in legal if a % 10 < 5}
            expect = set()
            for t in obs["arrival"]:
                for j in range(5):
                    top = obs["pile_tops"][j]
                    typ = lambda x: x.split("-")[1][:2]  # noqa: E731
                    if obs["rows"][p][j] is None and (t[0] == top[0] or typ(t) == typ(top)):
                        expect.add(f"own {t}@{j}")
            assert own == expect
            assert len(legal) == len(own) + 5 * len(obs["arrival"])
        elif obs["phase"] == "add":
            tile = obs["released"]["tile"]
            g = grid(obs["machines"][p])
            listed = {tuple(s.describe_action(a)["cell"]) + (s.describe_action(a)["rot"],)
                      for a in legal}
            assert listed == independent_adds(g, tile, fl)
        elif obs["phase"] == "swap":
            tops = obs["pile_tops"]
            assert [s.action_to_string(a) for a in legal] == [
                f"swap {j}" for j in range(5) if not tops[j].endswith("-MB")]
        s.apply(rng.choice(legal))
    obs = s.observation(None)
    for q in range(2):
        g = grid(obs["machines"][q])
        check_machine(g, fl)
        groups, flowers_, n = recount_parts(g, options.get("group_needs_pipe", False))
        assert s.scores()[q] == groups + flowers_
        line = obs["final_breakdown"][q]
        assert line["player"] == q
        assert line["parts"] == [{"label": "Colour groups", "value": groups},
                                 {"label": "Flowers", "value": flowers_}]
        assert line["total"] == groups + flowers_
        assert obs["main_tiles"][q] == n
    b = obs["final_breakdown"]
    k0, k1 = (b[0]["total"], obs["main_tiles"][0]), (b[1]["total"], obs["main_tiles"][1])
    assert s.winners() == ([0] if k0 > k1 else [1] if k1 > k0 else [0, 1])
    # a note only where the tiles in the main network break a tie on points
    tie_broken = k0[0] == k1[0] and k0[1] != k1[1]
    assert [bool(line.get("note")) for line in b] == [tie_broken, tie_broken]
    assert obs["tiles_left"] == 0 and obs["arrival"] == []
    # record and replay reproduce the game exactly
    again = meeple.replay(json.loads(json.dumps(game.record(s))))
    assert again.observation(None) == obs and again.history() == s.history()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 200))
def test_clone_is_independent_and_illegal_actions_change_nothing(seed, cut):
    game = meeple.load("botanik")
    s = meeple.play_out(game.new_initial_state(), seed, max_actions=cut)
    if s.is_terminal():
        return
    before = json.dumps(s.observation(None), sort_keys=True)
    twin = s.clone()
    meeple.play_out(twin, seed + 1)
    assert json.dumps(s.observation(None), sort_keys=True) == before
    legal = set(s.legal_actions())
    rng = random.Random(seed)
    p = s.current_player
    for a in rng.sample(range(game.num_distinct_actions), 50):
        if a in legal:
            continue
        try:
            s.apply(a, p)
        except meeple.IllegalAction as e:
            assert str(e)
        else:  # pragma: no cover
            raise AssertionError(f"illegal action {a} applied")
    assert json.dumps(s.observation(None), sort_keys=True) == before


def test_greedy_games_build_large_legal_machines():
    """Greedy players build big main networks, where keeping an open end matters most."""
    from meeple.bots import make_bot, view_for
    from meeple.engine import sample_chance

    for i, options in enumerate(OPTIONS):
        game = meeple.load("botanik", **options)
        fl = options.get("forbid_loops", False)
        bots = [make_bot("greedy", game, seed=i), make_bot("greedy", game, seed=i + 7)]
        rng = random.Random(i)
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player == CHANCE:
                s.apply(sample_chance(s, rng))
                continue
            p = s.current_player
            obs = s.observation(p)
            if obs["phase"] == "add":
                listed = {tuple(pl[:3]) for pl in obs["released"]["placements"]}
                g = grid(obs["machines"][p])
                assert listed == independent_adds(g, obs["released"]["tile"], fl)
            s.apply(bots[p].act(view_for(s, p)), p)
        obs = s.observation(None)
        for q in range(2):
            g = grid(obs["machines"][q])
            check_machine(g, fl)
            assert recount(g, options.get("group_needs_pipe", False))[0] == s.scores()[q]
        assert max(s.scores()) >= 8  # the greedy bot really builds scoring machines
