"""The two stability referees against each other on generated towers (stable and unstable,
with overhangs and bridges): they agree on every tower clear of both referees' thresholds.

A tower is **clear** (rules.md 2.6.1, "How the two referees compare") when all of these hold:

- static margin: the static verdict does not change while every contact polygon shrinks or
  grows by up to ``CLEAR_MARGIN`` cube edges more than the referee's own margin (the centre of
  mass of what a support carries is not within that distance of the referee's threshold, and
  no knife edge decides);
- friction: the static verdict is the same with friction 0.4 and 0.6 as with 0.5;
- MuJoCo's movement: the largest move over 0.25 U and the largest turn over 10 degrees, taken
  together as ``max(move / 0.25, turn / 10)``, is not between 0.4 and 2.5 (a verdict run that
  ended near its own fall thresholds);
- MuJoCo's contacts: the verdict is the same with contacts twice as stiff and half the
  timestep (otherwise it depends on the simulated wood's softness, not on the tower).

``CLEAR_MARGIN`` is MuJoCo's own resolution at a support edge, measured on single overhanging
pieces with a centre of mass a known distance past or short of the edge: an upright
I-tetracube 0.01 short of the edge falls, and with balance cubes on top a piece 0.02 past an
edge falls asleep before it tips (a body at rest that starts to move slowly is put to sleep).
"""

from __future__ import annotations

import pytest

from meeple.games.kozo import physics

from .towers import describe, generate_towers

CLEAR_MARGIN = 0.025
FRICTION_BAND = (0.4, 0.6)
MOVE_BAND = (0.4, 2.5)


def judge(pieces, balances) -> dict:
    """Both referees' verdicts on one tower and how far each is from its thresholds."""
    static = physics.static_stands(pieces, balances)
    mujoco, _, move, turn = physics.mujoco_verdict(pieces, balances)
    return {
        "static": static,
        "margin": physics.static_critical_margin(pieces, balances),
        "friction_steady": all(
            physics.static_stands(pieces, balances, friction=f) == static for f in FRICTION_BAND
        ),
        "mujoco": mujoco,
        "move_ratio": max(move / 0.25, turn / 10.0),
        "stiff_mujoco": physics.mujoco_verdict(pieces, balances, refine=2)[0],
        "literal": physics.static_stands(pieces, balances, friction=None),
        "text": describe(pieces),
    }


def clear_reasons(row: dict) -> list[str]:
    """Why a tower is not clear of the thresholds (empty: it is clear)."""
    out = []
    if abs(row["margin"] - physics.STATIC_MARGIN) < CLEAR_MARGIN:
        out.append("static margin")
    if not row["friction_steady"]:
        out.append("friction")
    if MOVE_BAND[0] < row["move_ratio"] < MOVE_BAND[1]:
        out.append("MuJoCo movement")
    if row["stiff_mujoco"] != row["mujoco"]:
        out.append("MuJoCo contacts")
    return out


def compare(count: int, seed: int) -> dict:
    rows = [judge(p, b) for p, b in generate_towers(count, seed)]
    clear = [r for r in rows if not clear_reasons(r)]
    for r in clear:
        assert r["static"] == r["mujoco"], (
            f"static {'stands' if r['static'] else 'falls'} (margin {r['margin']:.3f}), "
            f"MuJoCo {'stands' if r['mujoco'] else 'falls'}: {r['text']}")
    stats = {
        "towers": len(rows),
        "static_stands": sum(r["static"] for r in rows),
        "agree": sum(r["static"] == r["mujoco"] for r in rows),
        "agree_stiff_mujoco": sum(r["static"] == r["stiff_mujoco"] for r in rows),
        "agree_literal_spec_model": sum(r["literal"] == r["mujoco"] for r in rows),
        "clear": len(clear),
        "clear_agree": sum(r["static"] == r["mujoco"] for r in clear),
    }
    for reason in ("static margin", "friction", "MuJoCo movement", "MuJoCo contacts"):
        hit = [r for r in rows if reason in clear_reasons(r)]
        stats[f"not clear: {reason}"] = (len(hit), sum(r["static"] != r["mujoco"] for r in hit))
    print("referee agreement:", stats)
    return stats


def test_referees_agree_on_clear_towers_quick():
    stats = compare(30, seed=5)
    assert stats["static_stands"] == 15
    assert stats["clear"] == stats["clear_agree"] >= 15


@pytest.mark.slow
def test_referees_agree_on_200_towers():
    stats = compare(200, seed=1)
    assert stats["towers"] == 200 and stats["static_stands"] == 100
    assert stats["clear"] == stats["clear_agree"]
    assert stats["clear"] >= 110  # 119 of 200 with MuJoCo 4.0.1
    assert stats["agree"] >= 165  # 172 of 200 with MuJoCo 4.0.1


def cells(text: str):
    """A polycube at its nominal pose from ``"xyz xyz ..."``."""
    return ([tuple(int(ch) for ch in c) for c in text.split()], 0.0, 0.0)


def test_a_piece_leaning_on_a_neighbours_side_stands():
    # The second piece rests on one cube of the first, its centre of mass 0.25 west of that
    # cube's edge; as it tips west, its lower cubes press on the first piece's side face, which
    # holds it (friction on the face it rests on balances that push).
    pieces = [cells("100 101 201 211"), cells("001 002 011 102")]
    balances = [(2, 0, 2)]
    assert not physics.static_stands(pieces, balances, friction=None)  # the literal spec model
    assert physics.static_stands(pieces, balances)
    assert physics.static_critical_margin(pieces, balances) > 0.1
    assert physics.mujoco_verdict(pieces, balances)[0]
    # Without friction on the face it rests on, nothing balances the push: it falls.
    assert not physics.static_stands(pieces, balances, friction=0.0)


def test_a_knife_edge_carries_nothing():
    # The third piece rests with one cube on the second piece and with the bottom edge of
    # another exactly on the top edge of the first piece: it falls, and stands only if contacts
    # grow (so the tower is at the static threshold, not clear of it).
    pieces = [cells("010 011 021"), cells("200 201 210 211"), cells("002 003 102 202")]
    balances = [(0, 1, 2), (2, 1, 2)]
    assert not physics.static_stands(pieces, balances)
    assert physics.static_stands(pieces, balances, margin=-0.002)
    assert abs(physics.static_critical_margin(pieces, balances)) < 0.01
    assert not physics.mujoco_verdict(pieces, balances)[0]


def test_the_literal_spec_model_is_never_more_lenient():
    for pieces, balances in generate_towers(30, seed=7):
        if physics.static_stands(pieces, balances, friction=None):
            assert physics.static_stands(pieces, balances)
            assert physics.static_stands(pieces, balances, friction=0.0)
