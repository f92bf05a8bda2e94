"""Learning Botanik: positions built from the worked examples (rules.md §9: B1's registry and
arrival, B2's release, B3's first additions to a machine), the player aid and the guided first
game: the first round, then the last four rounds of the same game to its final scoring. Every
sentence a learner reads is here or in ``howto.md``."""

from __future__ import annotations

from random import Random
from typing import Any

from meeple.engine import CHANCE, State, load, play_out
from meeple.engine.i18n import N_, words
from meeple.engine.lessons import Aid, Lesson, Position, Step, play, recorded

from . import heuristics

_, _n = words(__file__)

SETUP = tuple((CHANCE, f"deal {t}") for t in ("R-ST2", "Y-EL2", "G-PL", "B-MB", "K-TE2")) + \
    tuple((CHANCE, f"reveal {t}") for t in ("R-EL1", "G-ST1", "B-CR"))
"""Example B1: the five pile tops and the three tiles of the first arrival."""
RELEASE = ((0, "own R-EL1@0"), (1, "pile G-ST1@0"))
"""Example B2's release: a red elbow waits on its own space; a green straight on the pile in
front of it matches it neither in colour nor in type, so it is released."""
FIRST = ((0, "add R-EL1@0,1/3"), (0, "own B-CR@3"))
"""Example B3: the released elbow joins the Source; then the last tile of the round."""
LATER = recorded("""
c:reveal Y-ST3; c:reveal G-CR; c:reveal Y-VE; 1:own Y-VE@1; 0:pile G-CR@1; 1:add
Y-VE@-1,0/2; 1:own Y-ST3@0; c:reveal B-ST2; c:reveal B-EL1; c:reveal R-EL3; 0:own B-ST2@0;
1:own B-EL1@3; 0:pile R-EL3@1; c:reveal R-ST1; c:reveal K-EL1; c:reveal Y-EL3; 1:own
R-ST1@1; 0:own K-EL1@1; 1:pile Y-EL3@0; 0:add B-ST2@-1,0/0; c:reveal Y-EL1; c:reveal K-MB;
c:reveal G-EL3; 0:own Y-EL1@0; 1:own K-MB@4; 0:pile G-EL3@4; 1:swap 0; 1:add Y-EL3@0,-1/0;
0:add Y-EL1@-2,0/1; 1:add Y-ST3@-1,-1/0; c:reveal K-ST3; c:reveal G-EL2; c:reveal B-EL2;
1:own G-EL2@2; 0:own B-EL2@4; 1:own K-ST3@0; c:reveal R-PL; c:reveal B-EL3; c:reveal K-EL3;
0:own R-PL@2; 1:own B-EL3@4; 0:pile K-EL3@2; 0:add R-PL@-1,1/2; c:reveal G-TE2; c:reveal
B-PL; c:reveal B-ST3; 1:pile G-TE2@4; 1:add B-EL3@-2,-1/1; 0:add B-EL2@-2,1/3; 0:pile
B-ST3@2; 1:add G-EL2@-2,0/3; 1:own B-PL@2; c:reveal R-TE1; c:reveal B-VE; c:reveal G-VE;
0:pile R-TE1@2; 1:add B-PL@-3,-1/0; 1:own G-VE@4; 0:pile B-VE@0; 1:add K-ST3@-3,0/0;
c:reveal Y-TE1; c:reveal R-ST3; c:reveal K-TE1; 1:own Y-TE1@2; 0:pile R-ST3@4; 1:add
G-VE@-4,-1/2; 1:pile K-TE1@1; 1:add R-ST1@-4,0/0; c:reveal G-ST3; c:reveal B-TE2; c:reveal
K-TE3; 0:pile G-ST3@3; 0:add B-CR@-3,1/0; 1:add B-EL1@-5,0/1; 1:own B-TE2@0; 0:own K-TE3@2;
c:reveal B-TE1; c:reveal K-CR; c:reveal Y-TE3; 1:pile K-CR@0; 1:add B-TE2@-5,1/1; 0:pile
Y-TE3@1; 0:add K-EL1@-4,1/1; 1:own B-TE1@1; c:reveal K-ST1; c:reveal Y-PL; c:reveal K-PL;
0:own Y-PL@1; 1:pile K-ST1@1; 1:add B-TE1@-5,2/1; 0:add Y-PL@-3,0/1; 0:own K-PL@0; c:reveal
K-ST2; c:reveal R-TE2; c:reveal R-CR; 1:own R-TE2@4; 0:pile R-CR@0; 0:add K-PL@-4,2/3; 1:own
K-ST2@1; c:reveal R-MB; c:reveal K-VE; c:reveal Y-CR; 0:pile Y-CR@2; 0:add K-TE3@-3,2/1;
1:own R-MB@0; 0:own K-VE@1; c:reveal G-TE1; c:reveal Y-ST2; c:reveal G-ST2; 1:own G-TE1@3;
0:pile Y-ST2@1; 0:add K-VE@-3,3/3; 1:pile G-ST2@4; 1:add R-TE2@-4,1/0; c:reveal K-EL2;
c:reveal Y-MB; c:reveal G-MB
""")

