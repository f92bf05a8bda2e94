"""Game reviews: chances after every move, turning points, clearly better moves, and the
hidden-information rule (a viewer's estimates rest on that viewer's information set only)."""

from __future__ import annotations

import math
import random

import pytest

import meeple
from meeple.bots import make_bot, seats_policy
from meeple.bots.review import (
    CHECK_LEAST,
    CLEAR_GAIN,
    NOISE_SIGMAS,
    TURNING_GAIN,
    TURNING_MAX,
    Point,
    Review,
    _turning,
    assemble,
    estimate,
    estimate_positions,
    info_key,
    positions,
    review,
)
from meeple.engine.records import move_numbers, moves_made, position_of


def finished(name: str, seed: int = 3, bots: str = "greedy") -> meeple.State:
    game = meeple.load(name, 2)
    state = game.new_initial_state()
    players = [make_bot(bots, game, seed=seed), make_bot("random", game, seed=seed + 1)]
    meeple.play_out(state, random.Random(seed), seats_policy(players))
    return state


@pytest.fixture(scope="module")
def koplus_parts() -> tuple[meeple.State, list[dict], Review]:
    """A finished KoPlus game, the stored estimate of each charted position, and the review
    put together from them."""
    final = finished("koplus")
    found = estimate_positions(final, None, 0, len(positions(final)[0]), 300)
    return final, found, assemble(final, None, found, names=["Ann", "Bob"], iterations=300)


@pytest.fixture(scope="module")
def koplus_review(koplus_parts) -> tuple[meeple.State, Review]:
    final, _found, r = koplus_parts
    return final, r


def test_a_point_after_every_move_with_chances(koplus_review) -> None:
    final, r = koplus_review
    history = final.history()
    # every position once chance has been resolved is charted, the last one being the end
    state = final.game.new_initial_state()
    expected = []
    for i in range(len(history) + 1):
        if i:
            state.apply(history[i - 1][1], history[i - 1][0])
        if i == len(history) or state.current_player != meeple.CHANCE:
            expected.append(i)
    # each named by the number of the move before it, as the log numbers moves (0: the start)
    assert [p.move for p in r.points] == [moves_made(history[:i]) for i in expected]
    for p in r.points:
        assert len(p.chances) == 2
        assert sum(p.chances) == pytest.approx(1.0)
        assert all(0.0 <= c <= 1.0 for c in p.chances)
    winner = final.winners()
    end = r.points[-1].chances
    if len(winner) == 1:
        assert end[winner[0]] == 1.0
    for p, i in zip(r.points[1:], expected[1:], strict=True):
        assert p.player == next(q for q, _ in reversed(history[:i]) if q >= 0)
        assert p.text


def test_turning_points_are_the_largest_swings_above_the_noise(koplus_parts) -> None:
    final, found, r = koplus_parts
    history = final.history()
    where = positions(final)[0]
    swings, noisy = [], 0
    for k in range(1, len(r.points)):
        a, b = r.points[k - 1], r.points[k]
        assert b.player is not None
        if found[k - 1].get("best") == history[where[k] - 1][1] and \
                b.chances[b.player] < a.chances[b.player]:
            continue  # the search's own choice: no turning point
        who = max(range(2), key=lambda q: abs(b.chances[q] - a.chances[q]))
        change = abs(b.chances[who] - a.chances[who])
        err = math.hypot(*(f.get("noise", [0.0, 0.0])[who] for f in found[k - 1:k + 1]))
        if change >= TURNING_GAIN and change < NOISE_SIGMAS * err:
            noisy += 1
        elif change >= TURNING_GAIN:
            swings.append((change, b.move))
    big = sorted(swings, reverse=True)[:TURNING_MAX]
    assert sorted(t.move for t in r.turning) == sorted(m for _, m in big)
    for t in r.turning:
        assert abs(t.after - t.before) >= TURNING_GAIN
        assert t.words.startswith(f"Move {t.move}: ")
        assert "%" in t.words and "_" not in t.words
    assert swings and max(s for s, _ in swings) >= TURNING_GAIN, "a decided game has swings"
    assert r.turning


def test_better_moves_are_clearly_better_and_were_really_played(koplus_review) -> None:
    final, r = koplus_review
    history = final.history()
    assert r.better, "the random player's moves leave room for better ones"
    for b in r.better:
        assert b.chance_best - b.chance_played >= CLEAR_GAIN
        played = next(a for p, a in history[position_of(history, b.move):] if p == b.player)
        assert b.played["action"] == played
        assert b.best["action"] != played
        assert b.words.startswith(f"Move {b.number}: ")
    # the random seat (1) blunders more than the greedy one
    assert len(r.better_for(1)) >= len(r.better_for(0))
    assert all(b.player == 0 for b in r.better_for(0))
    assert r.better_for(None) == []


