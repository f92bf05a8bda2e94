"""The two stability referees against each other on generated towers (stable and unstable,
with overhangs and bridges).

The static referee (rules.md 2.6.1) is conservative: side faces carry no force. So:

- on every tower whose static margin is clear of the threshold, "static stands" implies
  "MuJoCo stands";
- a tower the static referee calls fallen, clear of the threshold, whose falling bodies lean on
  no neighbour's side face, also falls in MuJoCo;
- every disagreement is a threshold case (a centre of mass exactly over a support edge) or a
  body held by a neighbour's side face.
"""

from __future__ import annotations

import pytest

from meeple.games.kozo import physics

from .towers import describe, generate_towers

CLEAR = 0.01  # cube edges the contacts may shrink or grow before the static verdict changes


def compare(count: int, seed: int) -> dict:
    rows = []
    for pieces, balances in generate_towers(count, seed):
        static = physics.static_stands(pieces, balances)
        margin = physics.static_critical_margin(pieces, balances)
        mujoco, _, disp, tilt = physics.mujoco_verdict(pieces, balances)
        leaning = False
        if not static:
            bad = set(physics.static_unbalanced(pieces, balances))
            leaning = any(a in bad or b in bad for a, b, *_ in physics.side_contacts(pieces))
        rows.append((static, mujoco, margin, leaning, disp, tilt, describe(pieces)))
    clear = [r for r in rows if abs(r[2]) >= CLEAR]
    for static, mujoco, margin, leaning, _, _, text in clear:
        if static:
            assert mujoco, f"static stands (margin {margin:.3f}) but MuJoCo falls: {text}"
        elif not leaning:
            assert not mujoco, f"static falls (margin {margin:.3f}), MuJoCo stands: {text}"
    for static, mujoco, margin, leaning, *_ in rows:
        if static != mujoco:
            assert abs(margin) < CLEAR or leaning
    stats = {
        "towers": len(rows),
        "static_stands": sum(r[0] for r in rows),
        "agree": sum(r[0] == r[1] for r in rows),
        "clear": len(clear),
        "clear_agree": sum(r[0] == r[1] for r in clear),
        "clear_not_leaning": sum(1 for r in clear if not r[3]),
        "clear_not_leaning_agree": sum(r[0] == r[1] for r in clear if not r[3]),
    }
    print("referee agreement:", stats)
    return stats


def test_referees_agree_on_clear_towers_quick():
    stats = compare(30, seed=5)
    assert stats["clear_not_leaning"] == stats["clear_not_leaning_agree"]
    assert stats["static_stands"] == 15


@pytest.mark.slow
def test_referees_agree_on_200_towers():
    stats = compare(200, seed=1)
    assert stats["towers"] == 200 and stats["static_stands"] == 100
    assert stats["clear_not_leaning"] == stats["clear_not_leaning_agree"]
    assert stats["agree"] >= 150  # 160 of 200 with MuJoCo 4.0.1
