"""Learning Kontor: the closure and valuation of worked example K2 (rules.md §9) reached by
play from a set-up with fixed draws, the player aid and the guided first game: its first three
rounds, then rounds 9 to 14 of the same game, to the full field and the final scoring. Every
sentence a learner reads is here or in ``howto.md``."""

from __future__ import annotations

from random import Random
from typing import Any

from meeple.engine import CHANCE, State, load, play_out
from meeple.engine.i18n import N_, words
from meeple.engine.lessons import Aid, Lesson, Position, Step, play, recorded

from . import heuristics

_, _n = words(__file__)

CROSS = tuple(f"water-{n}" for n in (45, 46, 48, 50, 51, 55, 56, 57))
"""The eight water cards of the cross around the anchor."""
HANDS = ("red-15", "red-21", "red-1", "water-47", "water-53",
         "black-20", "black-2", "black-4", "water-49", "water-52")
"""Red's hand, then black's: three harbour cards and two water cards each."""
TOPS = ("red-3", "black-6", "water-54")
"""The cards turned face up on the red, black and water piles."""
SETUP = tuple((CHANCE, c) for c in (*CROSS, *HANDS, *TOPS))
ROUND_1 = ((0, "choose red-21"), (1, "choose black-20"), (0, "place red-21 (1,-2)"),
           (CHANCE, "red-5"), (1, "place black-20 (2,-1)"), (CHANCE, "black-8"))
ROUND_2 = ((0, "choose red-15"), (1, "choose water-49"), (1, "place water-49 (3,-1)"),
           (CHANCE, "water-58"), (0, "place red-15 (1,-1)"), (CHANCE, "red-7"))
ROUND_3 = ((0, "choose water-47"), (1, "choose water-52"), (1, "place water-52 (2,-2)"),
           (CHANCE, "water-59"), (0, "place water-47 (1,-3)"))
"""Three rounds that build example K2's area (red 21 and 15 with wine, black 20 with tea) and
close it: red wins it, wine 2 against tea 1."""
LATER = recorded("""
c:water-63; 0:choose red-3; 1:choose black-4; 1:place black-4 (0,-3); c:black-40; 0:place
red-3 (-1,-3); c:red-37; 0:choose red-5; 1:choose black-6; 1:place black-6 (2,-3);
c:black-18; 0:place red-5 (3,-3); c:red-27; 0:choose red-7; 1:choose black-8; 1:place
black-8 (3,-2); c:black-26; 0:place red-7 (3,0); c:red-33; 0:choose water-53; 1:choose
black-18; 0:place water-53 (3,1); c:water-82; 1:place black-18 (3,2); c:black-12; 0:choose
red-27; 1:choose water-54; 1:place water-54 (2,2); c:water-60; 0:place red-27 (2,1);
c:red-39
""")

"""Rounds 4 to 8 of the same game, as the bots played them: the guided game goes on from the
start of round 9."""


def game(moves: tuple[tuple[int, str], ...] = ()) -> State:
    """A 2-player game (``basic``) after the set-up, then ``moves``."""
    return play(load("kontor", players=2).new_initial_state(), [*SETUP, *moves])


def best(state: State, player: int, rng: Random) -> int:
    """The legal move the bots' heuristics value most (the first of equals)."""
    return max(state.legal_actions(player),
               key=lambda a: heuristics.action_value(state, player, a))


def the_end() -> State:
    """The same game played on to its end: each player takes the move the bots value most,
    chance draws from a fixed seed."""
    return play_out(game((*ROUND_1, *ROUND_2, *ROUND_3)), 1999, policy=best)


POSITIONS = (
    Position("start", game),
    Position("an_area", lambda: game((*ROUND_1, *ROUND_2))),
    Position("closed", lambda: game((*ROUND_1, *ROUND_2, *ROUND_3))),
    Position("the_end", the_end, viewer=None),
    Position("round_9", lambda: game((*ROUND_1, *ROUND_2, *ROUND_3, *LATER))),
)

