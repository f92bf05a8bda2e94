"""Learning KoPlus: the positions of the worked examples (rules.md §9), the player aid and the
guided first game: a whole game on board F2, from example K3's first tile and bonus turns to a
pass and the final scoring (a largest group shared, a smaller group, a lone tile). Every sentence
a learner reads is here or in ``howto.md``."""

from __future__ import annotations

from typing import Any

from meeple.engine import CHANCE, load
from meeple.engine.i18n import N_, words
from meeple.engine.lessons import Aid, Lesson, Position, Step, ending, play

from .rules import KoPlusState

_, _n = words(__file__)

F2_DEALS = ("deal S01/0 @0", "deal S02/1 @1", "deal S03/2 @2", "deal S04/3 @3", "deal S05/0 @4",
            "deal S06/1 @5", "deal S07/2 @6", "deal S08/3 @7", "deal S09/0 @8")
"""Fixture F2: the board of 9 sections dealt by fixed chance outcomes."""
K3 = ((0, "U2@6,5"), (1, "X@3,4"), (0, "X@7,3"), (1, "U1@3,3"), (0, "U2@8,7"), (0, "X@2,0"),
      (0, "U0@10,4"))
"""Example K3: a first tile, contact, and a bonus turn reached with exactly 20 points."""


def f2(moves: tuple[tuple[int, str], ...] = ()) -> KoPlusState:
    """The 2-player board F2, then ``moves``."""
    state = load("koplus", players=2).new_initial_state()
    play(state, [(CHANCE, d) for d in F2_DEALS])
    play(state, moves)
    assert isinstance(state, KoPlusState)
    return state


POSITIONS = (
    Position("start", f2),
    Position("first_tile", lambda: f2(K3[:1])),
    Position("contact", lambda: f2(K3[:4])),
    Position("bonus", lambda: f2(K3[:5])),
    Position("the_end", lambda: ending(LESSON), viewer=None),
)

