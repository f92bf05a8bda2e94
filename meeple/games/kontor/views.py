"""What each player may see of a Kontor position: the observation dict, the observation
tensor and the final breakdown. Plain functions of the state; the State's hooks call them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.engine import CHANCE
from meeple.engine.grid import bits
from meeple.engine.scores import ScoreLine
from meeple.engine.words import number_word

from . import notation
from .components import (
    ANCHOR_ID,
    CARD_COIN,
    CARD_COLOUR,
    CARD_GOODS,
    CARD_ID,
    CARD_KEY,
    CARD_KIND,
    CARD_NAME,
    CARD_SHIP,
    COLOURS,
    CUSTOMS,
    GOODS,
    IS_HARBOUR,
    NUM_CARDS,
    P_ACT,
    P_CHOOSE,
    P_END,
    P_NEXT,
    P_ROUND,
    PHASE_NAMES,
    S_BUY,
    S_REMOVE,
    S_SHIP,
    STEP_NAMES,
    WATER,
)

if TYPE_CHECKING:
    from .rules import KontorState

MAX_LOG = 40
"""How many of the last log lines the observation carries."""
N_PLANES = 21
"""Planes of the observation tensor, each over the padded grid."""
N_VECTOR = 4 * 3 + 12 + 6 + 4 + 5 + 4 + 1 + 4 + 1 + 4 * NUM_CARDS
"""The observation tensor's entries after its planes."""
KIND_TEXT = ("water", "anchor", "tavern", "goods", "crane", "flood", "bridge", "customs")
"""The observation's word for each card kind."""


def _none(x: int) -> int | None:
    return None if x < 0 else x


def _name(c: int) -> str | None:
    return None if c < 0 else CARD_NAME[c]


def _card_json(c: int) -> dict[str, Any]:
    return {"id": CARD_NAME[c], "number": CARD_KEY[c] // 3, "kind": KIND_TEXT[CARD_KIND[c]],
            "goods": [GOODS[t] for t in CARD_GOODS[c]], "coin": CARD_COIN[c],
            "ship": CARD_SHIP[c], "owner": CARD_COLOUR[c] if IS_HARBOUR[c] else None}


PART_LABELS = {"areas": "Scored areas", "chits": "Chit majorities",
               "penalty": "No-chit penalty", "money": "Most coins"}
"""The parts of a final score (rules 6.3), in the rules page's words."""


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def _tie_note(x: dict[str, Any], players: list[dict[str, Any]]) -> str:
    """What breaks ``x``'s tie on points (rules 6.4), or "" without a tie."""
    level = [y for y in players if y is not x and y["total"] == x["total"]]
    if not level:
        return ""
    note = f"Level on points: {_plural(x['areas_won'], 'area')} won in all"
    if any(y["areas_won"] == x["areas_won"] for y in level):
        card = x["best_harbour_card"]
        note += (f", highest harbour card in hand {card}" if card else
                 ", no harbour card in hand")
    return note


def final_breakdown(state: KontorState) -> list[dict[str, Any]]:
    """The final scoring (rules 6.3) as one :class:`ScoreLine` per player: the parts the mode
    scores, which add up to the total, and a note where a tie on points is broken."""
    g = state.game
    players = state.final_result()["players"]
    out = []
    for x in players:
        parts: list[tuple[str, int]] = [(PART_LABELS["areas"], x["areas"])]
        if g.export:
            parts.append((PART_LABELS["chits"], sum(x["chit_majorities"].values())))
        if g.expansion:
            parts.append((PART_LABELS["penalty"], x["no_chit_penalty"]))
            parts.append((PART_LABELS["money"], x["money_majority"]))
        out.append(ScoreLine(x["player"], tuple(parts), x["total"],
                             _tie_note(x, players)).to_json())
    return out


