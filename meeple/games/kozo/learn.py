"""Learning Kozo: the positions of the worked examples (rules.md §9, Z3 and Z5), the player aid
and the guided first game: three short rounds, each ended by a fall, to the final scoring. Every
sentence a learner reads is here or in ``howto.md``."""

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
        replies=((1, "P4.0@0,0"), (1, "P12.5@0,0"), (1, "B@0,0")),
    ),
    Step(
        title=N_("Round 2: a new tower"),
        text=N_("Your opponent stood the long blue bar upright on the south-west corner, four "
                "cubes high, and the tower fell. Round 1 is over: you keep your 8 points, they "
                "lose their 4. A new tower is built for round 2, started by your opponent: the V "
                "and a balance cube. Lay the orange block of four cubes on the east and "
                "north-east squares, standing on the base: a steady piece."),
        expect=("P5.0@2,1",),
        good=N_("It stands on the base itself, as steady as a piece can be."),
        otherwise=N_("Lay the orange block of four cubes on the east and north-east squares of the "
                     "base."),
    ),
    Step(
        title=N_("A balance cube on the V"),
        text=N_("Put this turn's balance cube on the V, on the south square."),
        expect=("B@1,0",),
        good=N_("4 points. Your opponent lays the pink screw across the west and north of the "
                "base and a balance cube on the V: 9 points for them this round."),
        otherwise=N_("Put the balance cube on the V, on the south square."),
        replies=((1, "P10.7@0,1"), (1, "B@2,0")),
    ),
    Step(
        title=N_("A fall"),
        text=N_("See what a fall costs. Lay the red dicube flat across the south-west and west "
                "squares: it looks harmless, but its weight is not over what holds it."),
        expect=("P1.1@0,0",),
        good=N_("The tower falls on your turn: round 2 is over, and you lose your 4 points of "
                "this round. Your opponent keeps their 9."),
        otherwise=N_("Lay the red dicube flat across the south-west and west squares, to see a "
                     "fall."),
    ),
    Step(
        title=N_("Round 3: you start"),
        text=N_("The last round, and you start it. Lay the V flat in the south-west corner "
                "again: five squares of the base hold it."),
        expect=("P12.5@0,0",),
        good=N_("A steady start: 5 points once the balance cube is on."),
        otherwise=N_("Lay the V flat in the south-west corner, on five squares."),
    ),
    Step(
        title=N_("Balance cube, round 3"),
        text=N_("Put the balance cube on the corner of the V, the south-west square."),
        expect=("B@0,0",),
        good=N_("5 points. Your opponent lays the orange block on the base and a balance cube: "
                "4 points for them."),
        otherwise=N_("Put the balance cube on the south-west square of the V."),
        replies=((1, "P5.0@2,1"), (1, "B@1,0")),
    ),
    Step(
        title=N_("Low and wide"),
        text=N_("Lay the pink screw across the west, north-west and north squares, standing on "
                "the base: low pieces keep the tower steady."),
        expect=("P10.7@0,1",),
        good=N_("It stands on the base itself."),
        otherwise=N_("Lay the pink screw across the west, north-west and north squares, two "
                     "cubes high on the north."),
    ),
    Step(
        title=N_("The end of the game"),
        text=N_("Put the balance cube on the V's south-east square. The tower stands: the tile "
                "is yours."),
        expect=("B@2,0",),
        good=N_("Your opponent lays the red dicube where yours fell, and the tower falls again: "
                "they lose their 4 points of round 3. After three rounds the game is over: you "
                "have 8 points from round 1, none from round 2 and 9 from round 3, 17 against "
                "their 9. You win."),
        otherwise=N_("Put the balance cube on the south-east square of the V."),
        replies=((1, "P1.1@0,0"),),
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
