"""What each player may see of a Kontor position: the observation dict, the observation
tensor and the final breakdown. Plain functions of the state; the State's hooks call them."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from meeple.engine import CHANCE
from meeple.engine.grid import bits
from meeple.engine.i18n import N_, words
from meeple.engine.scores import ScoreLine

from . import notation
from .components import (
    ANCHOR_ID,
    BRIDGE,
    CARD_COIN,
    CARD_COLOUR,
    CARD_GOODS,
    CARD_ID,
    CARD_KEY,
    CARD_KIND,
    CARD_NAME,
    CARD_NUMBER,
    CARD_SHIP,
    COLOURS,
    CUSTOMS,
    FLOOD,
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

_, _n = words(__file__)


class Setup(notation.Setup, Protocol):
    """What the views read of the game (``rules.Kontor`` is one)."""

    G: int
    N: int
    W: int
    off: int
    num_players: int
    mode: str
    expansion: bool
    export: bool
    limited: bool
    open_piles: bool
    special: bool
    special_pile: int
    water_pile: int

    def xy_list(self, mask: int) -> list[list[int]]: ...


class Position(notation.Position, Protocol):
    """What the views read of a position (``rules.KontorState`` is one): the rules import
    this module, never the other way round."""

    acting: int
    areas: dict[int, int]
    chit_supply: list[int]
    chits: list[int]
    chosen: list[int]
    closed: list[tuple[int, int, int, tuple[int, ...]]]
    coins: list[int]
    crane: list[int]
    ended: str
    frame: list[int]
    hands: list[list[int]]
    keepers: list[int]
    land: int
    legal: int
    log: list[str]
    order: list[int]
    public: list[bool]
    queue: list[list[int]]
    revealed: list[int]
    round: int
    ship: int
    ship_moves: int
    stored: list[int]
    supply: list[Any]
    top: list[int]
    treasury: int
    unseen: list[list[int]]
    valued: list[int]
    water: int
    won: list[int]

    @property
    def game(self) -> Setup: ...

    def area_counts(self, mask: int) -> list[int]: ...

    def final_result(self) -> dict[str, Any]: ...

    def scored_closed(self) -> list[int]: ...

    def is_terminal(self) -> bool: ...

    def legal_actions(self, player: int | None = None) -> list[int]: ...

    def position_after(self, player: int, action: int) -> Position: ...

    def winner_of(self, counts: list[int]) -> int: ...


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


PART_LABELS = {"areas": N_("Scored areas"), "chits": N_("Chit majorities"),
               "penalty": N_("No-chit penalty"), "money": N_("Most coins")}
"""The parts of a final score (rules 6.3), in the rules page's words (said with ``_``)."""


def _tie_note(x: dict[str, Any], players: list[dict[str, Any]]) -> str:
    """What breaks ``x``'s tie on points (rules 6.4), or "" without a tie."""
    level = [y for y in players if y is not x and y["total"] == x["total"]]
    if not level:
        return ""
    won = x["areas_won"]
    if not any(y["areas_won"] == won for y in level):
        return _n("Level on points: {n} area won in all", "Level on points: {n} areas won in all",
                  won)
    card = x["best_harbour_card"]
    if card:
        c = CARD_ID[card]
        said = _(notation.HARBOUR_CARD_WORDS[CARD_COLOUR[c]], number=str(CARD_NUMBER[c]))
        return _n("Level on points: {n} area won in all, and the highest harbour card in hand "
                  "is {card}",
                  "Level on points: {n} areas won in all, and the highest harbour card in hand "
                  "is {card}", won, card=said)
    return _n("Level on points: {n} area won in all, no harbour card in hand",
              "Level on points: {n} areas won in all, no harbour card in hand", won)


def _area_items(state: Position, player: int) -> list[tuple[str, int]]:
    """Each closed area ``player`` won, largest first: its size in cards, its rank among all
    closed areas by size (rules 6.2) and its point, or none where it ranks too low to score."""
    sizes = [size for _m, _owner, size, _counts in state.closed]
    scored = set(state.scored_closed())
    out = []
    for k in sorted(range(len(sizes)), key=lambda k: -sizes[k]):
        if state.closed[k][1] != player:
            continue
        rank = 1 + sum(s > sizes[k] for s in sizes)
        if k in scored:
            label = _n("Area of {n} card, rank {rank} by size",
                       "Area of {n} cards, rank {rank} by size", sizes[k], rank=rank)
        else:
            label = _n("Area of {n} card, rank {rank} by size: too small to score",
                       "Area of {n} cards, rank {rank} by size: too small to score", sizes[k],
                       rank=rank)
        out.append((label, 1 if k in scored else 0))
    return out


