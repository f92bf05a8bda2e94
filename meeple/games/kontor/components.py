"""Kontor's card data: harbour cards, water cards, the anchor and the special cards.

Everything here is data, in one table per card family, flattened into per-card arrays indexed
by a dense card id. Items marked ``[R…]`` are reconstructed (no source gave them): they follow
section 8 of the rules page and can be replaced by editing these tables (and the game version).

Card ids:

- harbour cards ``colour * 22 + pair`` (0..87): colours red, black, green, purple; pair 0..21;
- water cards 88..130 (numbers 45..87);
- special cards 131..136 (flood-88, flood-89, bridge-90, bridge-91, customs-92, customs-93);
- the anchor 137.
"""

from __future__ import annotations

from meeple.engine.look import Colour

GOODS = ("tea", "wine", "spice")
TEA, WINE, SPICE = 0, 1, 2
BEATS = {WINE: SPICE, SPICE: TEA, TEA: WINE}
"""The info card's cycle: wine beats spice, spice beats tea, tea beats wine."""

COLOURS = ("red", "black", "green", "purple")
"""Seat i plays colour i."""
BAR_RANK = (1, 1, 2, 0)
"""Order-key bar rank per colour: green has a bar above (2), purple a bar below (0)."""

# kinds
WATER, ANCHOR, TAVERN, GOODS_CARD, CRANE, FLOOD, BRIDGE, CUSTOMS = range(8)
KIND_NAMES = ("water", "anchor", "tavern", "goods", "crane", "flood", "bridge", "customs house")

# The 22 rows of harbour cards: (kind, goods, coin symbol, ship symbol).  [R1-R3, R7]
HARBOUR_PAIRS: tuple[tuple[int, tuple[int, ...], bool, bool], ...] = (
    (TAVERN, (), False, False),  # 1
    (GOODS_CARD, (TEA, WINE, SPICE), False, True),  # 2: the triple card (3 and 4)
    (GOODS_CARD, (WINE, SPICE), False, True),  # 3
    (GOODS_CARD, (TEA, WINE), False, True),  # 4
    (GOODS_CARD, (TEA, SPICE), False, True),  # 5
    (CRANE, (), False, False),  # 6
    (CRANE, (), False, False),  # 7
    (GOODS_CARD, (WINE,), True, False),  # 8
    (GOODS_CARD, (SPICE,), False, True),  # 9
    (GOODS_CARD, (TEA,), True, False),  # 10
    (GOODS_CARD, (WINE,), False, False),  # 11
    (GOODS_CARD, (SPICE,), False, True),  # 12
    (GOODS_CARD, (TEA,), False, False),  # 13
    (GOODS_CARD, (WINE,), False, False),  # 14
    (GOODS_CARD, (SPICE,), True, False),  # 15
    (GOODS_CARD, (TEA,), False, False),  # 16
    (GOODS_CARD, (WINE,), True, False),  # 17
    (GOODS_CARD, (SPICE,), False, False),  # 18
    (GOODS_CARD, (TEA,), False, True),  # 19
    (GOODS_CARD, (WINE,), False, True),  # 20
    (GOODS_CARD, (SPICE,), False, False),  # 21
    (GOODS_CARD, (TEA,), True, False),  # 22
)
TRIPLE_PAIR = 1
"""Row index of the triple card (red-3, black-4, green-3, purple-4)."""

# Water cards 45..87: ship on every 4th number from 46, coin on these six.  [R4]
WATER_NUMBERS = tuple(range(45, 88))
WATER_SHIP = frozenset(range(46, 83, 4))
WATER_COIN = frozenset((48, 55, 63, 69, 76, 83))

# Special cards: (name, number, kind); no symbols.  [R5, R6]
SPECIALS = (
    ("flood", 88, FLOOD),
    ("flood", 89, FLOOD),
    ("bridge", 90, BRIDGE),
    ("bridge", 91, BRIDGE),
    ("customs", 92, CUSTOMS),
    ("customs", 93, CUSTOMS),
)

HARBOUR_COUNT = 88
WATER_FIRST = 88
SPECIAL_FIRST = WATER_FIRST + len(WATER_NUMBERS)  # 131
ANCHOR_ID = SPECIAL_FIRST + len(SPECIALS)  # 137
NUM_CARDS = ANCHOR_ID + 1

CARD_NAME: list[str] = []
CARD_NUMBER: list[int] = []
CARD_KEY: list[int] = []
"""Order key ``number * 3 + bar_rank``: a higher key acts earlier (all keys are distinct)."""
CARD_KIND: list[int] = []
CARD_GOODS: list[tuple[int, ...]] = []
CARD_COIN: list[bool] = []
CARD_SHIP: list[bool] = []
CARD_COLOUR: list[int] = []
"""Colour index of a harbour card, -1 for every other card."""

