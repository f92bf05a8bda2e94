"""The search bot: levels, budgets and time limits, fairness, and that it plays every game."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.bots import make_bot, seats_policy, view_for
from meeple.bots.mcts import LEVELS, MCTSBot
from meeple.engine import CHANCE
from meeple.engine.plugins import optional
from tests.adapters.games import TINY, configurations, game_names


class _Enough(Exception):
    """Stops a play-out once it has given what a test needs."""


def decision_points(game, rng, limit=60):
    """(state, seat) at the decisions of one random game, up to ``limit`` of them."""
    out = []

    def note(state, p, rng):
        if len(out) >= limit:
            raise _Enough
        out.append((state.clone(), p))
        return rng.choice(state.legal_actions(p))

    try:
        meeple.play_out(game.new_initial_state(), rng, policy=note)
    except _Enough:
        pass
    return out


def play(game, bots, rng):
    """A whole game between ``bots`` (one per seat), each move checked to be legal."""

    def act(state, p, rng):
        action = bots[p].act(view_for(state, p))
        assert action in state.legal_actions(p)
        return action

    return meeple.play_out(game.new_initial_state(), rng, policy=act)


def test_levels_one_to_five():
    game = meeple.load(TINY)
    budgets = []
    for level in range(1, 6):
        bot = make_bot(f"mcts:{level}", game, seed=1)
        assert bot.level == level and bot.name == f"mcts:{level}"
        budgets.append(LEVELS[level].iterations)
    assert all(b > a * 2 for a, b in zip(budgets, budgets[1:], strict=False))
    for bad in ("mcts:0", "mcts:6", "mcts:x"):
        with pytest.raises(meeple.OptionError):
            make_bot(bad, game)
    with pytest.raises(meeple.OptionError, match="budget"):
        MCTSBot(game, iterations=0, seconds=0)
    with pytest.raises(meeple.OptionError, match="mistakes"):
        MCTSBot(game, mistakes=1.5)


@pytest.mark.parametrize("name", game_names())
def test_a_games_search_settings_apply_to_the_levels_that_use_its_heuristics(name):
    """``SEARCH`` in a game's heuristics sets :class:`Level` fields, with ``budget`` and
    ``mistakes`` as factors, for levels 3-5; levels 1-2 and explicit arguments ignore it."""
    game = meeple.load(name)
    tuning = dict(optional(game.heuristics, "SEARCH") or {})
    budget, factor = tuning.pop("budget", 1.0), tuning.pop("mistakes", 1.0)
    for level in range(1, 6):
        spec, bot = LEVELS[level], make_bot(f"mcts:{level}", game)
        fields = {k: getattr(spec, k) for k in ("exploration", "candidates", "chance_nodes")}
        if spec.use_heuristics:
            fields.update({k: v for k, v in tuning.items() if k in fields})
            assert bot.iterations == round(spec.iterations * budget)
            assert bot.mistakes == pytest.approx(min(1.0, spec.mistakes * factor))
        else:
            assert bot.iterations == spec.iterations and bot.mistakes == spec.mistakes
        assert {k: getattr(bot, k) for k in fields} == fields
    assert MCTSBot(game, exploration=2.0, iterations=7).exploration == 2.0


@pytest.mark.parametrize("name", game_names())
def test_no_level_makes_more_mistakes_than_the_one_below(name):
    game = meeple.load(name)
    mistakes = [make_bot(f"mcts:{level}", game).mistakes for level in range(1, 6)]
    assert all(0 < b <= a <= 1 for a, b in zip(mistakes, mistakes[1:-1], strict=False))
    assert mistakes[0] > mistakes[3] > mistakes[4] == 0 == MCTSBot(game).mistakes


def test_mistakes_are_random_legal_moves_played_without_searching():
    game = meeple.load(TINY, rounds=1)
    state = game.new_initial_state()
    state.apply(2, CHANCE)
    view = view_for(state, 0)
    careless = MCTSBot(game, seed=4, iterations=200, seconds=0, mistakes=1.0)
    moves = {careless.act(view) for _ in range(60)}
    assert moves == set(view.legal_actions) and careless.last_iterations == 0
    careful = MCTSBot(game, seed=4, iterations=200, seconds=0, mistakes=0.0)
    # the one round's best bid, 3, every time
    assert {careful.act(view) for _ in range(10)} == {2} and careful.last_iterations == 200
    sometimes = MCTSBot(game, seed=4, iterations=20, seconds=0, mistakes=0.3)
    searched = 0
    for _ in range(200):
        sometimes.act(view)
        searched += sometimes.last_iterations == 20
    assert 110 <= searched <= 170  # about 70% of moves searched


@pytest.mark.timeout(120)
def test_time_limit_and_deadline_cap_the_search():
    """With a billion iterations to run, a time limit or the view's deadline of 0.2 s ends the
    search there (a search they did not end would run into the test's timeout)."""
    game = meeple.load(TINY)
    state = game.new_initial_state()
    state.apply(2, CHANCE)
    capped = [
        (MCTSBot(game, seed=1, iterations=10**9, seconds=60, time_limit=0.2), None),
        (MCTSBot(game, seed=1, iterations=10**9, seconds=60), 0.2),
    ]
    for bot, deadline in capped:
        def view(seconds=deadline):
            return view_for(state, 0, None if seconds is None else time.monotonic() + seconds)

        before = time.perf_counter()
        stop = bot._stop_time(view())
        assert before < stop <= time.perf_counter() + 0.2
        bot.act(view())
        assert 10 < bot.last_iterations < 10**9


def test_same_seed_same_choice():
    game = meeple.load(TINY)
    for state, seat in decision_points(game, random.Random(4)):
        a = MCTSBot(game, seed=9, iterations=60, seconds=0).act(view_for(state, seat))
        b = MCTSBot(game, seed=9, iterations=60, seconds=0).act(view_for(state, seat))
        assert a == b


def test_candidates_are_the_greedy_bots_best_moves():
    """With ``candidates`` the search tries only the best of the bot's own moves by the game's
    ``action_value``; with one candidate it plays the greedy bot's choice."""
    game = meeple.load("koplus", players=2)
    value = game.heuristics.action_value
    rng = random.Random(5)
    moves = 0

    def six_moves(state, p, rng):
        nonlocal moves
        if moves >= 6:
            raise _Enough
        moves += 1
        return rng.choice(state.legal_actions(p))

    state = game.new_initial_state()
    with pytest.raises(_Enough):
        meeple.play_out(state, rng, policy=six_moves)
    seat = state.current_player
    legal = state.legal_actions()
    ranked = sorted(legal, key=lambda a: value(state, seat, a))
    bot = MCTSBot(game, seed=2, level=3, candidates=3)
    root = bot.search(view_for(state, seat))
    assert len(root.stats) == 3
    assert all(value(state, seat, a) >= value(state, seat, ranked[-3]) for a in root.stats)
    best = value(state, seat, ranked[-1])
    one = MCTSBot(game, seed=2, level=3, candidates=1, mistakes=0).act(view_for(state, seat))
    assert value(state, seat, one) == best
    assert len(MCTSBot(game, seed=2, level=3).search(view_for(state, seat)).stats) > 3


def test_search_sees_only_the_view():
    """The other player's sealed bid is not in the view: the search cannot count on it."""
    game = meeple.load(TINY)
    state = game.new_initial_state()
    state.apply(2, CHANCE)  # prize 3
    state.apply(0, 1)  # the opponent bids 1 (unseen)
    bot = MCTSBot(game, seed=3, iterations=300, seconds=0)
    root = bot.search(view_for(state, 0))
    seen_bids = {key[0][1] for key in root.children if isinstance(key, tuple)}
    assert seen_bids == {0, 1, 2}  # every bid of ours tried against redrawn opponent bids


def test_mcts_beats_random_at_the_tiny_game():
    game = meeple.load(TINY)
    rng = random.Random(5)
    total = 0.0
    for g in range(40):
        bots = [make_bot("mcts:3", game, seed=g), make_bot("random", game, seed=g)]
        me = g % 2
        if me:
            bots.reverse()
        total += play(game, bots, rng).returns()[me]
    assert total / 40 > 0.25


def test_simultaneous_choices_meet_every_choice_of_the_other_player():
    """A last round with exact outcomes: bidding 3 never loses, bidding 1 never wins. If both
    players tried their bids in a fixed order, each bid would only ever meet one bid of the
    other player (1 against 1 looks as good as 3 against 3) and some seeds would bid 1."""
    game = meeple.load(TINY, rounds=1)
    state = game.new_initial_state()
    state.apply(2, CHANCE)  # the prize is 3
    for seed in range(40):
        assert MCTSBot(game, seed=seed, iterations=300, seconds=0).act(view_for(state, 0)) == 2


def test_without_chance_nodes_the_moves_after_a_draw_share_one_node():
    """``chance_nodes`` off: the tree does not split on chance outcomes, so the bids after the
    next prize share one node (Kontor's replies after a draw); on, each prize has its own."""
    game = meeple.load(TINY, rounds=2)
    state = game.new_initial_state()
    state.apply(2, CHANCE)
    view = view_for(state, 0)

    def grandchildren(chance_nodes: bool) -> list:
        bot = MCTSBot(game, seed=1, iterations=200, seconds=0, chance_nodes=chance_nodes)
        root = bot.search(view)
        return [key for child in root.children.values() for key in child.children]

    split, shared = grandchildren(True), grandchildren(False)
    assert split and all(key[0] == "c" for key in split)
    assert {key[1] for key in split} == {0, 1}  # the prizes 1 and 2 left for round 2
    assert shared and all(key[0] != "c" for key in shared)
    assert all(dict(key).keys() == {0, 1} for key in shared)  # the next round's joint bids


@pytest.mark.parametrize("name,players,options", configurations(first_only=True))
def test_mcts_plays_a_whole_game(name, players, options):
    game = meeple.load(name, players=players, **options)
    rng = random.Random(8)
    bots = [MCTSBot(game, seed=p, iterations=6, seconds=0, rollout_depth=2) for p in range(players)]
    bots[-1] = make_bot("greedy", game, seed=1)
    state = play(game, bots, rng)
    assert state.is_terminal()
    assert sum(state.returns()) == pytest.approx(0.0)


HIDDEN = [
    p for p in configurations()
    if p.values[0] == TINY
    or not meeple.engine.registry.game_class(p.values[0]).perfect_information
]


@pytest.mark.parametrize("name,players,options", HIDDEN)
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**31))
def test_resampled_states_agree_with_the_observation(name, players, options, seed):
    """For every game with hidden information: a resampled state looks exactly the same from
    the seat it was drawn for, offers the same actions, and plays on to a proper end."""
    game = meeple.load(name, players=players, **options)
    rng = random.Random(seed)
    points = decision_points(game, rng)
    for state, seat in rng.sample(points, min(6, len(points))):
        for _ in range(2):
            other = state.resample(seat, rng)
            assert other is not state
            assert other.observation(seat) == state.observation(seat)
            assert other.legal_actions(seat) == state.legal_actions(seat)
            assert other.current_player == state.current_player
            assert other.move_number() == state.move_number()
            meeple.play_out(other, rng)
            assert other.is_terminal()
            assert sum(other.returns()) == pytest.approx(0.0)
    # resampling leaves the real state alone
    if points:
        state, seat = points[-1]
        before = (state.history(), state.observation(None))
        state.resample(seat, rng)
        assert (state.history(), state.observation(None)) == before


