"""Learning Botanik: positions built from the worked examples (rules.md §9: B1's registry and
arrival, B2's release, B3's first additions to a machine), the player aid and the guided first
game. Every sentence a learner reads is here or in ``howto.md``."""

from __future__ import annotations

from random import Random
from typing import Any

from meeple.engine import CHANCE, State, load, play_out
from meeple.engine.i18n import N_, words
from meeple.engine.lessons import Aid, Lesson, Position, Step, play

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
