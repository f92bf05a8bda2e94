"""MuJoCo verdicts are kept by tower: a second check of the same tower reads the kept verdict,
which equals a fresh simulation, and a state's record of it cannot change the kept one."""

from __future__ import annotations

import meeple
from meeple.games.kozo import physics
from meeple.games.kozo import rules as kozo_rules


def _checked_tower(state) -> tuple[list, list]:
    """The tower of the state's last check as the referees take it."""
    tower, balances, tremor = state.last_check["tower"]
    pieces = [(entry[5], 0.0, 0.0) for entry in tower]
    if tremor != (0.0, 0.0):
        pieces[-1] = (pieces[-1][0], tremor[0], tremor[1])
    return pieces, list(balances)


def _counting(monkeypatch) -> list[int]:
    """Count the simulations the rules run (the real MuJoCo verdict, counted)."""
    runs = [0]
    real = physics.mujoco_verdict

    def counted(*args, **kwargs):
        runs[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(kozo_rules.physics, "mujoco_verdict", counted)
    return runs


def test_second_check_of_a_tower_reads_the_kept_verdict(monkeypatch):
    runs = _counting(monkeypatch)
    game = meeple.load("kozo", players=2, stability="mujoco", rounds=1)
    s = game.new_initial_state()
    before = s.clone()
    move = s.string_to_action("P12.6@0,0")
    s.apply(move)
    assert runs[0] == 1
    again = before.clone()
    again.apply(move)
    assert runs[0] == 1  # the same tower: no second simulation
    assert again.last_check["result"] == s.last_check["result"]
    assert again.last_check["moved"] == s.last_check["moved"]
    pieces, balances = _checked_tower(s)
    stands, moved, _, _ = physics.mujoco_verdict(pieces, balances)
    assert (s.last_check["result"] == "stable") is stands
    assert s.last_check["moved"] == moved


def test_a_falling_tower_keeps_the_bodies_that_moved(monkeypatch):
    runs = _counting(monkeypatch)
    game = meeple.load("kozo", players=2, stability="mujoco", rounds=1)
    s = game.new_initial_state()
    s.apply(s.string_to_action("P3.8@1,0"))
    s.apply(s.string_to_action("B@1,0"))
    before = s.clone()
    fresh = s.legal_actions()
    # the first placement that topples the tower by MuJoCo
    for a in fresh:
        t = before.clone()
        t.apply(a)
        if t.last_check["result"] == "fallen":
            break
    else:  # pragma: no cover - the tower always has a falling placement here
        raise AssertionError("no falling placement found")
    moved = t.last_check["moved"]
    assert moved, "a fallen tower names the bodies that moved"
    moved.append(99)  # a caller changing its record does not change the kept verdict
    n = runs[0]
    u = before.clone()
    u.apply(a)
    assert runs[0] == n
    assert u.last_check["result"] == "fallen"
    assert 99 not in u.last_check["moved"]
    pieces, balances = _checked_tower(u)
    assert u.last_check["moved"] == physics.mujoco_verdict(pieces, balances)[1]


def test_tremor_offsets_are_part_of_the_kept_tower():
    game = meeple.load("kozo", players=2, tremor=0.2, rounds=1)
    s = game.new_initial_state()
    s.apply(s.string_to_action("P12.6@0,0"))
    assert s.current_player == meeple.CHANCE and not game.mujoco_verdicts
    offsets = []
    for outcome in (0, 4, 8):  # the same polycube shaken three ways
        t = s.clone()
        t.apply(outcome)
        offsets.append(t.tremor)
        pieces, balances = _checked_tower(t)
        stands = physics.mujoco_verdict(pieces, balances)[0]
        assert (t.last_check["result"] == "stable") is stands
    assert len(set(offsets)) == 3
    kept = sorted((ox, oy) for pieces, _ in game.mujoco_verdicts for _, ox, oy in pieces)
    assert kept == sorted(offsets)  # one verdict per shaken tower, none shared