STEPS = (
    Step(
        title=N_("Choose a card"),
        position="start",
        text=N_("Each round both of you choose one card in secret; then they are shown and the "
              "higher number plays first. Choose your red harbour card 21: it brings wine."),
        expect=("choose red-21",),
        good=N_("Your opponent chose the black 20 with tea. It shows a coin symbol, so you pay "
              "1 coin of tax. 21 is higher than 20: you play first."),
        otherwise=N_("Any card may be chosen; in this lesson start with the red 21 and its wine."),
        replies=((1, "choose black-20"),),
    ),
    Step(
        title=N_("Build the harbour"),
        text=N_("Place the red 21 beside a card on the table: one to the right and two above the "
              "anchor. Its wine is stored there in a warehouse."),
        expect=("place red-21 (1,-2)",),
        good=N_("Your wine is in the harbour, and you draw a new card. Your opponent places the "
              "black 20 right below it, to the right: harbour cards that touch form one area."),
        otherwise=N_("Place the red 21 one to the right and two above the anchor."),
        replies=((CHANCE, "red-5"), (1, "place black-20 (2,-1)"), (CHANCE, "black-8")),
    ),
    Step(
        title=N_("More wine"),
        text=N_("The area holds your wine and your opponent's tea. Choose the red 15: more wine "
              "for the same area."),
        expect=("choose red-15",),
        good=N_("Your opponent chose the water card 49, higher than your 15, so they play "
                "first and close the area's east side with water."),
        otherwise=N_("Choose the red 15, to add wine to your area."),
        replies=((1, "choose water-49"), (1, "place water-49 (3,-1)"), (CHANCE, "water-58")),
    ),
    Step(
        title=N_("Join the area"),
        text=N_("Place the red 15 one to the right and one above the anchor, between your 21 and "
              "the black 20: now the area holds wine 2 against tea 1."),
        expect=("place red-15 (1,-1)",),
        good=N_("One area of three cards: your two wines lead your opponent's one tea."),
        wrong={"place red-15 (-1,-1)": N_("There it starts an area of its own; place it between "
                                        "your 21 and the black 20.")},
        otherwise=N_("Place the red 15 between your 21 and the black 20."),
        replies=((CHANCE, "red-7"),),
    ),
    Step(
        title=N_("Close the area"),
        text=N_("An area is won when water or the edge of the field surrounds it. Only the cell "
              "above your 21 is still open. Choose your water card 47."),
        expect=("choose water-47",),
        good=N_("Your opponent chose the water card 52 and plays first: it covers the cell above "
              "the black 20. One cell is left, above your 21."),
        otherwise=N_("Choose the water card 47 to close the area."),
        replies=((1, "choose water-52"), (1, "place water-52 (2,-2)"), (CHANCE, "water-59")),
    ),
    Step(
        title=N_("Win the area"),
        text=N_("Place the water 47 one to the right and three above the anchor. A water card "
              "also earns you a coin."),
        expect=("place water-47 (1,-3)",),
        good=N_("The area is closed. You lead by the most: wine by 2, so you win it and put a "
              "warehouse keeper on it: 1 point at the end."),
        otherwise=N_("Place the water 47 above your 21, to close the area."),
    ),
    Step(
        title=N_("Round 9: a hidden hand"),
        position="round_9",
        text=N_("Five rounds later: round 9, and you have won 2 areas each. Your opponent's hand "
                "is hidden, but you saw them draw four of their five cards from the open piles: "
                "the black 26 and 40, the water 58 and 82. Choose your water card 63: it shows "
                "a coin symbol."),
        expect=("choose water-63",),
        good=N_("Both cards are shown: your opponent chose the black 26. Tax: the coin symbol on "
                "your card costs your opponent 1 coin. Your 63 is higher, so you play first."),
        otherwise=N_("Choose the water card 63, whose coin symbol taxes your opponent."),
        replies=((1, "choose black-26"),),
    ),
    Step(
        title=N_("Close a small area"),
        text=N_("Your wine 27, two to the right and one below the anchor, is an area of its own. "
                "Place the water 63 one to the right and one below the anchor: then water "
                "surrounds it, and you win it. The water card also earns you a coin."),
        expect=("place water-63 (1,1)",),
        good=N_("3 areas won. Your opponent places the black 26 below your water: an area of one "
                "card, closed at once, which they win. 3 each."),
        otherwise=N_("Place the water 63 one to the right and one below the anchor, beside your "
                     "wine 27."),
        replies=((CHANCE, "water-81"), (1, "place black-26 (1,2)"), (CHANCE, "black-10")),
    ),
    Step(
        title=N_("Tax again"),
        text=N_("Choose the red 33 with wine: its coin symbol taxes your opponent once more."),
        expect=("choose red-33",),
        good=N_("They chose the black 12 with a crane and pay 1 coin of tax: 4 coins left to "
                "them, 6 to you. Without the coins they would sit this round out."),
        otherwise=N_("Choose the red 33, with wine and a coin symbol."),
        replies=((1, "choose black-12"),),
    ),
    Step(
        title=N_("Wine at the top"),
        text=N_("The open area at the top left holds one tea, one wine and one spice of each of "
                "you. Place the red 33 two to the left and three above the anchor: your wine "
                "leads by 1."),
        expect=("place red-33 (-2,-3)",),
        good=N_("Your opponent places the black 12 below it; its crane counts as tea, so their "
                "tea leads by 1 too. Equal leads: tea beats wine, so they lead the area for "
                "now."),
        otherwise=N_("Place the red 33 two to the left and three above the anchor, in the open "
                     "area."),
        replies=((CHANCE, "red-35"), (1, "place black-12 (-2,-2) crane=tea"),
                 (CHANCE, "black-42")),
    ),
    Step(
        title=N_("The higher number plays first"),
        text=N_("Choose the red 39 with wine, to take the lead in that area back."),
        expect=("choose red-39",),
        good=N_("Your opponent chose the water 58: higher than your 39, so they play first and "
                "place it beside the area."),
        otherwise=N_("Choose the red 39, with wine."),
        replies=((1, "choose water-58"), (1, "place water-58 (-1,-2)"), (CHANCE, "water-64")),
    ),
    Step(
        title=N_("Lead by 2"),
        text=N_("Place the red 39 two to the left and one above the anchor, below the crane: "
                "wine 3 against 1 leads by 2, more than their tea's lead of 1."),
        expect=("place red-39 (-2,-1)",),
        good=N_("You lead the area by 2, in wine."),
        otherwise=N_("Place the red 39 two to the left and one above the anchor, below the "
                     "crane."),
        replies=((CHANCE, "red-41"),),
    ),
    Step(
        title=N_("Close it while you lead"),
        text=N_("Only one cell beside this area is still open: one to the left and one above "
                "the anchor. Choose your water card 59 to close it."),
        expect=("choose water-59",),
        good=N_("Your opponent chose the black 10: your 59 is higher, you play first."),
        otherwise=N_("Choose the water card 59, to close the area you lead."),
        replies=((1, "choose black-10"),),
    ),
    Step(
        title=N_("Win the big area"),
        text=N_("Place the water 59 one to the left and one above the anchor."),
        expect=("place water-59 (-1,-1)",),
        good=N_("The area of five cards is closed and yours: 4 areas won against 3. Your "
                "opponent starts a new area with the black 10 at the lower left."),
        otherwise=N_("Place the water 59 one to the left and one above the anchor, to close the "
                     "area."),
        replies=((CHANCE, "water-83"), (1, "place black-10 (-2,1)"), (CHANCE, "black-28")),
    ),
    Step(
        title=N_("Spice"),
        text=N_("Choose the red 35 with spice, for the corner at the lower left."),
        expect=("choose red-35",),
        good=N_("Your opponent chose the water 81 and plays first: one to the left and one "
                "below the anchor."),
        otherwise=N_("Choose the red 35, with spice."),
        replies=((1, "choose water-81"), (1, "place water-81 (-1,1)"), (CHANCE, "water-71")),
    ),
    Step(
        title=N_("Two cells left"),
        text=N_("Place the red 35 one to the left and two below the anchor. After it, one cell "
                "of the field is left."),
        expect=("place red-35 (-1,2)",),
        good=N_("The last free cell lies between your spice and your opponent's black 10."),
        otherwise=N_("Place the red 35 one to the left and two below the anchor."),
        replies=((CHANCE, "red-25"),),
    ),
    Step(
        title=N_("The last card"),
        text=N_("Choose the red 41 with spice: in the last cell it joins your spice and their "
                "black 10 into one area."),
        expect=("choose red-41",),
        good=N_("Your opponent chose the black 2. Your 41 is higher: you play first, and your "
                "card fills the field."),
        otherwise=N_("Choose the red 41, with spice."),
        replies=((1, "choose black-2"),),
    ),
    Step(
        title=N_("The full field and the final scoring"),
        text=N_("Place the red 41 two to the left and two below the anchor. It fills the field, "
                "and that ends the game."),
        expect=("place red-41 (-2,2)",),
        good=N_("The area is closed: your spice 2 against their tea 1 and spice 1. Your spice "
                "leads by 1, their tea by 1: equal leads, and spice beats tea, so you win it. "
                "The field is full and the game is over: each area won is a point, 5 against 3. "
                "You win."),
        otherwise=N_("Place the red 41 in the last free cell, two to the left and two below the "
                     "anchor."),
    ),
)

