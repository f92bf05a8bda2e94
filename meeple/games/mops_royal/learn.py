"""Learning Mops Royal: positions built like the worked examples (rules.md §9, M2 and M3: a
blue corner with the crown pillow, scored and turned over), the player aid and the guided first
game. Every sentence a learner reads is here or in ``howto.md``."""

from __future__ import annotations

from random import Random
from typing import Any

from meeple.engine import CHANCE, State, load, play_out
from meeple.engine.i18n import N_, words
from meeple.engine.lessons import Aid, Lesson, Position, Step, play

from . import heuristics
from .components import TILE_INDEX, the_tile_words

_, _n = words(__file__)

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
        title=N_("Place the called tile"),
        position="start",
        text=N_("The other player called the blue bone: everyone places that same tile from "
              "their own stock. Put it just above your start tile, the blue bowl, so the blue "
              "tiles stay together."),
        expect=("place (0,-1)",),
        good=N_("Two blue tiles side by side. Combinations need at least three."),
        otherwise=N_("Any free cell beside a tile is allowed; here put the bone just above your "
                   "blue bowl, so the blues stay together."),
        replies=((1, "place (1,0)"), (CHANCE, "reveal blue-pillow")),
    ),
    Step(
        title=N_("Make a combination"),
        text=N_("Now the blue pillow is called; it carries a crown. Put it left of the blue bone: "
              "the three blue tiles form a small corner, one of the shapes on the chart."),
        expect=("place (-1,-1)",),
        good=N_("Three blue tiles in a small corner: you may score them now."),
        wrong={"place (1,-1)": N_("Right of the bone makes a blue corner too; in this lesson the "
                                "pillow goes left of the bone.")},
        otherwise=N_("Put the pillow left of the blue bone, to make a corner of three blues."),
    ),
    Step(
        title=N_("Score and turn over"),
        text=N_("Score the small corner of blue tiles: 2 points for three tiles and 1 more for the "
              "crown. Then the marked tile of the shape, the bone in the corner, is turned face "
              "down and never counts again."),
        expect=("score V3 (-1,-1) (0,-1) (0,0) flip (0,-1)",),
        good=N_("3 points. The bone is face down now; the pillow and the bowl stay face up."),
        wrong={"noscore": N_("Scoring nothing keeps the tiles face up, but these 3 points are "
                           "there now, crown included.")},
        otherwise=N_("Score the corner of three blue tiles."),
    ),
)

LESSON = Lesson(
    players=2,
    positions=POSITIONS,
    steps=STEPS,
    closing=N_("That is Mops Royal: place the called tile, score one combination a round, and "
             "give up its marked tile. Now play a whole game against the easiest bot."),
)

AID = Aid(
    scoring=(
        (N_("3 tiles in a shape of the chart"), "2"),
        (N_("4 tiles in a shape of the chart"), "4"),
        (N_("5 tiles in a shape of the chart"), "7"),
        (N_("A crown among them"), "+1"),
        (N_("A tie"), N_("fewer tiles face down wins")),
    ),
    turn=(
        N_("The caller reveals a tile; everyone places the same tile from their own stock."),
        N_("Place it beside a tile of your layout (an edge, not a corner), within 5 by 5."),
        N_("You may score one combination: one colour or one object, in a shape of the chart."),
        N_("Turn its marked tile face down; it never counts again."),
    ),
)


def ask(observation: dict[str, Any]) -> str:
    """What the current step asks of the observation's viewer."""
    if observation.get("terminal"):
        return _("The game is over: the most points wins.")
    viewer = observation.get("viewer")
    if viewer is None:
        return _("Everyone places the called tile and may score one combination.")
    step = observation.get("my_step")
    if step == "place":
        called = observation.get("called_tile")
        tile = the_tile_words(TILE_INDEX[called]) if called in TILE_INDEX else _("the tile")
        return _("Place {tile} beside a tile of your layout, keeping it within 5 by 5 tiles.",
                 tile=tile)
    if step == "score":
        return _("Score one combination of 3 to 5 tiles of one colour or one object in a shape "
                 "of the chart, or score nothing.")
    if observation.get("phase") == "end_scoring":
        return _("Score one combination on your turn, or pass.")
    return _("Wait for the others to finish the round.")