def final_breakdown(state: Position) -> list[dict[str, Any]]:
    """The final scoring (rules 6.3) as one :class:`ScoreLine` per player: the parts the mode
    scores, which add up to the total, each area won with its size and rank, and a note where
    a tie on points is broken."""
    g = state.game
    players = state.final_result()["players"]
    out = []
    for x in players:
        parts: list[tuple[str, int]] = [(_(PART_LABELS["areas"]), x["areas"])]
        items = _area_items(state, x["player"])
        if g.export:
            parts.append((_(PART_LABELS["chits"]), sum(x["chit_majorities"].values())))
            items += [(_("Most {goods} chits", goods=notation.goods_word(GOODS.index(good))), 1)
                      for good, won in x["chit_majorities"].items() if won]
        if g.expansion:
            parts.append((_(PART_LABELS["penalty"]), x["no_chit_penalty"]))
            parts.append((_(PART_LABELS["money"]), x["money_majority"]))
            if x["no_chit_penalty"]:
                items.append((_(PART_LABELS["penalty"]), x["no_chit_penalty"]))
            if x["money_majority"]:
                items.append((_(PART_LABELS["money"]), x["money_majority"]))
        out.append(ScoreLine(x["player"], tuple(parts), x["total"],
                             _tie_note(x, players), tuple(items)).to_json())
    return out


def observation(state: Position, player: int | None) -> dict[str, Any]:
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



def observation_tensor(state: Position, player: int) -> np.ndarray:
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

def _player_words(state: Position, owner: int, player: int) -> str:
    """Another player as the sentence of ``player``'s move names them: by colour, the colour
    of their harbour cards, with two players too (a reader who is that opponent sees who is
    meant, where "their opponent" read as someone else)."""
    return _(notation.PLAYER_WORDS[owner])


def _subject(state: Position, owner: int, player: int) -> str:
    """``owner`` as one of the subjects of a clause in ``player``'s sentence: "they" for the
    player themselves."""
    return _("they") if owner == player else _player_words(state, owner, player)


def _hand_of(state: Position, owner: int, player: int) -> str:
    """``owner``'s hand as ``player``'s sentence says it: "their hand", "the red player's
    hand"."""
    if owner == player:
        return _("their hand")
    return _(notation.HAND_WORDS[owner])


def _card_name(card: int) -> str:
    """A card by its kind and number alone: "the red harbour card 15", "the water card 48"."""
    kind = CARD_KIND[card]
    number = str(CARD_NUMBER[card])
    if kind == WATER:
        return _("the water card {number}", number=number)
    if kind == FLOOD:
        return _("the flood card {number}", number=number)
    if kind == BRIDGE:
        return _("the bridge card {number}", number=number)
    if kind == CUSTOMS:
        return _("the customs house card {number}", number=number)
    if IS_HARBOUR[card]:
        return _(notation.HARBOUR_CARD_WORDS[CARD_COLOUR[card]], number=number)
    return _("the anchor")


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


def _tax_words(state: Position, paid: list[tuple[int, int]], player: int) -> list[str]:
    """The tax paid, one clause per amount: "every player pays 1 coin of tax", "they pay 1
    coin of tax", "the red player and the black player each pay 1 coin of tax"."""
    out = []
    for k in dict.fromkeys(k for _q, k in paid):
        who = [q for q, kq in paid if kq == k]
        if player in who:  # the player who moved first
            who.remove(player)
            who.insert(0, player)
        if len(who) == state.game.num_players > 2:
            out.append(_n("every player pays {n} coin of tax",
                          "every player pays {n} coins of tax", k))
        elif len(who) == 1 and who[0] == player:
            out.append(_n("they pay {n} coin of tax", "they pay {n} coins of tax", k))
        elif len(who) == 1:
            out.append(_n("{player} pays {n} coin of tax", "{player} pays {n} coins of tax", k,
                          player=_player_words(state, who[0], player)))
        else:
            names = notation.and_list([_subject(state, q, player) for q in who])
            out.append(_n("{players} each pay {n} coin of tax",
                          "{players} each pay {n} coins of tax", k, players=names))
    return out


