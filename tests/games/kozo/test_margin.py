"""The static referee's margin (rules.md 2.6.1): 0.01 cube edges, so an unstable equilibrium (a
centre of mass exactly over a support edge) falls; edge-to-edge contacts carry nothing; the
pieces named as fallen are pieces that move; the greedy bot plans beyond the referee's margin."""

from __future__ import annotations

import pytest

import meeple
from meeple.engine.errors import RecordError
from meeple.games.kozo import heuristics, physics
from meeple.games.kozo.rules import Kozo


def cells(text: str):
    """A polycube at its nominal pose from ``"xyz xyz ..."``."""
    return ([tuple(int(ch) for ch in c) for c in text.split()], 0.0, 0.0)


def play(moves, **options):
    state = meeple.load("kozo", players=2, **options).new_initial_state()
    for m in moves:
        state.apply(state.string_to_action(m))
    return state


def scene(pieces, balances) -> dict:
    return {"pieces": [{"piece": 1, "cells": c} for c, _, _ in pieces],
            "balances": [{"column": [x, y], "height": h} for x, y, h in balances]}


# ------------------------------------------------------------------------------ the default
def test_the_default_margin_is_the_specs():
    assert physics.STATIC_MARGIN == 0.01
    assert meeple.load("kozo", players=2).options["static_margin"] == 0.01
    assert {o.name: o.default for o in Kozo.option_schema}["static_margin"] == 0.01
    assert Kozo.version == "3"


def test_a_record_says_which_referee_settings_it_was_played_with():
    state = play(["P12.5@0,0", "B@0,0"], static_margin=0.02)
    record = state.game.record(state)
    assert record["version"] == "3"
    assert record["options"]["static_margin"] == 0.02
    assert record["options"]["stability"] == "static"
    assert meeple.replay(record).history() == state.history()
    old = dict(record, version="2")
    with pytest.raises(RecordError, match="version 2, but this meeple plays version 3"):
        meeple.replay(old)


# ------------------------------------------------------------------------------ unstable equilibria
def test_an_s_tetracube_exactly_over_its_support_edge_falls():
    # P8.1@0,0 on the empty base: cells (0,0,0) (0,0,1) (1,0,1) (1,0,2), resting on (0,0) alone
    # with its centre of mass at x = 1, exactly over that square's east edge.
    assert play(["P8.1@0,0"], static_margin=0.0).last_check["result"] == "stable"
    state = play(["P8.1@0,0"])
    assert state.last_check["result"] == "fallen" and state.last_check["referee"] == "static"
    assert state.observation(None)["last_check"]["fell"] == ["P8"]
    piece = [cells("000 001 101 102")]
    assert abs(physics.static_critical_margin(piece)) < 0.001


def test_a_dicube_half_over_the_vs_corner_falls_by_both_referees():
    # P12.6@0,0 (the V along the west and north sides), B@2,2, then P1.2@0,0: the dicube
    # (0,0,1) (1,0,1) rests on (0,0) alone, its centre of mass exactly over the square's edge.
    moves = ["P12.6@0,0", "B@2,2", "P1.2@0,0"]
    assert play(moves, static_margin=0.0).last_check["result"] == "stable"
    state = play(moves)
    assert state.last_check["result"] == "fallen"
    assert state.observation(None)["last_check"]["fell"] == ["P1"]
    pieces = [cells("000 010 020 120 220"), cells("001 101")]
    balances = [(2, 2, 1)]
    assert physics.static_stands(pieces, balances, margin=0.0)
    assert not physics.static_stands(pieces, balances)
    stands, moved, _, _ = physics.mujoco_verdict(pieces, balances)
    assert not stands and moved == [1]
    assert play(moves, stability="mujoco").last_check["result"] == "fallen"


# ------------------------------------------------------------------------------ edge to edge
EDGE_PROP = cells("010 020")
"""A dicube along the west side whose top edge at x = 1 meets the bottom edge of the S below."""
S_ON_ONE_SQUARE = cells("220 221 121 122")
"""An S-tetracube on (2,2) alone, its centre of mass exactly over the square's west edge; its
cube (1,2,1) overhangs the empty (1,2), its bottom edge exactly on the prop's top edge."""


def test_an_edge_to_edge_contact_carries_nothing():
    pieces = [EDGE_PROP, S_ON_ONE_SQUARE]
    balances = [(0, 2, 1), (1, 2, 3)]  # the second pulls the S's centre of mass west
    # The two squares meet only along the line x = 1: no force, so the S falls ...
    assert not physics.static_stands(pieces, balances, margin=0.0)
    assert not physics.static_stands(pieces, balances)
    assert physics.static_unbalanced(pieces, balances) == [1, 3]
    # ... and stands as soon as contacts grow into thin strips: a tower at the threshold.
    assert physics.static_stands(pieces, balances, margin=-0.002)
    assert abs(physics.static_critical_margin(pieces, balances)) < 0.001
    assert not physics.static_stands(pieces, balances, friction=None)
    # MuJoCo's boxes do touch along the edge: the prop holds the S there ...
    assert physics.mujoco_verdict(pieces, balances)[0]
    assert physics.mujoco_verdict(pieces, balances, refine=2)[0]
    # ... which falls without it.
    assert not physics.mujoco_verdict([S_ON_ONE_SQUARE], [(1, 2, 3)])[0]