def observation(state: KontorState, player: int | None) -> dict[str, Any]:
    """The game's part of the JSON view: only what ``player`` may see (``None``: public)."""
    g = state.game
    n = g.num_players
    field = []
    for i in bits(state.land | state.water):
        c = state.cell[i]
        d = _card_json(c)
        d["cell"] = list(g.xy(i))
        d["dom"] = g.cell_id(i)
        d["water"] = bool(state.water >> i & 1)
        d["stored"] = [GOODS[t] for t in range(3) if state.stored[i] >> t & 1]
        if state.valued[i]:
            d["valued"] = [GOODS[t] for t in range(3) if state.valued[i] >> t & 1]
        k = state.crane[i]
        if k >= 0:
            d["crane"] = GOODS[k % 3]
            d["crane_active"] = k < 3
        field.append(d)
    areas = []
    for aid in sorted(state.areas, key=lambda a: state.areas[a] & -state.areas[a]):
        m = state.areas[aid]
        cnt = state.area_counts(m)
        areas.append({"cells": g.xy_list(m), "size": m.bit_count(), "closed": False,
                      "owner": None, "counts": [cnt[p * 3:p * 3 + 3] for p in range(n)],
                      "leader": _none(state.winner_of(cnt))})
    for m, owner, size, closed_counts in state.closed:
        areas.append({"cells": g.xy_list(m), "size": size, "closed": True,
                      "owner": _none(owner), "counts": [list(closed_counts[p * 3:p * 3 + 3])
                                                        for p in range(n)],
                      "leader": None})
    hand = None
    if player is not None and 0 <= player < n:
        hand = [CARD_NAME[c] for c in sorted(state.hands[player], key=lambda c: -CARD_KEY[c])]
    piles = {}
    for pile in range(n + 2):
        if pile == g.special_pile and not g.special:
            continue
        name = COLOURS[pile] if pile < n else ("water" if pile == n else "special")
        size = len(state.unseen[pile]) + len(state.queue[pile]) + (state.top[pile] >= 0)
        top = None
        if g.open_piles and pile != g.special_pile and state.top[pile] >= 0:
            top = CARD_NAME[state.top[pile]]
        piles[name] = {"size": size, "top": top}
    out: dict[str, Any] = {
        "mode": g.mode,
        "field_size": g.N,
        "grid": {"min": -g.O, "max": g.O, "pad": g.off, "width": g.W},
        "frame": list(state.frame),
        "colours": list(COLOURS[:n]),
        "round": state.round,
        "phase": PHASE_NAMES[state.phase] if not state.tasks or state.phase == P_ROUND
        else "draw",
        "step": STEP_NAMES[state.step] if state.phase == P_ACT else None,
        "acting": _none(state.acting),
        "acting_card": CARD_NAME[state.card] if state.card >= 0 else None,
        "order": [COLOURS[p] for p in state.order] if state.phase in (P_NEXT, P_ACT) else [],
        "field": field,
        "areas": areas,
        "legal_cells": [list(g.xy(i)) for i in bits(state.legal)],
        "ship": list(g.xy(state.ship)) if state.ship >= 0 else None,
        "ship_moves": state.ship_moves,
        "coins": list(state.coins),
        "treasury": state.treasury if g.limited else None,
        "keepers": list(state.keepers),
        "areas_won": list(state.won),
        "chits": [{GOODS[t]: state.chits[p * 3 + t] for t in range(3)} for p in range(n)],
        "chit_supply": {GOODS[t]: state.chit_supply[t] for t in range(3)}
        if g.expansion else None,
        "supply": {GOODS[t]: state.supply[t] for t in range(3)},
        "hand": hand,
        "hand_sizes": [len(h) for h in state.hands],
        "known_hand_cards": [sorted(CARD_NAME[c] for c in h if state.public[c])
                             for h in state.hands],
        "has_chosen": [c >= 0 for c in state.chosen] if state.phase == P_CHOOSE else None,
        "my_choice": CARD_NAME[state.chosen[player]] if (
            player is not None and 0 <= player < n and state.chosen[player] >= 0) else None,
        "revealed": [_name(c) for c in state.revealed],
        "piles": piles,
        "log": state.log[-MAX_LOG:],
        "ended": state.ended or None,
    }
    if state.phase == P_END:
        b = state.final_result()
        out["final_breakdown"] = final_breakdown(state)
        out["final_scoring"] = {k: b[k] for k in ("scored_areas", "scored", "end")}
    return out