def _withdrawn(state: Position, q: int, player: int, k: int, card: int) -> str:
    """``q`` cannot pay the tax ``k`` and is withdrawn, their card going back to the hand."""
    if q == player:
        if card >= 0:
            return _n("they cannot pay {n} coin of tax and are withdrawn: {card} goes back to "
                      "their hand", "they cannot pay {n} coins of tax and are withdrawn: {card} "
                      "goes back to their hand", k, card=_card_name(card))
        return _n("they cannot pay {n} coin of tax and are withdrawn",
                  "they cannot pay {n} coins of tax and are withdrawn", k)
    who = _player_words(state, q, player)
    if card >= 0:
        return _n("{player} cannot pay {n} coin of tax and is withdrawn: {card} goes back to "
                  "{hand}", "{player} cannot pay {n} coins of tax and is withdrawn: {card} goes "
                  "back to {hand}", k, player=who, card=_card_name(card),
                  hand=_hand_of(state, q, player))
    return _n("{player} cannot pay {n} coin of tax and is withdrawn",
              "{player} cannot pay {n} coins of tax and is withdrawn", k, player=who)


def _events(before: Position, after: Position, player: int) -> list[str]:
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
            world.append(_("all the chosen cards are revealed"))
            shown = [CARD_ID.get(w, -1) for w in words[1:]]
        elif words[0] == "tax" and len(words) == 3 and words[1] in COLOURS:
            paid.append((COLOURS.index(words[1]), int(words[2])))
        elif words[0] == "withdraw" and len(words) == 2 and words[1] in COLOURS:
            q = COLOURS.index(words[1])
            card = shown[q] if 0 <= q < len(shown) else -1
            world.append(_withdrawn(after, q, player, _charges(shown)[q], card))
            shown[q] = -1
        elif words[0] == "return" and len(words) == 2 and words[1] in CARD_ID:
            flush_tax()
            card = CARD_ID[words[1]]
            q = shown.index(card) if card in shown else CARD_COLOUR[card]
            hand = (_hand_of(after, q, player) if 0 <= q < len(COLOURS)
                    else _("its owner's hand"))
            if 0 <= end_e1 and i < end_e1:
                world.append(_("the field is complete, so {card} goes back to {hand}",
                               card=_card_name(card), hand=hand))
            else:
                world.append(_("{card} has nowhere to go and goes back to {hand}",
                               card=_card_name(card), hand=hand))
            if card in shown:
                shown[shown.index(card)] = -1
        elif line.endswith(" has only water cards left") and words[0] in COLOURS:
            flush_tax()
            q = COLOURS.index(words[0])
            if q == player:
                world.append(_("they have only water cards left"))
            else:
                world.append(_("{player} has only water cards left",
                               player=_player_words(after, q, player)))
    flush_tax()
    return world


def _then(before: Position, after: Position, player: int) -> tuple[list[str], list[str]]:
    """What followed a move of ``player``: what they did besides (a coin taken, areas closed
    and who wins them, the card drawn from the top of a pile, seen by all), and what happened
    (the reveal and the tax, cards that go back to a hand, the end of the game)."""
    out: list[str] = []
    if player >= 0 and after.coins[player] > before.coins[player] and before.card >= 0 \
            and CARD_KIND[before.card] == WATER:
        out.append(_("takes a coin"))
    for _m, owner, size, _v in after.closed[len(before.closed):]:
        word = notation.number_word(size)
        if owner == player:
            out.append(_n("closes an area of {word} card and wins it",
                          "closes an area of {word} cards and wins it", size, word=word))
        elif owner >= 0:
            out.append(_n("closes an area of {word} card, which {player} wins",
                          "closes an area of {word} cards, which {player} wins", size,
                          word=word, player=_player_words(after, owner, player)))
        else:
            out.append(_n("closes an area of {word} card, which nobody wins",
                          "closes an area of {word} cards, which nobody wins", size,
                          word=word))
    for line in after.log[len(before.log):]:
        words = line.split()
        if player >= 0 and len(words) == 3 and words[1] == "draws" \
                and words[0] == COLOURS[player] and words[2] in CARD_ID \
                and after.public[CARD_ID[words[2]]]:
            out.append(_("draws {card}", card=notation.card_words(CARD_ID[words[2]])))
    world = _events(before, after, player)
    if after.is_terminal():
        world.append(_("the game is over"))
    return out, world