for _c, _colour in enumerate(COLOURS):
    for _k, (_kind, _goods, _coin, _ship) in enumerate(HARBOUR_PAIRS):
        _num = 2 * _k + 1 if _c in (0, 2) else 2 * _k + 2
        CARD_NAME.append(f"{_colour}-{_num}")
        CARD_NUMBER.append(_num)
        CARD_KEY.append(_num * 3 + BAR_RANK[_c])
        CARD_KIND.append(_kind)
        CARD_GOODS.append(_goods)
        CARD_COIN.append(_coin)
        CARD_SHIP.append(_ship)
        CARD_COLOUR.append(_c)
for _num in WATER_NUMBERS:
    CARD_NAME.append(f"water-{_num}")
    CARD_NUMBER.append(_num)
    CARD_KEY.append(_num * 3 + 1)
    CARD_KIND.append(WATER)
    CARD_GOODS.append(())
    CARD_COIN.append(_num in WATER_COIN)
    CARD_SHIP.append(_num in WATER_SHIP)
    CARD_COLOUR.append(-1)
for _name, _num, _kind in SPECIALS:
    CARD_NAME.append(f"{_name}-{_num}")
    CARD_NUMBER.append(_num)
    CARD_KEY.append(_num * 3 + 1)
    CARD_KIND.append(_kind)
    CARD_GOODS.append(())
    CARD_COIN.append(False)
    CARD_SHIP.append(False)
    CARD_COLOUR.append(-1)
CARD_NAME.append("anchor")
CARD_NUMBER.append(0)
CARD_KEY.append(0)
CARD_KIND.append(ANCHOR)
CARD_GOODS.append(())
CARD_COIN.append(False)
CARD_SHIP.append(False)
CARD_COLOUR.append(-1)

CARD_ID: dict[str, int] = {name: i for i, name in enumerate(CARD_NAME)}
IS_HARBOUR = [k in (TAVERN, GOODS_CARD, CRANE) for k in CARD_KIND]
IS_SPECIAL = [k in (FLOOD, BRIDGE, CUSTOMS) for k in CARD_KIND]
IS_WATER_KIND = [k == WATER for k in CARD_KIND]
CARD_GOODS_MASK = [sum(1 << t for t in g) for g in CARD_GOODS]


def harbour_cards(colour: int) -> list[int]:
    """The 22 card ids of one colour."""
    return list(range(colour * 22, colour * 22 + 22))


def card_id(colour: int, pair: int) -> int:
    """The id of a colour's card in a row (pair 0..21)."""
    return colour * 22 + pair


WATER_CARDS = list(range(WATER_FIRST, SPECIAL_FIRST))
SPECIAL_CARDS = list(range(SPECIAL_FIRST, ANCHOR_ID))

CROSS_CELLS = ((1, 0), (2, 0), (-1, 0), (-2, 0), (0, 1), (0, 2), (0, -1), (0, -2))
"""Where the 8 starting water cards go, in dealing order.  [R36]"""


# -- the codes of the turn structure, shared by the rules, the notation and the views ----------
P_ROUND, P_CHOOSE, P_NEXT, P_ACT, P_END = range(5)
"""Phases: the start of a round, the hidden choice, the next player's turn, a turn, the end."""
PHASE_NAMES = ("round start", "choose", "act", "act", "end")
S_PLACE, S_SHIP, S_BUY, S_REMOVE = range(4)
"""The steps of one action (rules 4.4)."""
STEP_NAMES = ("place", "ship", "buy", "remove")
T_CROSS, T_HAND, T_TOP = range(3)
"""Chance tasks: deal to the starting cross, draw into a hand, turn up a pile's top card."""
NV = 7
"""Placement variants per cell: 0 plain, 1..3 crane names tea/wine/spice, 4..6 export it."""

SEAT_COLOURS: tuple[Colour, ...] = (
    Colour(COLOURS[0], "#d55e00", "▲", said_by=__file__),
    Colour(COLOURS[1], "#2b2b2b", "●", said_by=__file__),
    Colour(COLOURS[2], "#009e73", "■", said_by=__file__),
    Colour(COLOURS[3], "#7b52ab", "◆", said_by=__file__),
)
"""The players' colours are their cards' colours (seat i plays ``COLOURS[i]``), each with its
own symbol and a light ink; ``Kontor.colours``."""