STEPS = (
    Step(
        title=N_("Your first tile"),
        position="start",
        text=N_("Your top tile is a U. The first tile of the game lies in the middle section of "
                "the board. Lay the U opening downwards where it catches the 5 and the 4: "
                "9 points, the most one tile may catch."),
        expect=("U2@6,5",),
        good=N_("9 points at once: a tile scores the aliens it covers."),
        wrong={
            "U0@4,4": N_("That U catches only 3 points; look for the one on the 5 and the 4."),
            "U1@4,7": N_("The first tile has to lie wholly inside the middle section."),
        },
        otherwise=N_("That tile catches fewer points. Lay the U on the 5 and the 4 for 9."),
        replies=((1, "X@3,4"),),
    ),
    Step(
        title=N_("Touch a tile"),
        text=N_("Your opponent laid a plus touching your U. Now your top tile is a plus. Every "
                "tile after the first has to share an edge with a tile already laid. Lay it "
                "below your U, to the left, on the two 1s and the 2: 4 points, and it joins your "
                "U into one group, which counts at the end."),
        expect=("X@7,3",),
        good=N_("4 points, and your two tiles touch: they are one group now."),
        wrong={"X@8,5": N_("That plus touches your U only at its corners. A tile has to share "
                           "an edge with one already laid.")},
        otherwise=N_("Lay the plus below your U, to the left, on the two 1s and the 2, so your "
                     "tiles join."),
        replies=((1, "U1@3,3"),),
    ),
    Step(
        title=N_("Exactly 20 points"),
        text=N_("Your opponent laid a U. You have 13 points. Reaching exactly 20, 40 or 60 "
                "gives you a bonus turn. Lay the U opening downwards below your tiles, to the "
                "right, on the 2, the 1 and the 4: 7 points make exactly 20."),
        expect=("U2@8,7",),
        good=N_("Exactly 20: you play again at once."),
        otherwise=N_("That tile does not bring you to exactly 20. Look for the U worth 7."),
    ),
    Step(
        title=N_("A bonus turn"),
        text=N_("A bonus turn: your next tile is a plus. If you are still on exactly 20 after it, "
                "you get one more bonus turn. Lay the plus at the far left, touching your "
                "opponent's U: it catches nothing and keeps you on 20."),
        expect=("X@2,0",),
        good=N_("Still 20: one more bonus turn, your last one. Your plus stands alone for now: "
                "a tile touching none of your own costs 5 points at the end, unless you join "
                "it to another tile of yours later."),
        otherwise=N_("That plus catches points, so you leave 20 and the bonus ends. Lay the one "
                     "at the far left that catches nothing."),
    ),
    Step(
        title=N_("At most 9 points"),
        text=N_("Your last bonus turn, with a U. A tile may cover at most 9 points of aliens: "
                "a place worth 10 or more is not allowed. Lay the U above your first tile, "
                "opening to the left around the end of your opponent's plus, on the 4, the 2 "
                "and the 3: 9 points."),
        expect=("U3@3,6",),
        good=N_("29 points, and your bonus turns are used up: reaching 40 or 60 later brings "
                "no more. Your opponent lays a plus at the top, on the 5 and the 2."),
        otherwise=N_("Lay the U above your first tile, opening to the left, on the 4, the 2 and "
                     "the 3."),
        replies=((1, "X@0,3"),),
    ),
    Step(
        title=N_("Grow your group"),
        text=N_("Your tiles in the middle form one group; the larger it grows, the better at "
                "the end. Lay the plus below your tiles on the right, on the 3 and the 5: "
                "8 points."),
        expect=("X@9,7",),
        good=N_("37 points, and the plus joins your group. Your opponent lays a U at the top, "
                "beside their plus: 9 points."),
        otherwise=N_("Lay the plus below your tiles on the right, on the 3 and the 5."),
        replies=((1, "U3@0,5"),),
    ),
    Step(
        title=N_("Along the bottom"),
        text=N_("Lay the U at the bottom, opening to the right, on the 5 and the 3: 8 points, "
                "touching two of your tiles."),
        expect=("U1@9,5",),
        good=N_("45 points. Your opponent lays a plus at the top, on the 3, the 1 and the 5: "
                "9 points."),
        wrong={"U2@10,4": N_("That U catches 9, one more, and would be a good move in a game "
                             "too. Here lay the one opening to the right, on the 5 and the 3, "
                             "to follow this game.")},
        otherwise=N_("Lay the U at the bottom, opening to the right, on the 5 and the 3."),
        replies=((1, "X@0,7"),),
    ),
    Step(
        title=N_("Up to the right"),
        text=N_("Lay the plus at the right of your U with the 4, on the 5 and the 2: 7 points, "
                "and it touches your group."),
        expect=("X@2,8",),
        good=N_("52 points. Your opponent lays a U at the left, on the 5 and the 4: 9 points."),
        otherwise=N_("Lay the plus at the right of your U with the 4, on the 5 and the 2."),
        replies=((1, "U2@6,1"),),
    ),
    Step(
        title=N_("A group of two"),
        text=N_("Now your lone plus at the far left. Lay the U above it, opening to the right, "
                "on the 4, the 1 and the 3: 8 points, and the two tiles touch. A group smaller "
                "than your largest costs 3 points a tile at the end, less than 5 for each tile "
                "alone."),
        expect=("U1@0,2",),
        good=N_("60 points, and no tile of yours is alone. Your opponent lays a plus at the "
                "lower left: 6 points."),
        otherwise=N_("Lay the U above your lone plus, opening to the right, on the 4, the 1 "
                     "and the 3."),
        replies=((1, "X@8,0"),),
    ),
    Step(
        title=N_("Few places left"),
        text=N_("The board is filling up: only a few places are left where a plus touches a "
                "tile and covers no more than 9 points. Lay yours at the right of your group, on "
                "the 4: 4 points."),
        expect=("X@5,8",),
        good=N_("64 points. Your opponent lays a U at the far left: 6 points."),
        wrong={"X@9,2": N_("That plus catches 5, one more, and would be a good move in a game "
                           "too. Here lay the one on the 4 at the right of your group, to "
                           "follow this game.")},
        otherwise=N_("Lay the plus at the right of your group, on the 4."),
        replies=((1, "U0@4,0"),),
    ),
    Step(
        title=N_("Your last U"),
        text=N_("Lay your U at the right edge, opening to the left, on the 4 and the 1: "
                "5 points, and it joins your group."),
        expect=("U3@8,10",),
        good=N_("69 points, and your group has nine tiles. Your opponent lays a plus at the "
                "bottom, on the 5: 5 points."),
        otherwise=N_("Lay the U at the right edge, opening to the left, on the 4 and the 1."),
        replies=((1, "X@9,2"),),
    ),
    Step(
        title=N_("Pass, and the end"),
        text=N_("Your last tile is a plus, and it fits nowhere: every free place overlaps a "
                "tile, touches none, or covers more than 9 points. When you cannot lay your "
                "tile, you pass."),
        expect=("pass",),
        highlight=("cell-0-10", "cell-0-11", "cell-1-10", "cell-1-11", "cell-2-10", "cell-2-11"),
        good=N_("Your opponent lays a U at the top right, alone, and now no one can lay a "
                "tile: the game is over. The final scoring: you caught 69 points, your group "
                "of nine tiles is the largest (+5) and the two tiles of your smaller group "
                "cost 3 each (−6): 68. Your opponent caught 59; their group of nine ties for "
                "the largest, so they get +5 too, and their lone U costs 5: 59. You win, 68 to "
                "59. On equal scores, more tiles left in hand would have won."),
        replies=((1, "U3@0,10"),),
    ),
)