def _clauses(head: str, happened: list[str]) -> str:
    """A sentence of the log: its head, then each thing that happened after a semicolon."""
    return head + "".join(_("; {clause}", clause=x) for x in happened) + _(".")


def describe(state: Position, player: int, action: int) -> str:
    """A move of the log in the game's words, from the state before it: a card dealt, drawn
    or turned up; a card chosen, laid (and the coin, the areas it closes, the card drawn),
    the patrol ship moved, a special card bought, a card removed."""
    if player == CHANCE:
        kind = notation.chance_type(state)
        card = notation.card_words(action)
        if kind == "deal":
            head = _("{card} is dealt to the starting cross", card=card)
        elif kind == "draw":
            head = _("{card} is drawn into a hand", card=card)
        else:
            head = _("{card} is turned up on its pile", card=card)
        _did, happened = _then(state, state.position_after(player, action), player)
        return _clauses(notation._sentence(head), happened)
    g = state.game
    after = state.position_after(player, action)
    if action < g.PLACE:
        head = _("chooses {card}", card=notation.card_words(action))
    elif action < g.SHIP:
        did, happened = _then(state, after, player)
        return _clauses(notation.place_words(state, action, log=True, then=did), happened)
    elif action < g.REMOVE:
        x, y = g.xy(action - g.SHIP)
        head = _("moves the patrol ship {where}", where=notation.ship_place(x, y))
    elif action < g.BUY:
        i = action - g.REMOVE
        x, y = g.xy(i)
        head = _("removes {card}, {place}, sending it under its owner's harbour pile",
                 card=notation.card_words(state.cell[i]), place=notation.field_place(x, y))
    elif action == g.BUY:
        head = _("buys a special card for 2 coins")
    elif state.step == S_SHIP:
        head = _("leaves the patrol ship where it is")
    elif state.step == S_BUY:
        head = _("buys no special card")
    elif state.step == S_REMOVE:
        head = _("removes no card")
    else:
        head = _("goes on")
    did, happened = _then(state, after, player)
    return _clauses(notation.and_list([head, *did]) if did else head, happened)


def describe_unseen(state: Position, player: int) -> str:
    """A move the viewer may not know yet: a card chosen in secret, or a card drawn unseen
    (which pile it came from is public)."""
    if player >= 0:
        return _("chooses a card in secret.")
    kind = notation.chance_type(state)
    if kind == "deal":
        return _("A water card is dealt to the starting cross.")
    if kind == "turn":
        return _("A card is turned up on its pile.")
    pile = state.tasks[0][2] if state.tasks else -1
    if pile == state.game.special_pile:
        head = _("A special card is drawn into a hand, face down")
    elif pile == state.game.water_pile:
        head = _("A water card is drawn into a hand, face down")
    else:
        head = _("A harbour card is drawn into a hand, face down")
    # what follows the draw (a revealed card with nowhere to go) does not depend on the card
    legal = state.legal_actions(CHANCE)
    then = _events(state, state.position_after(CHANCE, legal[0]), CHANCE) if legal else []
    return _clauses(head, then)


def describe_setup(state: Position) -> str:
    """The set-up in one line: the starting cross, the hands, the face-up tops of the piles."""
    g = state.game
    cross = sum(1 for c in state.cell if c >= 0 and CARD_KIND[c] == WATER)
    hand = state.hands[0] if state.hands else []
    harbour = sum(1 for c in hand if IS_HARBOUR[c])
    water = sum(1 for c in hand if CARD_KIND[c] == WATER)
    counts = {"cross": notation.number_word(cross), "harbour": notation.number_word(harbour),
              "water": notation.number_word(water)}
    if g.open_piles:
        return _("The cards are shuffled and {cross} water cards are laid out around the "
                 "anchor; each player draws {harbour} harbour cards and {water} water cards, "
                 "and the top card of every pile is turned face up.", **counts)
    return _("The cards are shuffled and {cross} water cards are laid out around the anchor; "
             "each player draws {harbour} harbour cards and {water} water cards.", **counts)
