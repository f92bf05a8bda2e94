"""Learning Mops Royal: positions built like the worked examples (rules.md §9, M2 and M3: a
blue corner with the crown pillow, scored and turned over), the player aid and the guided first
game: its first two rounds, then rounds 19 to 25 of the same game, to the full square and the
final scoring. Every sentence a learner reads is here or in ``howto.md``."""

from __future__ import annotations

from random import Random
from typing import Any

from meeple.engine import CHANCE, State, load, play_out
from meeple.engine.i18n import N_, words
from meeple.engine.lessons import Aid, Lesson, Position, Step, play, recorded

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
LATER = recorded("""
c:reveal green-poop; 0:place (-1,0); 1:place (0,-1); c:reveal pink-can; 0:place (-1,-2);
1:place (1,-1); c:reveal orange-can; 0:place (0,-2); 1:place (2,-1); c:reveal purple-pillow;
0:place (-1,-3); 1:place (0,-2); 1:noscore; c:reveal purple-bone; 0:place (0,-3); 1:place
(1,-2); c:reveal blue-can; 0:place (-2,-2); 1:place (2,-2); 0:score I3 (-2,-2) (-1,-2)
(0,-2) flip (-1,-2); 1:score V3 (2,-2) (1,-1) (2,-1) flip (2,-1); c:reveal blue-bowl;
1:place (3,0); 1:score I3 (1,0) (2,0) (3,0) flip (2,0); c:reveal yellow-bone; 0:place
(-2,-3); 1:place (3,-1); 0:score D3 (-2,-2) (-1,-1) (0,0) flip (-1,-1); 1:noscore; c:reveal
orange-pillow; 0:place (-2,-1); 1:place (3,-2); 1:noscore; c:reveal green-pug; 0:place
(-2,0); 1:place (-1,-1); 1:score V3 (-1,-1) (0,-1) (0,0) flip (0,-1); c:reveal yellow-pug;
0:place (-2,-4); 1:place (-1,-2); c:reveal pink-bone; 0:place (-1,-4); 1:place (-1,0);
0:noscore; 1:noscore; c:reveal yellow-pillow; 0:place (-3,-4); 1:place (-1,-3); 0:score V3
(-3,-4) (-2,-4) (-2,-3) flip (-2,-4); 1:noscore; c:reveal pink-pillow; 0:place (0,-4);
1:place (0,-3); 0:noscore; 1:score V3 (-1,-3) (0,-3) (0,-2) flip (0,-3); c:reveal
purple-bowl; 0:place (1,-3); 1:place (1,-3); 0:score I3 (-1,-3) (0,-3) (1,-3) flip (0,-3);
1:score V3 (1,-3) (0,-2) (1,-2) flip (1,-2); c:reveal green-bone; 0:place (-3,0); 1:place
(1,1); 0:score I3 (-3,0) (-2,0) (-1,0) flip (-2,0); 1:score D3 (-1,-1) (0,0) (1,1) flip
(0,0); c:reveal pink-pug
""")