"""Rounds 2 to 16 of the same game, as the bots played them, and the three tiles that arrive
in round 17: the guided game goes on from there to its end."""


def game(moves: tuple[tuple[int, str], ...] = ()) -> State:
    """A game after the set-up of example B1, then ``moves``."""
    return play(load("botanik").new_initial_state(), [*SETUP, *moves])


def the_end() -> State:
    """The same game played on to its end: each player takes the move the bots value most, chance
    draws from a fixed seed."""
    return play_out(game((*RELEASE, *FIRST)), 2020, policy=best)


def best(state: State, player: int, rng: Random) -> int:
    """The legal move the bots' heuristics value most (the first of equals)."""
    return max(state.legal_actions(player),
               key=lambda a: heuristics.action_value(state, player, a))


POSITIONS = (
    Position("start", game),
    Position("released", lambda: game(RELEASE)),
    Position("first_tile", lambda: game((*RELEASE, *FIRST[:1]))),
    Position("the_end", the_end, viewer=None),
    Position("round_17", lambda: game((*RELEASE, *FIRST, *LATER))),
)

STEPS = (
    Step(
        title=N_("Take a tile"),
        position="start",
        text=N_("Three tiles have arrived. Take the red elbow and put it on your first own space, "
                "in front of the red straight on the first pile: same colour, so it may wait "
                "there."),
        expect=("own R-EL1@0",),
        good=N_("The elbow waits on your side. Your opponent now puts a green straight on the "
                "first pile: it matches your red elbow neither in colour nor in type."),
        wrong={"own B-CR@4": N_("A blue cross matches the black tee on that pile neither in colour "
                                "nor in type, so it may not wait there.")},
        otherwise=N_("Put the red elbow on your first own space, in front of the red straight."),
        replies=((1, "pile G-ST1@0"),),
    ),
    Step(
        title=N_("Grow your machine"),
        text=N_("Your red elbow is released into your machine. Add it right of your Source, with "
                "pipes to the left and to the top: a pipe has to face the Source's pipe."),
        expect=("add R-EL1@0,1/3",),
        good=N_("The elbow joins your Source; its flower is worth a point."),
        wrong={"add R-EL1@0,1/2": N_("Turned that way the elbow would show a blank edge to the "
                                     "Source's pipe; pipes must meet pipes.")},
        otherwise=N_("Add it right of your Source, pipes to the left and to the top."),
    ),
    Step(
        title=N_("The last tile of the round"),
        text=N_("Only the blue cross is left, and you take it. Put it on your fourth own space, in "
                "front of the blue Meca-Botanist: they share the colour."),
        expect=("own B-CR@3",),
        good=N_("The cross waits for a tile that does not match it to land on the pile in front. "
                "Then it is released into your machine."),
        otherwise=N_("Put the blue cross on your fourth own space, in front of the blue tile."),
    ),
    Step(
        title=N_("Round 17: a Meca-Botanist"),
        position="round_17",
        text=N_("Fifteen rounds later: round 17 of 20, and you start. Your machine is worth 16 "
                "points. A yellow Meca-Botanist has arrived. Put it on your second own space, in "
                "front of the yellow straight on the second pile: same colour, so it may wait."),
        expect=("own Y-MB@1",),
        good=N_("It waits on your side. Your opponent puts the green Meca-Botanist on their own "
                "side."),
        otherwise=N_("Put the yellow Meca-Botanist on your second own space, in front of the "
                     "yellow straight."),
        replies=((1, "own G-MB@4"),),
    ),
    Step(
        title=N_("Release your own tile"),
        text=N_("You take the last tile of the arrival too, as the start player. Put the black "
                "elbow on the second pile: it matches your yellow Meca-Botanist neither in colour "
                "nor in kind, so it releases it."),
        expect=("pile K-EL2@1",),
        good=N_("Your Meca-Botanist is released. It does not join your machine: it swaps places "
                "with the top of a pile instead."),
        otherwise=N_("Put the black elbow on the second pile, to release your Meca-Botanist."),
    ),
    Step(
        title=N_("Swap the Meca-Botanist"),
        text=N_("Choose the pile whose top you want: the red cross on the first pile. Your "
                "Meca-Botanist takes its place there, and the cross comes to you."),
        expect=("swap 0",),
        good=N_("The red cross is yours, to add to your machine."),
        otherwise=N_("Swap with the first pile, to take the red cross."),
    ),
    Step(
        title=N_("A cross by the Source"),
        text=N_("Add the red cross left of your Source. A cross has pipes on all four sides, so "
                "it fits, and it gives your machine open ends to grow."),
        expect=("add R-CR@0,-1/0",),
        good=N_("The cross is piped to your Source. Round 18: your opponent starts; they "
                "release their green Meca-Botanist, swap it for a black elbow and add two black "
                "tiles to their machine."),
        otherwise=N_("Add the red cross left of your Source."),
        replies=((CHANCE, "reveal G-TE3"), (CHANCE, "reveal R-TE3"), (CHANCE, "reveal R-EL2"),
                 (1, "pile R-EL2@4"), (1, "swap 1"), (1, "add K-EL2@-3,1/0"),
                 (1, "add K-ST2@-3,2/1")),
    ),
    Step(
        title=N_("Wait in front of a match"),
        text=N_("Take the red tee and put it on your fifth own space, in front of the red elbow "
                "your opponent just put on that pile: same colour."),
        expect=("own R-TE3@4",),
        good=N_("The tee waits there. Your opponent takes the green tee; three new tiles "
                "arrive for round 19, and you start."),
        otherwise=N_("Put the red tee on your fifth own space, in front of the red elbow."),
        replies=((1, "own G-TE3@1"), (CHANCE, "reveal G-EL1"), (CHANCE, "reveal R-VE"),
                 (CHANCE, "reveal Y-TE2")),
    ),
    Step(
        title=N_("A match by colour"),
        text=N_("Put the green elbow with a flower on your second own space: the top of that pile "
                "is now the green Meca-Botanist, the same colour."),
        expect=("own G-EL1@1",),
        good=N_("It waits. Your opponent puts the red vegetable on their fifth space, in front "
                "of the red elbow."),
        otherwise=N_("Put the green elbow on your second own space, in front of the green "
                     "Meca-Botanist."),
        replies=((1, "own R-VE@4"),),
    ),
    Step(
        title=N_("Release their tile"),
        text=N_("Put the yellow tee on the fifth pile. Your red tee waiting there is a tee too, so "
                "it matches and stays. Your opponent's red vegetable matches neither colour nor "
                "kind: it is released now, before it can wait for a better moment."),
        expect=("pile Y-TE2@4",),
        good=N_("Their vegetable joins their machine beside a blue tile, so its 3 flowers do not "
                "count. Round 20, the last: your opponent starts and puts the yellow straight on "
                "their side."),
        otherwise=N_("Put the yellow tee on the fifth pile, to release your opponent's "
                     "vegetable."),
        replies=((1, "add R-VE@-5,3/3"), (CHANCE, "reveal B-TE3"), (CHANCE, "reveal B-ST1"),
                 (CHANCE, "reveal Y-ST1"), (1, "own Y-ST1@4")),
    ),
    Step(
        title=N_("The last tile and the final scoring"),
        text=N_("Put the blue straight with a flower on your fourth own space, in front of the "
                "green straight: both are straights, a match by kind. Your opponent then takes "
                "the last tile, and the game ends."),
        expect=("own B-ST1@3",),
        good=N_("The game is over. Only tiles piped to your Source count: your four black tiles "
                "that touch are a colour group, 4 points, and your flowers 12, the plants and "
                "vegetables piped into a tile of their colour 3 each. 16 points against 13: you "
                "win."),
        otherwise=N_("Put the blue straight on your fourth own space, in front of the green "
                     "straight."),
        replies=((1, "pile B-TE3@0"), (1, "swap 2"), (1, "add Y-CR@-3,3/0"),
                 (1, "add Y-TE1@-4,3/1")),
    ),
)