def test_one_set_of_numbers_for_a_move_in_the_chart_turning_points_and_better_moves(
        koplus_parts) -> None:
    """A better move's figures are the chart's: the chance before it (through the search's
    choice) and the chance after the move played; a turning point of the same move says the
    same two figures."""
    _final, found, r = koplus_parts
    assert r.better
    at = {p.move: p for p in r.points}
    turning = {(t.move, t.who): t for t in r.turning}
    for b in r.better:
        before, after = at[b.move], at[b.number]
        assert b.chance_best == pytest.approx(before.chances[b.player])
        assert b.chance_played == pytest.approx(after.chances[b.player])
        t = turning.get((b.number, b.player))
        if t is not None:
            assert (t.before, t.after) == (b.chance_best, b.chance_played)
        # clearly ahead on the chart, and the two moves searched again side by side confirm
        # it beyond that search's noise
        assert b.gain >= CLEAR_GAIN
        check = found[r.points.index(after)]["check"]
        assert (check["best"], check["played"]) == (b.best["action"], b.played["action"])
        assert check["gain"] >= max(CHECK_LEAST, NOISE_SIGMAS * check["noise"])
    noise = [f["noise"][0] for f in found if not f.get("end")]
    assert all(0 <= x < 0.5 for x in noise) and max(noise) > 0


def test_a_better_move_is_named_only_when_the_side_by_side_search_confirms_it(
        koplus_parts) -> None:
    """The chart's two figures come from two searches of two positions, which differ by more
    than their own errors say; a better move is named only when one search of both moves
    finds it ahead by more than that search's noise."""
    final, found, r = koplus_parts
    b = r.better[0]
    m = [p.move for p in r.points].index(b.number)
    check = found[m]["check"]
    for gain in (check["noise"], -check["gain"]):  # within the noise, or behind
        doubted = [dict(f) for f in found]
        doubted[m]["check"] = {**check, "gain": gain}
        again = assemble(final, None, doubted, names=["Ann", "Bob"], iterations=300)
        assert b.number not in [x.number for x in again.better]
        assert len(again.better) == len(r.better) - 1


def test_a_turning_point_only_where_the_change_is_larger_than_the_noise() -> None:
    """The same swing is named where the estimates are sure of it, not where it may be their
    noise; a fall after the move the search chose itself is no turning point."""
    points = [Point(0, None, None, [0.5, 0.5]),
              Point(1, 0, "Lay a U", [0.8, 0.2]),
              Point(2, 1, "Lay an L", [0.5, 0.5]),
              Point(3, 0, "Lay an I", [0.2, 0.8])]
    sure = [[0.02, 0.02]] * 4
    assert [t.move for t in _turning(points, ["Ann", "Bob"], noise=sure)] == [1, 2, 3]
    unsure = [[0.02, 0.02], [0.02, 0.02], [0.2, 0.2], [0.2, 0.2]]
    # 2: a change of 30 points with a noise of 20 on its estimate: not sure enough
    assert [t.move for t in _turning(points, ["Ann", "Bob"], noise=unsure)] == [1]
    # 3: Ann played the search's own choice and her chance fell: not her turning point
    assert [t.move for t in _turning(points, ["Ann", "Bob"], noise=sure, kept={3})] == [1, 2]


def test_stored_review_reads_back_the_same(koplus_review) -> None:
    _, r = koplus_review
    back = Review.from_stored(r.stored())
    assert back.stored() == r.stored()
    assert back.to_json(1) == r.to_json(1)


def test_same_seed_same_review() -> None:
    final = finished("koplus", seed=5)
    a = review(final, None, iterations=60)
    b = review(final, None, iterations=60)
    assert a.stored() | {"seconds": 0} == b.stored() | {"seconds": 0}


def test_review_needs_a_finished_game_and_a_viewer_where_information_is_hidden() -> None:
    game = meeple.load("koplus", 2)
    with pytest.raises(ValueError, match="finished"):
        review(game.new_initial_state(), None)
    final = finished("mops_royal")
    with pytest.raises(ValueError, match="one player's view"):
        review(final, None)
    assert info_key(final.game, 1) == "1"
    assert info_key(meeple.load("koplus", 2), 1) == "all"


def twins(name: str, seed: int) -> list[tuple[meeple.State, meeple.State]]:
    """Pairs of positions that seat 0 cannot tell apart, but whose hidden parts differ."""
    game = meeple.load(name, 2)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out: list[tuple[meeple.State, meeple.State]] = []
    k = 0
    while not state.is_terminal() and len(out) < 3:
        if state.current_player == meeple.CHANCE:
            meeple.resolve_chance(state, rng)
            continue
        twin = state.resample(0, random.Random(k))
        if (state.observation(0) == twin.observation(0)
                and state.observation(1) != twin.observation(1)):
            out.append((state.clone(), twin))
        p = state.pending_players()[0]
        state.apply(rng.choice(state.legal_actions(p)), p)
        k += 1
    assert out, f"no position of {name} hides anything from seat 0"
    return out