def observation_tensor(state: KontorState, player: int) -> np.ndarray:
    """What ``player`` sees as a float32 array of ``game.observation_shape``: 21 planes over the
    padded grid, then the players' counts, the phase and the cards."""
    g = state.game
    G = g.G
    n = g.num_players
    t = np.zeros(N_PLANES * G + N_VECTOR, dtype=np.float32)
    for i in bits(state.land | state.water):
        c = state.cell[i]
        if state.water >> i & 1:
            t[(1 if c == ANCHOR_ID else 0) * G + i] = 1
        else:
            col = CARD_COLOUR[c]
            t[(2 + col if col >= 0 else 6) * G + i] = 1
        for k in range(3):
            if state.stored[i] >> k & 1:
                t[(7 + k) * G + i] = 1
        if 0 <= state.crane[i] < 3:
            t[(10 + state.crane[i]) * G + i] = 1
    for m, owner, _, _ in state.closed:
        for j in bits(m):
            t[13 * G + j] = 1
            if owner >= 0:
                t[(16 + owner) * G + j] = 1
    for m in state.areas.values():
        for j in bits(m):
            t[20 * G + j] = 1
    if state.ship >= 0:
        t[14 * G + state.ship] = 1
    for i in bits(state.legal):
        t[15 * G + i] = 1
    v = N_PLANES * G
    for p in range(n):
        t[v + p] = state.coins[p]
        t[v + 4 + p] = state.keepers[p]
        t[v + 8 + p] = state.won[p]
        for k in range(3):
            t[v + 12 + p * 3 + k] = state.chits[p * 3 + k]
        t[v + 24 + p] = len(state.hands[p])
    v += 28
    t[v:v + 3] = state.supply
    t[v + 3:v + 6] = state.chit_supply
    v += 6
    t[v + min(state.phase, 4)] = 1
    v += 5
    if state.phase == P_ACT:
        t[v + state.step] = 1
    v += 4
    t[v] = state.ship_moves
    v += 1
    t[v + player] = 1
    v += 4
    t[v] = state.round
    v += 1
    for c in state.hands[player]:
        t[v + c] = 1
    v += NUM_CARDS
    if state.card >= 0:
        t[v + state.card] = 1
    v += NUM_CARDS
    for c in state.revealed:
        if c >= 0:
            t[v + c] = 1
    v += NUM_CARDS
    if g.open_piles:
        for pile in range(n + 1):
            if state.top[pile] >= 0:
                t[v + state.top[pile]] = 1
    return t