LESSON = Lesson(
    players=2,
    positions=POSITIONS,
    steps=STEPS,
    closing=N_("That is Kontor: choose a card in secret, build the harbour, and close areas where "
             "your goods lead by the most. Now play a whole game against the easiest bot."),
)

AID = Aid(
    scoring=(
        (N_("Each area you win"), N_("1 point")),
        (N_("Winning an area"), N_("the largest lead in one kind of goods")),
        (N_("Equal leads"), N_("wine beats spice, spice beats tea, tea beats wine")),
        (N_("A tie at the end"), N_("more areas won, then the highest harbour card in hand")),
    ),
    turn=(
        N_("Choose one card of your hand in secret; all are shown together."),
        N_("Pay 1 coin for each coin symbol on your neighbour's card; without the coins you sit "
        "out."),
        N_("The highest number plays first: place the card beside a card on the table."),
        N_("A water card brings a coin; a harbour card stores its goods. Then draw a card."),
        N_("An area closed all round by water or the edge is won by the largest lead."),
    ),
)


def ask(observation: dict[str, Any]) -> str:
    """What the current step asks of the observation's viewer."""
    if observation.get("terminal"):
        return _("The game is over: each area you won is a point.")
    viewer = observation.get("viewer")
    phase = observation.get("phase")
    if phase == "choose":
        chosen = observation.get("has_chosen") or []
        if viewer is not None and viewer < len(chosen) and not chosen[viewer]:
            return _("Choose one card of your hand in secret; the higher number plays first.")
        return _("Wait until everyone has chosen a card.")
    to_act = observation.get("current_player")
    if to_act is not None and to_act < 0:
        return _("Cards are being dealt and drawn.")
    if viewer is None or viewer != to_act:
        return _("Wait for the player to move.")
    step = observation.get("step")
    if step == "ship":
        return _("You may move the ship to a water card, or skip.")
    if step == "buy":
        return _("You may buy a special card for 2 coins, or skip.")
    if step == "remove":
        return _("You may remove a harbour card with a ship beside the ship, or skip.")
    return _("Place your card beside a card on the table, within the field; close areas where "
            "your goods lead.")