def test_bot_choices_offer_every_level():
    from meeple.bots import bot_choices

    game = meeple.load(TINY)
    choices = bot_choices()
    assert [c["step"] for c in choices] == list(range(1, len(choices) + 1))
    assert len({c["name"] for c in choices}) == len(choices)
    for c in choices:
        bot = make_bot(str(c["spec"]), game, seed=0)
        assert bot.name == c["spec"]
        assert c["name"] and str(c["description"]).endswith(".")


@pytest.mark.parametrize("name", ["kontor", "botanik"])
def test_shortlist_keeps_the_tree_to_the_games_best_moves(name):
    """A game's ``shortlist`` names the moves a tree node weighs: legal ones, and only those
    are searched; its play-out policy plays legal moves."""
    game = meeple.load(name, players=2)
    module = game.heuristics
    rng = random.Random(6)
    pruned = 0
    for state, seat in decision_points(game, rng, limit=80):
        legal = state.legal_actions(seat)
        short = module.shortlist(state, seat, legal)
        assert short and set(short) <= set(legal)
        assert module.rollout_action(state, seat, rng) in legal
        if len(short) < len(legal) and state.current_player == seat and pruned < 3:
            pruned += 1
            root = MCTSBot(game, seed=1, level=3, candidates=0).search(view_for(state, seat))
            assert set(root.stats) == set(short)
    assert pruned == 3