def test_mujoco_lets_some_edge_to_edge_contacts_slip():
    # An I-tricube on (2,0) alone, its far cube's lower edge along the upper edge of an
    # L-tricube's cube in the next column: the static referee is at its threshold as above,
    # and here MuJoCo lets the bar slide off the edge.
    pieces = [cells("200 210"), cells("010 020 120"), cells("001 101 201")]
    balances = [(2, 1, 1), (0, 2, 1)]
    assert not physics.static_stands(pieces, balances, margin=0.0)
    assert physics.static_stands(pieces, balances, margin=-0.002)
    stands, moved, _, _ = physics.mujoco_verdict(pieces, balances)
    assert not stands and moved == [2]


def test_an_edge_to_edge_contact_in_a_game_falls():
    state = play(["P1.1@0,1", "B@0,2"])
    assert state.last_check["result"] == "stable"
    state.apply(state.string_to_action("P8.7@1,2"))  # the S above: the edge does not hold it
    assert state.last_check["result"] == "fallen"
    assert state.observation(None)["last_check"]["fell"] == ["P8"]


# ------------------------------------------------------------------------------ what fell
PROPPED = (
    [cells(t) for t in (
        "101 200 201", "220 221 222", "020 021 022 121", "000 010", "125 223 224 225",
        "001 002 003 103 203", "004 005 013 014", "006 007 016 106")]
    + [([(0, 0, 8), (0, 0, 9), (0, 0, 10), (0, 0, 11)], 0.0, 0.0), cells("107 207 217 218")]
)
PROPPED_BALANCES = [(2, 0, 2), (1, 0, 2), (1, 2, 2), (0, 2, 3), (2, 2, 6), (1, 2, 6), (0, 1, 5),
                    (2, 0, 4), (0, 1, 7)]


def test_the_piece_named_as_fallen_is_the_one_that_moves():
    # The last piece tips off its support; an upright I-tetracube beside it (body 8) could
    # hold the tower only with outside help too (it presses on the support's other end), but
    # it does not move: it is not named.
    assert not physics.static_stands(PROPPED, PROPPED_BALANCES)
    fell = physics.static_unbalanced(PROPPED, PROPPED_BALANCES)
    assert fell == [9]
    motion = physics.motion(scene(PROPPED, PROPPED_BALANCES))
    assert motion["fallen"] and 9 in motion["moved"] and 8 not in motion["moved"]


def test_named_pieces_move_on_generated_towers():
    from .towers import generate_towers

    checked = 0
    for pieces, balances in generate_towers(16, seed=3):
        if physics.static_stands(pieces, balances):
            continue
        motion = physics.motion(scene(pieces, balances))
        fell = physics.static_unbalanced(pieces, balances)
        assert fell
        if motion["fallen"]:
            named = {i for i in fell if i < len(pieces)}
            assert named and named <= set(motion["moved"]), (fell, motion["moved"])
            checked += 1
    assert checked >= 6


def test_after_a_fall_the_named_piece_moved_in_the_motion():
    state = play(["P12.5@0,0", "B@0,0", "P2.1@2,0"])  # example Z4 B in a game
    check = state.observation(None)["last_check"]
    assert check["result"] == "fallen" and check["fell"] == ["P2"]
    motion = physics.motion(check["scene"])
    assert [motion["bodies"][i]["piece"] for i in motion["moved"]] == ["P2"]


# ------------------------------------------------------------------------------ the greedy bot
@pytest.mark.parametrize("margin", [0.0, 0.01, 0.05, 0.1])
def test_the_greedy_bot_plans_beyond_the_referees_margin(margin, monkeypatch):
    assert heuristics.plan_margin({"static_margin": margin}) > margin
    placing = play(["P12.5@0,0", "B@0,0"], static_margin=margin)
    balancing = placing.clone()
    balancing.apply(balancing.legal_actions()[0])
    assert balancing.last_check["result"] == "stable"
    seen: list[float] = []
    judge = physics.static_stands

    def spy(pieces, balances=(), margin=physics.STATIC_MARGIN, friction=physics.STATIC_FRICTION):
        seen.append(margin)
        return judge(pieces, balances, margin, friction)

    monkeypatch.setattr(heuristics.physics, "static_stands", spy)
    for state in (placing, balancing):
        heuristics.action_value(state, state.current_player, state.legal_actions()[0])
    assert len(seen) == 2 and min(seen) > margin


def test_z5_turn_17_is_held_by_side_pushes_with_room_to_spare():
    # Round 3 of example Z5 up to game turn 17 (P8.1@0,0 at z0 = 1): the spec's gravity-only
    # model puts it exactly at its threshold; side pushes and friction hold it far from it.
    state = meeple.load("kozo", players=3, rounds=1).new_initial_state()
    for poly, bal in [("P12.6@0,0", "B@0,1"), ("P3.8@1,0", "B@1,0"), ("P7.23@1,0", "B@2,2"),
                      ("P9.4@0,1", "B@0,1"), ("P1.1@2,0", "B@0,2"), ("P2.1@2,0", "B@2,0")]:
        state.apply(state.string_to_action(poly))
        state.apply(state.string_to_action(bal))
    state.apply(state.string_to_action("P8.1@0,0"))
    assert state.last_check["result"] == "stable"
    pieces, balances = state.physics_tower()
    assert abs(physics.static_critical_margin(pieces, balances, friction=None)) < 0.001
    assert physics.static_critical_margin(pieces, balances) > 0.25
