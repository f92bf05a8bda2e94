"""Learning Kozo: the positions of the worked examples (rules.md §9, Z3 and Z5), the player aid
and the guided first game. Every sentence a learner reads is here or in ``howto.md``."""

from __future__ import annotations

from typing import Any

from meeple.engine import State, load
from meeple.engine.i18n import N_, words
from meeple.engine.lessons import Aid, Lesson, Position, Step, play

_, _n = words(__file__)

Z3 = ((0, "P12.5@0,0"), (0, "B@0,0"), (1, "P7.2@1,2"), (1, "B@2,2"), (0, "P3.10@0,0"),
      (0, "B@1,0"))
"""Examples Z3 and Z5: the V in a corner, balance cubes, and a piece reaching over one."""
Z4B = ((0, "P12.5@0,0"), (0, "B@0,0"), (1, "P2.1@2,0"))
"""Example Z4, scene B: a bar resting on one column only, its weight past the edge."""


def tower(moves: tuple[tuple[int, str], ...] = ()) -> State:
    """A 2-player game at the start of its first round, then ``moves``."""
    return play(load("kozo", players=2).new_initial_state(), moves)


POSITIONS = (
    Position("start", tower),
    Position("first_piece", lambda: tower(Z3[:2])),
    Position("over_a_balance_cube", lambda: tower(Z3)),
    Position("a_fall", lambda: tower(Z4B), viewer=None),
)

STEPS = (
    Step(
        title=N_("The first piece"),
        position="start",
        text=N_("The tower stands on the eight squares around the open chimney in the middle. "
                "Lay the big V flat in the south-west corner: it rests on five squares, a steady "
                "start, and it is worth 5 points."),
        expect=("P12.5@0,0",),
        good=N_("The V lies flat on five squares. Now it needs a balance cube."),
        wrong={"P5.2@0,0": N_("A flat square would lie over the chimney in the middle; no piece "
                              "may.")},
        otherwise=N_("Lay the V flat in the south-west corner, on five squares."),
    ),
    Step(
        title=N_("A balance cube"),
        text=N_("Every turn ends with a small balance cube on top of a piece. Put it on the corner "
                "of your V, the south-west square: the next turn shows how a piece may reach over "
                "it."),
        expect=("B@0,0",),
        good=N_("The tower still stands, so you take the V's tile: 5 points. Then your opponent "
                "lays an L-shaped piece in the north-east and a balance cube on it."),
        otherwise=N_("Any top of a piece would do in a game; here put it on the corner, the "
                     "south-west square."),
        replies=((1, "P7.2@1,2"), (1, "B@2,2")),
    ),
    Step(
        title=N_("Over a balance cube"),
        text=N_("No piece may rest on a balance cube, but one may reach over it. Lay the small "
                "L on the south side, two cubes high, so it rests on the V's south square and its "
                "other end hangs above the balance cube."),
        expect=("P3.10@0,0",),
        good=N_("It rests on the V and passes over the balance cube without touching it."),
        wrong={"P1.2@0,0": N_("That small bar would rest on the balance cube in the corner; no "
                              "piece may.")},
        otherwise=N_("Lay the small L on the south side, two cubes high, over the balance cube."),
    ),
    Step(
        title=N_("Finish the turn"),
        text=N_("Now the balance cube of this turn. Put it on the top of the piece you just laid, "
                "above the south square or the south-west corner."),
        expect=("B@1,0", "B@0,0"),
        good=N_("The tower stands: the tile is yours. If the tower falls on your turn, you lose "
                "all your points of this round."),
        otherwise=N_("Put it on the piece you just laid, on the south or south-west square."),
    ),
)

LESSON = Lesson(
    players=2,
    positions=POSITIONS,
    steps=STEPS,
    closing=N_("That is Kozo: lay a piece and a balance cube each turn, keep the tower standing, "
               "and take the piece's tile. Now play a whole game against the easiest bot."),
)

AID = Aid(
    scoring=(
        (N_("Each piece laid while the tower stands"), N_("its tile: 2 to 5 points, one per cube")),
        (N_("The tower falls on your turn"), N_("you lose all your points of this round")),
        (N_("The others, when the tower falls"), N_("keep their points of the round")),
        (N_("After three rounds"), N_("the most points wins")),
        (N_("A tie"), N_("the later successful turn wins")),
    ),
    turn=(
        N_("Lay a piece not yet in the tower, turned any way; it drops straight down."),
        N_("Nothing over the chimney or outside the eight squares, nothing resting on a balance "
           "cube."),
        N_("Put a balance cube on the top of a piece (not on the base, not on another cube)."),
        N_("If the tower still stands, take the piece's tile."),
    ),
)


def ask(observation: dict[str, Any]) -> str:
    """What the current step asks of the observation's viewer."""
    if observation.get("terminal"):
        return _("The game is over: the most points after the last round wins.")
    viewer = observation.get("viewer")
    phase = observation.get("phase")
    if phase == "choose_size":
        return _("Choose the size of the piece the other player lays next.")
    if phase == "choose_piece":
        return _("Choose the piece the other player lays next.")
    if phase in ("draw", "tremor"):
        return _("Chance decides now.")
    if viewer is None or viewer != observation.get("current_player"):
        return _("Wait for the player to move; watch the tower.")
    if phase == "balance":
        return _("Put a balance cube on the top of a piece, not on the base and not on "
                 "another balance cube.")
    size = observation.get("required_size")
    if size:
        return _("Lay a piece of size {size}: nothing over the chimney, nothing resting on a "
                 "balance cube; keep the tower standing.", size=size)
    return _("Lay a piece not yet in the tower: nothing over the chimney, nothing resting on a "
             "balance cube; keep the tower standing.")