def test_play_outs_stop_for_the_evaluation_only_where_the_game_is_quiet(monkeypatch):
    """A game's ``quiet`` says where a play-out may stop for the evaluation (Botanik: at the
    end of a round); without it, play-outs stop anywhere after ``rollout_depth`` actions."""
    game = meeple.load("botanik")
    module = game.heuristics
    quiet, evaluate = module.quiet, module.evaluate
    points = decision_points(game, random.Random(3), limit=40)[::8]

    def quiet_share() -> float:
        seen: list[bool] = []
        monkeypatch.setattr(module, "evaluate",
                            lambda s, p: seen.append(quiet(s)) or evaluate(s, p))
        for state, seat in points:
            MCTSBot(game, seed=2, level=3, rollout_depth=2).search(view_for(state, seat))
        assert seen
        return sum(seen) / len(seen)

    assert quiet_share() == 1.0
    monkeypatch.delattr(module, "quiet")
    assert quiet_share() < 0.9


def test_seats_policy_plays_each_seat_with_its_own_bot():
    """The play loop with one bot per seat: the greedy bot's choices in seat 0, random in 1."""
    game = meeple.load("koplus", players=2)
    greedy = make_bot("greedy", game, seed=1)
    chosen: list[tuple[int, int, int]] = []

    class Recorder:
        def __init__(self, bot):
            self.bot = bot

        def act(self, view):
            action = self.bot.act(view)
            chosen.append((view.seat, view.move_number, action))
            return action

    bots = [Recorder(greedy), Recorder(make_bot("random", game, seed=2))]
    state = meeple.play_out(game.new_initial_state(), 3, policy=seats_policy(bots))
    assert state.is_terminal()
    moves = [(p, a) for p, a in state.history() if p >= 0]
    assert [(s, a) for s, _, a in chosen] == moves
    assert {s for s, _, _ in chosen} == {0, 1}