LESSON: Lesson = Lesson(
    players=2,
    positions=POSITIONS,
    steps=STEPS,
    closing=N_("That is KoPlus: catch aliens worth up to 9 points a tile, keep your tiles in one "
               "big group, and aim for exactly 20, 40 and 60. Now play a whole game against "
               "the easiest bot."),
)

AID = Aid(
    scoring=(
        (N_("Each tile laid"), N_("the aliens it covers, at most 9")),
        (N_("Exactly 20, 40 or 60 points"), N_("a bonus turn, while you have some")),
        (N_("Your largest group, if no one has a larger one"), "+5"),
        (N_("Each tile touching none of your own"), "−5"),
        (N_("Each tile in a smaller group of yours"), "−3"),
        (N_("A tie"), N_("more tiles left in hand wins")),
    ),
    turn=(
        N_("Lay the top tile of your stack: a plus, or a U turned any way."),
        N_("It shares an edge with a tile already laid (the first one lies in the middle)."),
        N_("It covers at most 9 points of aliens and no other tile."),
        N_("With no such place you pass; when no one can lay a tile, the game ends."),
    ),
)


def ask(observation: dict[str, Any]) -> str:
    """What the current step asks of the observation's viewer."""
    if observation.get("terminal"):
        return _("The game is over: the final scores count groups and lone tiles.")
    if observation.get("phase") != "play":
        return _("The board is being laid out.")
    viewer = observation.get("viewer")
    current = observation.get("current_player")
    if viewer is None or viewer != current:
        return _("Wait for the player to move to lay a tile.")
    shape = (observation.get("next_shape") or [None] * (viewer + 1))[viewer]
    if shape is None or not (observation.get("can_place") or [True] * (viewer + 1))[viewer]:
        return _("You cannot lay a tile now: pass.")
    first = not observation.get("tiles")
    bonus = bool(observation.get("bonus_turn"))
    asks = {
        (True, False, False): N_("Lay your plus in the middle section, covering at most 9 "
                                 "points of aliens."),
        (True, True, False): N_("Lay your plus sharing an edge with a tile on the board, "
                                "covering at most 9 points of aliens."),
        (False, False, False): N_("Lay your U in the middle section, covering at most 9 points "
                                  "of aliens."),
        (False, True, False): N_("Lay your U sharing an edge with a tile on the board, covering "
                                 "at most 9 points of aliens."),
        (True, False, True): N_("Bonus turn: lay your plus in the middle section, covering at "
                                "most 9 points of aliens."),
        (True, True, True): N_("Bonus turn: lay your plus sharing an edge with a tile on the "
                               "board, covering at most 9 points of aliens."),
        (False, False, True): N_("Bonus turn: lay your U in the middle section, covering at "
                                 "most 9 points of aliens."),
        (False, True, True): N_("Bonus turn: lay your U sharing an edge with a tile on the "
                                "board, covering at most 9 points of aliens."),
    }
    return _(asks[(shape == "X", not first, bonus)])