def planes(game: Any) -> list[dict[str, Any]]:
    """The layout of :func:`observation_tensor`, in order: each part's ``name``, ``shape``,
    value range (``low``, ``high``) and ``meaning``. Cells are those of the padded grid
    (``W`` x ``W``); seats are the table's own, four places each (the unused ones stay 0).
    Counts are bounded by the cards: a coin per water card, a round per card at most."""
    grid = (game.W, game.W)
    goods = ", ".join(GOODS)
    count = float(4 + NUM_CARDS)
    cards = float(NUM_CARDS)
    return [
        {"name": "water", "shape": grid, "low": 0.0, "high": 1.0,
         "meaning": "1 on a water card"},
        {"name": "anchor", "shape": grid, "low": 0.0, "high": 1.0,
         "meaning": "1 on the anchor card"},
        {"name": "harbour", "shape": (4, *grid), "low": 0.0, "high": 1.0,
         "meaning": "one plane per colour (" + ", ".join(COLOURS) + "), 1 on a land card "
                    "of that colour"},
        {"name": "neutral_land", "shape": grid, "low": 0.0, "high": 1.0,
         "meaning": "1 on a land card of no colour"},
        {"name": "stored", "shape": (3, *grid), "low": 0.0, "high": 1.0,
         "meaning": f"one plane per goods type ({goods}), 1 where it is stored"},
        {"name": "cranes", "shape": (3, *grid), "low": 0.0, "high": 1.0,
         "meaning": f"one plane per goods type ({goods}), 1 on an active crane for it"},
        {"name": "closed_areas", "shape": grid, "low": 0.0, "high": 1.0,
         "meaning": "1 in a closed area"},
        {"name": "ship", "shape": grid, "low": 0.0, "high": 1.0,
         "meaning": "1 where the ship is"},
        {"name": "legal_cells", "shape": grid, "low": 0.0, "high": 1.0,
         "meaning": "1 where a card may be laid now"},
        {"name": "area_owner", "shape": (4, *grid), "low": 0.0, "high": 1.0,
         "meaning": "one plane per seat, 1 in the closed areas that seat won"},
        {"name": "open_areas", "shape": grid, "low": 0.0, "high": 1.0,
         "meaning": "1 in an area still open"},
        {"name": "coins", "shape": (4,), "low": 0.0, "high": count,
         "meaning": "coins of each seat"},
        {"name": "keepers", "shape": (4,), "low": 0.0, "high": float(game.keepers),
         "meaning": "harbour keepers left to each seat"},
        {"name": "areas_won", "shape": (4,), "low": 0.0, "high": float(game.G),
         "meaning": "areas won by each seat"},
        {"name": "chits", "shape": (4, 3), "low": 0.0, "high": 6.0,
         "meaning": f"export chits of each seat per goods type ({goods})"},
        {"name": "hand_sizes", "shape": (4,), "low": 0.0, "high": cards,
         "meaning": "cards in each seat's hand"},
        {"name": "supply", "shape": (3,), "low": 0.0,
         "high": float(game.options["warehouses_per_type"]),
         "meaning": f"warehouses left in the supply per goods type ({goods})"},
        {"name": "chit_supply", "shape": (3,), "low": 0.0, "high": 6.0,
         "meaning": f"export chits left per goods type ({goods})"},
        {"name": "phase", "shape": (5,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot phase: round start, choosing cards, next card, playing a card, "
                    "game over"},
        {"name": "step", "shape": (4,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot step while a card is played: " + ", ".join(STEP_NAMES)},
        {"name": "ship_moves", "shape": (1,), "low": 0.0, "high": count,
         "meaning": "ship moves made this round"},
        {"name": "viewer", "shape": (4,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot seat of the viewer"},
        {"name": "round", "shape": (1,), "low": 0.0, "high": cards,
         "meaning": "rounds played"},
        {"name": "hand", "shape": (NUM_CARDS,), "low": 0.0, "high": 1.0,
         "meaning": "1 for each card in the viewer's hand"},
        {"name": "acting_card", "shape": (NUM_CARDS,), "low": 0.0, "high": 1.0,
         "meaning": "one-hot card being played"},
        {"name": "revealed", "shape": (NUM_CARDS,), "low": 0.0, "high": 1.0,
         "meaning": "1 for each card revealed this round"},
        {"name": "pile_tops", "shape": (NUM_CARDS,), "low": 0.0, "high": 1.0,
         "meaning": "1 for each card on top of a draw pile (with open draw piles)"},
    ]


# ------------------------------------------------------------------ the move log in words

def _player_words(state: KontorState, owner: int, player: int) -> str:
    """Another player as the sentence of ``player``'s move names them: by colour, the colour
    of their harbour cards ("their opponent" with two players; by colour in chance's
    sentences)."""
    if state.game.num_players == 2 and player >= 0:
        return "their opponent"
    return f"the {COLOURS[owner]} player"


def _subject(state: KontorState, owner: int, player: int) -> str:
    """``owner`` as the subject of a clause in ``player``'s sentence: "they" for the player
    themselves."""
    return "they" if owner == player else _player_words(state, owner, player)


def _hand_of(state: KontorState, owner: int, player: int) -> str:
    """``owner``'s hand as ``player``'s sentence says it: "their hand", "the red player's
    hand"."""
    return "their hand" if owner == player else f"{_player_words(state, owner, player)}'s hand"


def _card_name(card: int) -> str:
    """A card by its kind and number alone: "the red harbour card 15", "the water card 48"."""
    return notation.card_words(card).split(" with ")[0]


def _coins(k: int) -> str:
    return f"{k} coin{'s' if k != 1 else ''}"


def _charges(revealed: list[int]) -> list[int]:
    """The tax each player is charged for the revealed cards (rules 4.3): a coin symbol
    charges its owner's right neighbour, a customs house every other player."""
    n = len(revealed)
    out = [0] * n
    for p, c in enumerate(revealed):
        if c < 0:
            continue
        if CARD_COIN[c]:
            out[(p - 1) % n] += 1
        if CARD_KIND[c] == CUSTOMS:
            for q in range(n):
                if q != p:
                    out[q] += 1
    return out


def _tax_words(state: KontorState, paid: list[tuple[int, int]], player: int) -> list[str]:
    """The tax paid, one clause per amount: "every player pays 1 coin of tax", "they pay 1
    coin of tax", "the red player and the black player each pay 1 coin of tax"."""
    out = []
    for k in dict.fromkeys(k for _, k in paid):
        who = [q for q, kq in paid if kq == k]
        if player in who:  # the player who moved first
            who.remove(player)
            who.insert(0, player)
        if len(who) == state.game.num_players > 2:
            out.append(f"every player pays {_coins(k)} of tax")
        elif len(who) == 1:
            subject = _subject(state, who[0], player)
            out.append(f"{subject} {'pay' if subject == 'they' else 'pays'} {_coins(k)} of tax")
        else:
            names = notation.and_list([_subject(state, q, player) for q in who])
            out.append(f"{names} each pay {_coins(k)} of tax")
    return out


def _events(before: KontorState, after: KontorState, player: int) -> list[str]:
    """What the round brought about after a move, from the lines the game logged for it: the
    reveal, the tax paid and who is withdrawn for not paying it (rules 4.3), a revealed card
    that has nowhere to go and goes back to its owner's hand (4.4 step 1), the cards that go
    back at the end when the field is complete (E1), a player left with only water cards."""
    world: list[str] = []
    lines = after.log[len(before.log):]
    shown = list(before.revealed)
    paid: list[tuple[int, int]] = []
    end_e1 = lines.index("end E1") if "end E1" in lines else -1

    def flush_tax() -> None:
        world.extend(_tax_words(after, paid, player))
        paid.clear()

    for i, line in enumerate(lines):
        words = line.split()
        if line.startswith("reveal "):
            world.append("all the chosen cards are revealed")
            shown = [CARD_ID.get(w, -1) for w in words[1:]]
        elif words[0] == "tax" and len(words) == 3 and words[1] in COLOURS:
            paid.append((COLOURS.index(words[1]), int(words[2])))
        elif words[0] == "withdraw" and len(words) == 2 and words[1] in COLOURS:
            q = COLOURS.index(words[1])
            subject = _subject(after, q, player)
            is_ = "are" if subject == "they" else "is"
            k = _charges(shown)[q]
            card = shown[q] if 0 <= q < len(shown) else -1
            back = (f": {_card_name(card)} goes back to {_hand_of(after, q, player)}"
                    if card >= 0 else "")
            world.append(f"{subject} cannot pay {_coins(k)} of tax and {is_} withdrawn{back}")
            shown[q] = -1
        elif words[0] == "return" and len(words) == 2 and words[1] in CARD_ID:
            flush_tax()
            card = CARD_ID[words[1]]
            q = shown.index(card) if card in shown else CARD_COLOUR[card]
            hand = _hand_of(after, q, player) if 0 <= q < len(COLOURS) else "its owner's hand"
            if 0 <= end_e1 and i < end_e1:
                world.append(f"the field is complete, so {_card_name(card)} goes back to {hand}")
            else:
                world.append(f"{_card_name(card)} has nowhere to go and goes back to {hand}")
            if card in shown:
                shown[shown.index(card)] = -1
        elif line.endswith(" has only water cards left") and words[0] in COLOURS:
            flush_tax()
            q = COLOURS.index(words[0])
            subject = _subject(after, q, player)
            world.append(f"{subject} {'have' if subject == 'they' else 'has'} only water cards "
                         "left")
    flush_tax()
    return world


def _then(before: KontorState, after: KontorState, player: int) -> tuple[list[str], list[str]]:
    """What followed a move of ``player``: what they did besides (a coin taken, areas closed
    and who wins them, the card drawn from the top of a pile, seen by all), and what happened
    (the reveal and the tax, cards that go back to a hand, the end of the game)."""
    out: list[str] = []
    if player >= 0 and after.coins[player] > before.coins[player] and before.card >= 0 \
            and CARD_KIND[before.card] == WATER:
        out.append("takes a coin")
    for _, owner, size, _ in after.closed[len(before.closed):]:
        area = f"closes an area of {number_word(size)} card{'s' if size != 1 else ''}"
        if owner == player:
            out.append(f"{area} and wins it")
        elif owner >= 0:
            out.append(f"{area}, which {_player_words(after, owner, player)} wins")
        else:
            out.append(f"{area}, which nobody wins")
    for line in after.log[len(before.log):]:
        words = line.split()
        if player >= 0 and len(words) == 3 and words[1] == "draws" \
                and words[0] == COLOURS[player] and words[2] in CARD_ID \
                and after.public[CARD_ID[words[2]]]:
            out.append(f"draws {notation.card_words(CARD_ID[words[2]])}")
    world = _events(before, after, player)
    if after.is_terminal():
        world.append("the game is over")
    return out, world


def describe(state: KontorState, player: int, action: int) -> str:
    """A move of the log in the game's words, from the state before it: a card dealt, drawn
    or turned up; a card chosen, laid (and the coin, the areas it closes, the card drawn),
    the patrol ship moved, a special card bought, a card removed."""
    if player == CHANCE:
        kind = notation.chance_type(state)
        how = {"deal": "is dealt to the starting cross", "draw": "is drawn into a hand",
               "turn": "is turned up on its pile"}[kind]
        _, happened = _then(state, state.position_after(player, action), player)
        return notation._sentence(f"{notation.card_words(action)} {how}") + "".join(
            f"; {x}" for x in happened) + "."
    g = state.game
    after = state.position_after(player, action)
    if action < g.PLACE:
        head = f"chooses {notation.card_words(action)}"
    elif action < g.SHIP:
        label = notation.describe_action(state, action, player)["label"]
        head = "places" + label[len("Place"):]
    elif action < g.REMOVE:
        x, y = g.xy(action - g.SHIP)
        where = "onto the anchor" if x == y == 0 else notation.field_place(x, y)
        head = f"moves the patrol ship {where}"
    elif action < g.BUY:
        i = action - g.REMOVE
        x, y = g.xy(i)
        head = (f"removes {notation.card_words(state.cell[i])}, {notation.field_place(x, y)}, "
                "sending it under its owner's harbour pile")
    elif action == g.BUY:
        head = "buys a special card for 2 coins"
    else:
        head = {S_SHIP: "leaves the patrol ship where it is", S_BUY: "buys no special card",
                S_REMOVE: "removes no card"}.get(state.step, "goes on")
    did, happened = _then(state, after, player)
    out = notation.and_list([head, *did]) if did else head
    return out + "".join(f"; {x}" for x in happened) + "."


def describe_unseen(state: KontorState, player: int) -> str:
    """A move the viewer may not know yet: a card chosen in secret, or a card drawn unseen
    (which pile it came from is public)."""
    if player >= 0:
        return "chooses a card in secret."
    kind = notation.chance_type(state)
    if kind == "deal":
        return "A water card is dealt to the starting cross."
    if kind == "turn":
        return "A card is turned up on its pile."
    pile = state.tasks[0][2] if state.tasks else -1
    what = ("a special card" if pile == state.game.special_pile else
            "a water card" if pile == state.game.water_pile else "a harbour card")
    # what follows the draw (a revealed card with nowhere to go) does not depend on the card
    legal = state.legal_actions(CHANCE)
    then = _events(state, state.position_after(CHANCE, legal[0]), CHANCE) if legal else []
    return f"{notation._sentence(what)} is drawn into a hand, face down" + "".join(
        f"; {x}" for x in then) + "."


def describe_setup(state: KontorState) -> str:
    """The set-up in one line: the starting cross, the hands, the face-up tops of the piles."""
    g = state.game
    cross = sum(1 for c in state.cell if c >= 0 and CARD_KIND[c] == WATER)
    hand = state.hands[0] if state.hands else []
    harbour = sum(1 for c in hand if IS_HARBOUR[c])
    water = sum(1 for c in hand if CARD_KIND[c] == WATER)
    out = (f"The cards are shuffled and {number_word(cross)} water cards are laid out around "
           f"the anchor; each player draws {number_word(harbour)} harbour cards and "
           f"{number_word(water)} water cards")
    if g.open_piles:
        out += ", and the top card of every pile is turned face up"
    return out + "."