LESSON = Lesson(
    players=2,
    positions=POSITIONS,
    steps=STEPS,
    closing=N_("That is Botanik: tiles wait on your side until the pile in front of them changes, "
               "then join your machine, pipe to pipe. Now play a whole game against the easiest "
               "bot."),
)

AID = Aid(
    scoring=(
        (N_("A group of 3 or more tiles of one colour, touching"), N_("1 a tile")),
        (N_("Each flower"), "1"),
        (N_("A plant or vegetable piped into a tile of its colour"), N_("its 3 flowers")),
        (N_("Tiles not piped to your Source"), N_("nothing")),
        (N_("A tie"), N_("more tiles piped to your Source wins")),
    ),
    turn=(
        N_("Three tiles arrive each round; the start player takes one, then the other, then the "
           "start player the last."),
        N_("Put it on your own space facing a pile whose top matches it (colour or kind), or on "
           "any pile."),
        N_("On a pile it releases every waiting tile in front of it that does not match it."),
        N_("A released tile joins its owner's machine, pipes meeting pipes, one open end always "
           "left."),
    ),
)


def ask(observation: dict[str, Any]) -> str:
    """What the current step asks of the observation's viewer."""
    if observation.get("terminal"):
        return _("The game is over: colour groups and flowers piped to the Source count.")
    viewer = observation.get("viewer")
    if viewer is None or viewer != observation.get("current_player"):
        return _("Wait for the player to move.")
    phase = observation.get("phase")
    if phase == "add":
        return _("Add the released tile to your machine: pipes meet pipes, blank edges meet "
                 "blank edges, and one open end stays.")
    if phase == "swap":
        return _("Your Meca-Botanist was released: swap it with the top of a pile and take that "
                 "tile.")
    return _("Take an arrived tile: put it on your own space facing a pile it matches, or on a "
             "pile to release the tiles in front of it that do not match.")