def hidden_rule(name: str) -> None:
    for seed in (1, 2):
        for real, twin in twins(name, seed):
            mine = estimate(real, 0, iterations=120, seed=7)
            assert estimate(twin, 0, iterations=120, seed=7) == mine


def test_hidden_choices_never_reach_the_estimates_mops_royal() -> None:
    hidden_rule("mops_royal")
    differs = False
    for real, twin in twins("mops_royal", 1):
        differs |= estimate(real, 1, iterations=120, seed=7) != estimate(twin, 1,
                                                                          iterations=120, seed=7)
    assert differs, "seat 1 sees its own choices: its estimates may differ between the twins"


def test_hidden_hands_never_reach_the_estimates_kontor() -> None:
    hidden_rule("kontor")


def test_a_review_in_parts_is_the_same_review() -> None:
    from meeple.bots.review import assemble, estimate_part, positions

    final = finished("mops_royal", seed=8)
    whole = review(final, 1, iterations=40, names=["Ann", "Bob"])
    total = len(positions(final)[0])
    moves = final.history()
    parts: list[dict] = []
    for start in range(0, total, 17):  # as the server works: in pieces, from the moves
        parts += estimate_part(final.game.name, 2, dict(final.game.options), moves, 1,
                               start, start + 17, 40)
    again = assemble(final, 1, parts, names=["Ann", "Bob"], iterations=40)
    assert again.stored() | {"seconds": 0} == whole.stored() | {"seconds": 0}
    seen: list[tuple[int, int]] = []
    review(final, 1, iterations=5, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(k, total) for k in range(1, total + 1)]


def test_a_move_said_to_its_mover_is_said_of_them_in_the_review() -> None:
    """A label says "your start tile" to its mover; the review's sentences name the mover,
    so they say "their start tile"."""
    from meeple.bots.review import _said, review_lines

    assert _said({"label": "Place the yellow bone two to the right of your start tile"}) == \
        "place the yellow bone two to the right of their start tile"
    assert _said("Your Source takes yours") == "their Source takes theirs"
    final = finished("botanik", seed=5)
    r = review(final, None, names=["Ann", "Bob"], iterations=40)
    said = [t.words for t in r.turning] + [b.words for b in r.better]
    said += review_lines(r, None, ["Ann", "Bob"])
    assert said
    for line in said:
        assert "your" not in line.lower(), line


def test_the_terminal_lines_head_the_better_moves_in_plain_words(koplus_review) -> None:
    from meeple.bots.review import review_lines

    _, r = koplus_review
    assert r.better, "the greedy bot's game against a random one has clearly better moves"
    lines = review_lines(r, None, ["Ann", "Bob"])
    assert "Where the bot's choice was clearly better than the players' moves:" in lines
    mine = review_lines(r, r.better[0].player, ["Ann", "Bob"])
    assert "Where the bot's choice was clearly better than your moves:" in mine


def test_a_choice_is_said_once() -> None:
    """A move that is itself a choice reads "Ann chose the card", never "chose to choose"."""
    from meeple.bots.review import _chose

    assert _chose("Ann", {"label": "Choose the black harbour card 30 with spice"}) == \
        "Ann chose the black harbour card 30 with spice"
    assert _chose("Bob", "Lay a U opening up") == "Bob chose to lay a U opening up"
    assert _chose("Bob", {"label": "Place the bone next to your start tile"}) == \
        "Bob chose to place the bone next to their start tile"


def test_a_turning_point_says_what_the_move_did_as_the_log_does(koplus_review) -> None:
    """The words of a turning point are the move log's sentence of that move (what it caught,
    or a tower that fell), after the mover's name."""
    final, r = koplus_review
    history = final.history()
    assert r.turning
    for t in r.turning:
        j = move_numbers(history).index(t.move)  # the step of the move numbered t.move
        state = final.game.new_initial_state()
        for p, a in history[:j]:
            state.apply(a, p)
        sentence = state.describe(history[j][0], history[j][1]).rstrip(". ")
        assert t.words.startswith(f"Move {t.move}: Ann {sentence}; ") or \
            t.words.startswith(f"Move {t.move}: Bob {sentence}; "), (t.words, sentence)
        assert "chance to win" in t.words


def test_a_tower_that_falls_is_said_in_the_turning_point() -> None:
    """Kozo: a placement whose tower falls is a turning point that says so."""
    from meeple.bots.review import Point, _turning

    points = [Point(10, 0, "Place the red dicube", [0.5, 0.5]),
              Point(11, 1, "Place the brown V-pentacube", [0.95, 0.05])]
    said = {1: "places the brown V-pentacube, resting at height 6: the tower falls."}
    (t,) = _turning(points, ["Ann", "Bob"], said.get)
    assert t.words == ("Move 11: Bob places the brown V-pentacube, resting at height 6: the "
                       "tower falls; their chance to win falls from 50% to 5%.")
