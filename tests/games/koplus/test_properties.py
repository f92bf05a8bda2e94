"""Property tests over random KoPlus games, checked against a second, independent reading of
the rules written here (shapes, legality, turn order, scoring) from the observation only."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import CHANCE, TERMINAL, IllegalAction, sample_chance

OFFSETS = {  # orientation index -> covered cells relative to the bounding box's top-left
    0: [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],  # X
    1: [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)],  # U opening up
    2: [(0, 0), (0, 1), (1, 0), (2, 0), (2, 1)],  # U opening right
    3: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)],  # U opening down
    4: [(0, 0), (0, 1), (1, 1), (2, 0), (2, 1)],  # U opening left
}
INNER = {2: (4, 7, 4, 7), 3: (4, 7, 4, 11), 4: (4, 11, 4, 11)}
ALLOWANCE = {2: [2, 3], 3: [1, 2, 2], 4: [1, 1, 2, 2]}


def top_tile(obs, p):
    taken = 12 - obs["tiles_left"][p]
    if taken >= 12:
        return None
    return "U" if (taken + p) % 2 == 0 else "X"


def placements_by_hand(obs, p):
    """Every legal placement id for player ``p``, found by trying every anchor."""
    rows, cols = obs["rows"], obs["cols"]
    owner, aliens = obs["owner"], obs["aliens"]
    first = all(v == -1 for row in owner for v in row)
    r0, r1, c0, c1 = INNER[obs["players"]]
    shape = top_tile(obs, p)
    if shape is None:
        return set()
    out = set()
    for k in ([0] if shape == "X" else [1, 2, 3, 4]):
        for r in range(rows):
            for c in range(cols):
                cells = [(r + dr, c + dc) for dr, dc in OFFSETS[k]]
                if any(not (0 <= x < rows and 0 <= y < cols) for x, y in cells):
                    continue
                if any(owner[x][y] != -1 for x, y in cells):
                    continue
                if first:
                    if not all(r0 <= x <= r1 and c0 <= y <= c1 for x, y in cells):
                        continue
                else:
                    near = [(x + dx, y + dy) for x, y in cells
                            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
                    if not any(0 <= x < rows and 0 <= y < cols and owner[x][y] != -1
                               for x, y in near):
                        continue
                if sum(aliens[x][y] for x, y in cells) > 9:
                    continue
                out.add(k * rows * cols + r * cols + c)
    return out


def recount(obs):
    """Final scores from the observation's tiles and running scores."""
    n = obs["players"]
    sizes = []
    for p in range(n):
        tiles = [set(map(tuple, t["cells"])) for t in obs["tiles"] if t["player"] == p]
        comp = list(range(len(tiles)))

        def root(i, comp=comp):
            while comp[i] != i:
                i = comp[i]
            return i

        for i in range(len(tiles)):
            for j in range(i + 1, len(tiles)):
                if any((x + dx, y + dy) in tiles[j] for x, y in tiles[i]
                       for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                    comp[root(j)] = root(i)
        counts = {}
        for i in range(len(tiles)):
            counts[root(i)] = counts.get(root(i), 0) + 1
        sizes.append(list(counts.values()))
    largest = [max([s for s in ss if s > 1], default=0) for ss in sizes]
    best = max(largest)
    final = []
    for p in range(n):
        score = obs["running_scores"][p]
        if best > 1 and largest[p] == best:
            score += 5
        score -= 5 * sizes[p].count(1)
        score -= 3 * sum(s for s in sizes[p] if 1 < s < largest[p])
        final.append(score)
    return final


def play_checked(players, seed, options):
    game = meeple.load("koplus", players=players, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.current_player == CHANCE:
        state.apply(sample_chance(state, rng))
    obs = state.observation(None)
    assert obs["bonus_left"] == ALLOWANCE[players]
    assert obs["scores"] == [0] * players
    size = 5 * obs["rows"] * obs["cols"]
    expected_running = [0] * players
    steps = 0
    while not state.is_terminal():
        p = state.current_player
        obs = state.observation(p)
        by_hand = placements_by_hand(obs, p)
        legal = state.legal_actions()
        if by_hand:
            assert set(legal) == by_hand
        else:
            assert legal == [size]  # pass only when nothing fits
        # the game goes on only while somebody can place
        assert by_hand or any(placements_by_hand(obs, q) for q in range(players) if q != p)
        # a sample of illegal ids is refused and changes nothing
        before = json.dumps([state.history(), state.observation(None)])
        for a in rng.sample(range(size + 1), 8):
            if a not in legal:
                try:
                    state.apply(a)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"illegal {a} was applied")
        assert json.dumps([state.history(), state.observation(None)]) == before
        a = rng.choice(legal)
        if steps % 5 == 2:  # a clone plays on independently and identically
            twin = state.clone()
            twin.apply(a)
        bonus_before = list(obs["bonus_left"])
        state.apply(a)
        after = state.observation(None)
        if steps % 5 == 2:
            assert twin.observation(None) == after
        steps += 1
        if a != size:
            cells = [(a % (size // 5)) // obs["cols"], (a % (size // 5)) % obs["cols"]]
            k = a // (size // 5)
            gain = sum(obs["aliens"][cells[0] + dr][cells[1] + dc] for dr, dc in OFFSETS[k])
            expected_running[p] += gain
            assert after["running_scores"] == expected_running
            if not any(placements_by_hand(after, q) for q in range(players)):
                assert state.is_terminal()  # nobody can place: the end, before any bonus
                continue
            bonus = (expected_running[p] in (20, 40, 60) and bonus_before[p] > 0
                     and (gain > 0 or not options.get("bonus_needs_points")))
            if bonus:
                assert after["bonus_left"][p] == bonus_before[p] - 1
                expected_next = p
            else:
                assert after["bonus_left"] == bonus_before
                expected_next = (p + 1) % players
        else:
            assert after["bonus_left"] == bonus_before
            expected_next = (p + 1) % players
        if options.get("end_when_any_blocked") and not placements_by_hand(after, expected_next):
            assert state.current_player == TERMINAL
        else:
            assert state.current_player == expected_next
    obs = state.observation(None)
    assert obs["phase"] == "end"
    final = recount(obs)
    assert state.scores() == final
    assert [b["total"] for b in obs["final_breakdown"]] == final
    keys = [(final[p], obs["tiles_left"][p]) for p in range(players)]
    assert state.winners() == [p for p in range(players) if keys[p] == max(keys)]
    # the record replays to the very same state
    again = meeple.replay(json.loads(json.dumps(game.record(state))))
    assert again.observation(None) == obs and again.history() == state.history()
    return state


@settings(max_examples=24, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_random_games_follow_the_rules(players, seed):
    play_checked(players, seed, {})


@settings(max_examples=12, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32 - 1),
    options=st.sampled_from([
        {"bonus_needs_points": True},
        {"end_when_any_blocked": True},
        {"random_rotation": False},
    ]),
)
def test_random_games_with_options(players, seed, options):
    play_checked(players, seed, options)


def test_clone_is_independent():
    game = meeple.load("koplus", players=4)
    state = meeple.play_out(game.new_initial_state(), 7, max_actions=30)
    snapshot = json.dumps(state.observation(None))
    twin = state.clone()
    meeple.play_out(twin, 8)
    assert json.dumps(state.observation(None)) == snapshot
    assert twin.is_terminal() and not state.is_terminal()
