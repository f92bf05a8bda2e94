"""Learning Kontor: the closure and valuation of worked example K2 (rules.md §9) reached by
play from a set-up with fixed draws, the player aid and the guided first game. Every sentence a
learner reads is here or in ``howto.md``."""

from __future__ import annotations

from random import Random
from typing import Any

from meeple.engine import CHANCE, State, load, play_out
from meeple.engine.i18n import N_, words
from meeple.engine.lessons import Aid, Lesson, Position, Step, play

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
