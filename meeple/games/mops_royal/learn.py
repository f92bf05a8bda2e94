"""Learning Mops Royal: positions built like the worked examples (rules.md §9, M2 and M3: a
blue corner with the crown pillow, scored and turned over), the player aid and the guided first
game. Every sentence a learner reads is here or in ``howto.md``."""

from __future__ import annotations

from random import Random
from typing import Any

from meeple.engine import CHANCE, State, load, play_out
from meeple.engine.lessons import Aid, Lesson, Position, Step, play

from . import heuristics

SETUP = ((CHANCE, "start blue-bowl"), (CHANCE, "start green-pillow"), (CHANCE, "caller P1"),
         (CHANCE, "reveal blue-bone"))
"""Two players: your start tile is the blue bowl, the other player calls the tiles."""
ROUNDS = ((0, "place (0,-1)"), (1, "place (1,0)"), (CHANCE, "reveal blue-pillow"),
          (0, "place (-1,-1)"))
"""Two rounds of example M2's layout: the blue bone, then the blue pillow with its crown."""
SCORED = ((0, "score V3 (-1,-1) (0,-1) (0,0) flip (0,-1)"), (1, "place (2,0)"))
"""Example M3: the blue corner scored, its marked tile turned face down."""


def game(moves: tuple[tuple[int, str], ...] = ()) -> State:
    """A 2-player game after the set-up, then ``moves``."""
    return play(load("mops_royal", players=2).new_initial_state(), [*SETUP, *moves])


def the_end() -> State:
    """The same game played on to its end: each player takes the move the bots value most, chance
    draws from a fixed seed."""
    return play_out(game((*ROUNDS, *SCORED)), 2014, policy=best)


def best(state: State, player: int, rng: Random) -> int:
    """The legal move the bots' heuristics value most (the first of equals)."""
    return max(state.legal_actions(player),
               key=lambda a: heuristics.action_value(state, player, a))


POSITIONS = (
    Position("start", game),
    Position("corner", lambda: game(ROUNDS)),
    Position("scored", lambda: game((*ROUNDS, *SCORED))),
    Position("the_end", the_end, viewer=None),
)

STEPS = (
    Step(
        title="Place the called tile",
        position="start",
        text=("The other player called the blue bone: everyone places that same tile from "
              "their own stock. Put it just above your start tile, the blue bowl, so the blue "
              "tiles stay together."),
        expect=("place (0,-1)",),
        good="Two blue tiles side by side. Combinations need at least three.",
        otherwise=("Any free cell beside a tile is allowed; here put the bone just above your "
                   "blue bowl, so the blues stay together."),
        replies=((1, "place (1,0)"), (CHANCE, "reveal blue-pillow")),
    ),
    Step(
        title="Make a combination",
        text=("Now the blue pillow is called; it carries a crown. Put it left of the blue bone: "
              "the three blue tiles form a small corner, one of the shapes on the chart."),
        expect=("place (-1,-1)",),
        good="Three blue tiles in a small corner: you may score them now.",
        wrong={"place (1,-1)": ("Right of the bone makes a blue corner too; in this lesson the "
                                "pillow goes left of the bone.")},
        otherwise="Put the pillow left of the blue bone, to make a corner of three blues.",
    ),
    Step(
        title="Score and turn over",
        text=("Score the small corner of blue tiles: 2 points for three tiles and 1 more for the "
              "crown. Then the marked tile of the shape, the bone in the corner, is turned face "
              "down and never counts again."),
        expect=("score V3 (-1,-1) (0,-1) (0,0) flip (0,-1)",),
        good="3 points. The bone is face down now; the pillow and the bowl stay face up.",
        wrong={"noscore": ("Scoring nothing keeps the tiles face up, but these 3 points are "
                           "there now, crown included.")},
        otherwise="Score the corner of three blue tiles.",
    ),
)

LESSON = Lesson(
    players=2,
    positions=POSITIONS,
    steps=STEPS,
    closing=("That is Mops Royal: place the called tile, score one combination a round, and "
             "give up its marked tile. Now play a whole game against the easiest bot."),
)

AID = Aid(
    scoring=(
        ("3 tiles in a shape of the chart", "2"),
        ("4 tiles in a shape of the chart", "4"),
        ("5 tiles in a shape of the chart", "7"),
        ("A crown among them", "+1"),
        ("A tie", "fewer tiles face down wins"),
    ),
    turn=(
        "The caller reveals a tile; everyone places the same tile from their own stock.",
        "Place it beside a tile of your layout (an edge, not a corner), within 5 by 5.",
        "You may score one combination: one colour or one object, in a shape of the chart.",
        "Turn its marked tile face down; it never counts again.",
    ),
)


def ask(observation: dict[str, Any]) -> str:
    """What the current step asks of the observation's viewer."""
    if observation.get("terminal"):
        return "The game is over: the most points wins."
    viewer = observation.get("viewer")
    if viewer is None:
        return "Everyone places the called tile and may score one combination."
    step = observation.get("my_step")
    tile = str(observation.get("called_tile") or "tile").replace("-", " ")
    if step == "place":
        return (f"Place the {tile} beside a tile of your layout, keeping it within 5 by 5 "
                "tiles.")
    if step == "score":
        return ("Score one combination of 3 to 5 tiles of one colour or one object in a shape "
                "of the chart, or score nothing.")
    if observation.get("phase") == "end_scoring":
        return "Score one combination on your turn, or pass."
    return "Wait for the others to finish the round."