"""Rounds 3 to 18 of the same game, as the bots played them, and the tile called in round 19:
the guided game goes on from there."""


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
    Position("round_19", lambda: game((*ROUNDS, *SCORED, *LATER))),
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
    Step(
        title=N_("Round 19: the same tile for everyone"),
        position="round_19",
        text=N_("Many rounds later: round 19, and you have 17 points each. The caller draws each "
                "tile at random from a face-down stock: you know which tiles are still in it, "
                "not which comes next. You both place the called tile at the same time and see "
                "each other's choice only when the round is over. Put the pink pug three to the "
                "left and three above your start tile, and keep the cells on the right free."),
        expect=("place (-3,-3)",),
        good=N_("The pink pug fills a cell at the left."),
        otherwise=N_("Put the pink pug three to the left and three above your start tile."),
    ),
    Step(
        title=N_("Nothing to score"),
        text=N_("The pug makes no combination, so you score nothing this round."),
        expect=("noscore",),
        good=N_("The round is over, and you see where your opponent put their pink pug. The "
                "caller reveals the orange pug."),
        highlight=("cell-0-1-1",),
        replies=((1, "place (2,-3)"), (1, "noscore"), (CHANCE, "reveal orange-pug")),
    ),
    Step(
        title=N_("Two oranges"),
        text=N_("Put the orange pug one to the right and one above your start tile, corner to "
                "corner with the orange can."),
        expect=("place (1,-1)",),
        good=N_("Corners do not join tiles, but an orange tile in the cell above the pug would "
                "join all three."),
        otherwise=N_("Put the orange pug one to the right and one above your start tile."),
    ),
    Step(
        title=N_("Still nothing"),
        text=N_("Two tiles are no combination yet: score nothing."),
        expect=("noscore",),
        good=N_("The caller reveals the orange bowl with a crown."),
        highlight=("cell-0-2-4", "cell-0-3-5"),
        replies=((1, "place (3,-3)"), (1, "noscore"), (CHANCE, "reveal orange-bowl")),
    ),
    Step(
        title=N_("A crown"),
        text=N_("Put the orange bowl with its crown one to the right and two above your start "
                "tile: with the orange can and the orange pug it makes a small corner."),
        expect=("place (1,-2)",),
        good=N_("Three orange tiles in a small corner, crown included: worth 3 points now."),
        otherwise=N_("Put the orange bowl one to the right and two above your start tile, "
                     "between the orange can and the orange pug."),
    ),
    Step(
        title=N_("Wait for more"),
        text=N_("You could score the small corner for 3 points, but its marked tile, the crowned "
                "bowl, would go face down. The cell below the orange pug is still free: wait, "
                "and score four tiles later. Score nothing now."),
        expect=("noscore",),
        good=N_("You wait. The caller reveals the purple pug."),
        highlight=("cell-0-2-4", "cell-0-2-5", "cell-0-3-5"),
        wrong={"score V3 (0,-2) (1,-2) (1,-1) flip (1,-2)": N_(
            "That brings 3 points now but turns the crowned bowl face down; four oranges with "
            "the crown will bring 5.")},
        replies=((1, "place (0,1)"), (1, "noscore"), (CHANCE, "reveal purple-pug")),
    ),
    Step(
        title=N_("Keep the cell free"),
        text=N_("The purple pug does not go with your oranges. Put it three to the left and two "
                "above your start tile, and keep the cell below the orange pug free."),
        expect=("place (-3,-2)",),
        good=N_("The cell below the orange pug is still free."),
        wrong={"place (1,0)": N_("That takes the cell you keep for an orange tile.")},
        otherwise=N_("Put the purple pug three to the left and two above your start tile."),
    ),
    Step(
        title=N_("Wait once more"),
        text=N_("Score nothing again: the small corner can wait."),
        expect=("noscore",),
        good=N_("The caller reveals the orange poop: the tile you waited for."),
        highlight=("cell-0-2-4", "cell-0-2-5", "cell-0-3-5"),
        wrong={"score V3 (0,-2) (1,-2) (1,-1) flip (1,-2)": N_(
            "That brings 3 points now but turns the crowned bowl face down; four oranges with "
            "the crown will bring 5.")},
        replies=((1, "place (-1,1)"), (1, "noscore"), (CHANCE, "reveal orange-poop")),
    ),
    Step(
        title=N_("Four oranges"),
        text=N_("Put the orange poop next to your start tile, on the right, below the orange "
                "pug."),
        expect=("place (1,0)",),
        good=N_("Four orange tiles in an L: one of the shapes on the chart."),
        otherwise=N_("Put the orange poop next to your start tile, on the right."),
    ),
    Step(
        title=N_("Four tiles and a crown"),
        text=N_("Score the L of four orange tiles: 4 points for four tiles and 1 more for the "
                "crown. Turn the orange pug face down, so the crowned bowl stays face up for "
                "another combination."),
        expect=("score L4 (0,-2) (1,-2) (1,-1) (1,0) flip (1,-1)",),
        good=N_("5 points: 22 against 17. The caller reveals the pink bowl."),
        wrong={"score L4 (0,-2) (1,-2) (1,-1) (1,0) flip (1,-2)": N_(
            "The same points, but that turns the crowned bowl face down. Keep it face up: it "
            "may count again.")},
        otherwise=N_("Score the L of all four orange tiles: four tiles bring more than three."),
        replies=((1, "place (2,1)"), (1, "noscore"), (CHANCE, "reveal pink-bowl")),
    ),
    Step(
        title=N_("Two at once"),
        text=N_("Put the pink bowl one to the right and four above your start tile: it ends a "
                "line of three pink tiles in the top row, and a line of three bowls down the "
                "right."),
        expect=("place (1,-4)",),
        good=N_("Two combinations at once, but you may score only one a round."),
        otherwise=N_("Put the pink bowl in the top right corner, one to the right and four above "
                     "your start tile."),
    ),
    Step(
        title=N_("One a round"),
        text=N_("Score the line of pink tiles in the top row: 2 points. Its middle tile, the "
                "pink pillow, goes face down; the bowls wait for the next round."),
        expect=("score I3 (-1,-4) (0,-4) (1,-4) flip (0,-4)",),
        good=N_("24 points. The caller reveals the blue poop, the last tile."),
        otherwise=N_("Score the pink line in the top row now; the bowls will still be there "
                     "next round."),
        replies=((1, "place (3,1)"), (1, "noscore"), (CHANCE, "reveal blue-poop")),
    ),
    Step(
        title=N_("The last tile"),
        text=N_("Put the blue poop in your last free cell, three to the left and one above your "
                "start tile. Your square of 25 tiles is then full, and the game ends this "
                "round."),
        expect=("place (-3,-1)",),
        good=N_("Your square is full. One combination may still be scored."),
    ),
    Step(
        title=N_("The final scoring"),
        text=N_("Score the three bowls down the right: 2 points for three tiles and 1 for the "
                "crown."),
        expect=("score I3 (1,-4) (1,-3) (1,-2) flip (1,-3)",),
        good=N_("The game is over and the most points win: your combinations bring 27 points, "
                "your opponent's 17. You win."),
        wrong={"noscore": N_("This is the last round: score the bowls while you can.")},
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
