"""The worked examples K1-K16 of the Kontor rules, one test each (plus data and notation)."""

from __future__ import annotations

import pytest

import meeple
from meeple.engine import CHANCE, TERMINAL
from meeple.games.kontor import area_winner
from meeple.games.kontor.components import (
    CARD_COIN,
    CARD_ID,
    CARD_KEY,
    CARD_SHIP,
    GOODS,
    HARBOUR_PAIRS,
    IS_HARBOUR,
    WATER_CARDS,
    harbour_cards,
)
from meeple.games.kontor.rules import P_END, P_ROUND

from .helpers import act_with, cells_of, choosing, do, fresh, lay, legal_cells, texts

TEA, WINE, SPICE = 0, 1, 2


def counts(n: int, table: dict[int, dict[int, int]]) -> list[int]:
    out = [0] * (3 * n)
    for p, per in table.items():
        for t, v in per.items():
            out[p * 3 + t] = v
    return out


# ---------------------------------------------------------------- data (2.2, 2.3, 2.6)
def test_card_data_totals():
    for colour in range(4):
        cards = harbour_cards(colour)
        goods = [0, 0, 0]
        for k, (_kind, gs, _coin, _ship) in enumerate(HARBOUR_PAIRS):
            for t in gs:
                goods[t] += 1
            assert CARD_COIN[cards[k]] + CARD_SHIP[cards[k]] <= 1
        assert goods == [8, 8, 8]
        assert sum(CARD_COIN[c] for c in cards) == 5
        assert sum(CARD_SHIP[c] for c in cards) == 8
    assert len(WATER_CARDS) == 43
    assert sum(CARD_SHIP[c] for c in WATER_CARDS) == 10
    assert sum(CARD_COIN[c] for c in WATER_CARDS) == 6
    assert CARD_ID["red-3"] != CARD_ID["green-3"]


def test_order_keys_with_bars():
    k = {name: CARD_KEY[CARD_ID[name]] for name in
         ("black-16", "purple-16", "green-15", "red-15")}
    assert k["black-16"] > k["purple-16"] > k["green-15"] > k["red-15"]


def test_options_are_checked():
    with pytest.raises(meeple.OptionError, match="basic game is for 2 players"):
        meeple.load("kontor", players=3, mode="basic")
    with pytest.raises(meeple.OptionError, match="expansion is for 3 or 4 players"):
        meeple.load("kontor", players=2, mode="expansion")
    with pytest.raises(meeple.OptionError):
        meeple.load("kontor", players=2, special_cards=True)  # basic has no ship
    with pytest.raises(meeple.OptionError):
        meeple.load("kontor", players=2, scored_areas="largest_0")
    with pytest.raises(meeple.OptionError):
        meeple.load("kontor", players=3, mode="expansion", export_warehouse=True)
    g = meeple.load("kontor", players=4, mode="expansion")
    assert g.options["scored_areas"] == "largest_9" and g.options["special_cards"] is True
    assert meeple.load("kontor", players=3, mode="expansion",
                       restriction_of_camp=True).options["scored_areas"] == "all"


def test_setup():
    s = fresh(3, mode="expansion")
    assert s.current_player == meeple.SIMULTANEOUS
    assert [len(h) for h in s.hands] == [5, 5, 5]
    assert all(sum(IS_HARBOUR[c] for c in h) == 3 for h in s.hands)
    assert CARD_ID["red-3"] not in s.unseen[0] and CARD_ID["green-3"] not in s.unseen[2]
    assert s.coins == [4, 4, 4] and s.keepers == [7, 7, 7]
    obs = s.observation(0)
    assert obs["piles"]["water"]["size"] == 35 - 6 and obs["piles"]["water"]["top"]
    assert obs["hand"] and obs["hand_sizes"] == [5, 5, 5]
    assert meeple.load("kontor").new_initial_state().current_player == CHANCE


def test_notation_is_forgiving():
    s = act_with(lay(fresh(), {}), 0, "red-11")
    a = s.string_to_action("place red-11 (1,1) crane=wine")
    assert s.string_to_action("  PLACE red-11 ( 1 , 1 )  crane = wine") == a
    assert s.string_to_action("red: place red-11 (1,1) crane=wine") == a
    with pytest.raises(meeple.NotationError, match="red-11, not red-13"):
        s.string_to_action("place red-13 (1,1) crane=wine")
    with pytest.raises(meeple.NotationError, match="expected one of"):
        s.string_to_action("fly away")
    with pytest.raises(meeple.IllegalAction, match="crane needs a goods type"):
        s.apply(s.string_to_action("place red-11 (1,1)"))


# ---------------------------------------------------------------- K1
K1_CELLS = {(0, -3), (-1, -2), (1, -2), (-2, -1), (-1, -1), (1, -1), (2, -1), (-3, 0), (3, 0),
            (-2, 1), (-1, 1), (1, 1), (2, 1), (-1, 2), (1, 2), (0, 3)}


def test_k1_legal_cells_after_setup():
    s = fresh()
    assert s.frame == [-2, 2, -2, 2]
    assert legal_cells(s) == K1_CELLS


def test_k1_frame_growth():
    s = act_with(lay(fresh(), {}), 0, "water-45")
    do(s, "place water-45 (3,0)")
    assert s.frame == [-2, 3, -2, 2]
    cells = legal_cells(s)
    assert len(cells) == 16
    assert (3, 0) not in cells and (-3, 0) not in cells and {(3, -1), (3, 1)} <= cells
    assert (4, 0) not in cells
    a = act_with(lay(fresh(mode="advanced"), {}), 0, "water-45")
    do(a, "place water-45 (3,0)")
    cells = legal_cells(a)
    assert len(cells) == 18 and {(-3, 0), (4, 0)} <= cells


# ---------------------------------------------------------------- K2
def test_k2_closure_and_plain_valuation():
    s = lay(fresh(), {(1, -3): "water-47", (1, -2): "red-21", (1, -1): "red-15",
                      (2, -1): "black-20", (3, -1): "water-49"})
    s.coins = [4, 3]
    act_with(s, 1, "water-52")
    assert len(s.areas) == 1
    supply = list(s.supply)
    do(s, "place water-52 (2,-2)")
    assert s.coins[1] == 4
    assert not s.areas and len(s.closed) == 1
    mask, owner, size, cnt = s.closed[0]
    assert cells_of(s, mask) == {(1, -2), (1, -1), (2, -1)}
    assert owner == 0 and size == 3
    assert cnt[0 * 3 + WINE] == 2 and cnt[1 * 3 + TEA] == 1
    assert s.keepers == [4, 5]
    assert s.supply[WINE] == supply[WINE] + 2 and s.supply[TEA] == supply[TEA] + 1


# ---------------------------------------------------------------- K3
K3 = {(1, -3): "water-47", (2, -3): "water-53", (1, -2): "red-21", (3, -2): "water-51",
      (1, -1): "red-15", (2, -1): "black-16", (3, -1): "water-49"}


@pytest.mark.parametrize("card,winner", [("black-20", 1), ("black-18", 0)])
def test_k3_rock_paper_scissors(card, winner):
    s = act_with(lay(fresh(), K3), 1, card)
    do(s, f"place {card} (2,-2)")
    assert len(s.closed) == 1 and s.closed[0][1] == winner and s.closed[0][2] == 4


def test_k3c_counts_only():
    assert area_winner(counts(2, {0: {WINE: 2, SPICE: 1}, 1: {WINE: 1, TEA: 1}}), 2) == 0


# ---------------------------------------------------------------- K4
def test_k4_surplus_removal_example():
    table = {0: {WINE: 4, SPICE: 2}, 1: {WINE: 2}, 2: {WINE: 1, SPICE: 2}, 3: {WINE: 1}}
    assert area_winner(counts(4, table), 4) == 0
    # the same area from cards, valued when it closes
    s = fresh(4, mode="expansion")
    row = ["red-15", "red-21", "red-27", "red-33", "red-17", "red-23", "black-16", "black-22",
           "green-15", "green-17", "green-23", "purple-16"]
    layout = {(x - 6, -4): name for x, name in enumerate(row)}
    lay(s, layout)
    aid = s.area_of[s.game.idx(-6, -4)]
    assert s.area_counts(s.areas[aid]) == counts(4, table)
    s._value(aid)
    assert s.closed[0][1] == 0 and s.keepers == [6, 7, 7, 7]


# ---------------------------------------------------------------- K5
def test_k5_no_winner_and_three_players():
    assert area_winner(counts(3, {0: {WINE: 1}, 1: {SPICE: 1}, 2: {TEA: 1}}), 3) == -1
    assert area_winner(counts(2, {0: {WINE: 2}, 1: {WINE: 2}}), 2) == -1
    assert area_winner(counts(3, {0: {WINE: 3}, 1: {WINE: 3}, 2: {WINE: 1}}), 3) == -1
    assert area_winner(counts(3, {0: {WINE: 3}, 1: {WINE: 1}, 2: {TEA: 2}}), 3) == 2


def test_k5e_tavern_area():
    s = lay(fresh(), {(1, 1): "red-1", (2, 1): "~", (1, 2): "~"})
    # (1,1) borders (0,1), (1,0) of the cross and the two laid waters: it is already closed
    s._close_areas()
    assert s.closed and s.closed[0][1] == -1 and s.closed[0][2] == 1
    assert s.keepers == [5, 5]


# ---------------------------------------------------------------- K6
K6 = {(1, -3): "~", (2, -3): "~", (3, -2): "~", (3, -1): "~", (1, -2): "red-15",
      (1, -1): "black-16", (2, -1): "black-20"}


@pytest.mark.parametrize("crane,winner", [("wine", 1), ("spice", 0), ("tea", -1)])
def test_k6_crane_choice(crane, winner):
    s = act_with(lay(fresh(mode="advanced"), K6), 0, "red-11")
    assert sorted(t.split("=")[1] for t in texts(s) if t.startswith("place red-11 (2,-2)")) == \
        sorted(GOODS)
    do(s, f"place red-11 (2,-2) crane={crane}")
    assert len(s.closed) == 1 and s.closed[0][1] == winner and s.closed[0][2] == 4


# ---------------------------------------------------------------- K7
def test_k7_closure_through_frame_growth():
    s = lay(fresh(), {(1, 1): "water-52", (2, 1): "red-19", (2, 2): "water-53"})
    s.coins = [4, 4]
    act_with(s, 1, "water-56")
    assert (3, 1) in legal_cells(s)
    do(s, "place water-56 (-3,0)")
    assert s.frame[:2] == [-3, 2]
    assert (3, 1) not in legal_cells(s)
    assert len(s.closed) == 1 and s.closed[0][1] == 0
    assert s.keepers == [4, 5] and s.coins == [4, 5]


# ---------------------------------------------------------------- K8
K8 = {(-2, -2): "water-51", (-1, -2): "black-18", (-2, -1): "red-19", (-1, -1): "black-24"}


def k8(variant: str):
    s = lay(fresh(mode="advanced", export_warehouse=True), K8)
    i18, i24 = s.game.idx(-1, -2), s.game.idx(-1, -1)
    if variant == "F2":  # both exported
        s.stored[i18] = s.stored[i24] = 0
        s.supply[SPICE] += 2
        s.chits[1 * 3 + SPICE] = 2
    elif variant == "F3":  # black-24 exported, black-18 stored
        s.stored[i24] = 0
        s.supply[SPICE] += 1
        s.chits[1 * 3 + SPICE] = 1
    act_with(s, 0, "water-54")
    s.coins = [4, 4]
    do(s, "place water-54 (-1,1)")
    assert s.coins[0] == 5 and not s.closed
    assert "buy" not in texts(s)
    do(s, "ship (-1,0)")
    assert s.ship_moves == 1
    assert texts(s) == ["remove (-1,-1)", "skip"]
    supply = list(s.supply)
    hand = len(s.hands[0])
    do(s, "remove (-1,-1)")
    assert s.queue[1] == [CARD_ID["black-24"]] or s.top[1] == CARD_ID["black-24"]
    areas = {frozenset(cells_of(s, m)) for m in s.areas.values()}
    assert areas == {frozenset({(-1, -2)}), frozenset({(-2, -1)})}
    assert (-1, -1) in legal_cells(s)
    assert len(s.hands[0]) == hand + 1  # red drew the visible water card
    return s, supply


def test_k8_f1_removal_returns_the_cards_own_warehouse():
    s, supply = k8("F1")
    assert s.supply[SPICE] == supply[SPICE] + 1
    a18 = s.areas[s.area_of[s.game.idx(-1, -2)]]
    assert s.area_counts(a18)[1 * 3 + SPICE] == 1
    a19 = s.areas[s.area_of[s.game.idx(-2, -1)]]
    assert s.area_counts(a19)[0 * 3 + TEA] == 1


def test_k8_f2_removal_returns_an_export():
    s, supply = k8("F2")
    assert s.chits[1 * 3 + SPICE] == 1 and s.supply[SPICE] == supply[SPICE]


def test_k8_f3_removal_returns_another_warehouse_first():
    s, supply = k8("F3")
    assert s.chits[1 * 3 + SPICE] == 1 and s.supply[SPICE] == supply[SPICE] + 1
    a18 = s.areas[s.area_of[s.game.idx(-1, -2)]]
    assert s.area_counts(a18)[1 * 3 + SPICE] == 0


# ---------------------------------------------------------------- K9
def k9(red_coins: int):
    s = choosing(fresh(), {0: ["red-15", "red-17", "red-19", "water-60", "water-61"],
                           1: ["water-48", "black-18", "black-20", "water-62", "water-64"]})
    s.coins = [red_coins, 3]
    do(s, "choose water-48", 1)
    assert s.current_player == meeple.SIMULTANEOUS and s.pending_players() == [0]
    assert s.observation(0)["hand_sizes"] == [5, 5]
    do(s, "choose red-15", 0)
    return s


def test_k9_a_player_who_cannot_pay_is_withdrawn():
    s = k9(0)
    assert s.coins == [0, 2]
    assert CARD_ID["red-15"] in s.hands[0] and s.order == [1]
    assert s.current_player == 1
    do(s, "place water-48 (1,1)")
    assert s.coins == [0, 3]
    while s.current_player == CHANCE:
        s.apply(s.legal_actions()[0])
    assert len(s.hands[0]) == 5 and len(s.hands[1]) == 5
    assert s.round == 2 and s.current_player == meeple.SIMULTANEOUS


def test_k9_both_pay_and_act_by_number():
    s = k9(1)
    assert s.coins == [0, 2] and s.order == [1, 0]


# ---------------------------------------------------------------- K10
def test_k10_acting_order_with_bars_and_tax_to_the_right():
    s = fresh(4, mode="expansion")
    hands = {p: [c] + ["water-70"] * 0 for p, c in
             enumerate(["red-15", "black-16", "green-15", "purple-16"])}
    s = choosing(s, hands)
    s.coins = [4, 4, 4, 4]
    for p, c in enumerate(["red-15", "black-16", "green-15", "purple-16"]):
        do(s, f"choose {c}", p)
    assert s.coins == [3, 3, 3, 3]
    assert s.order == [1, 3, 2, 0]


# ---------------------------------------------------------------- K11
def test_k11_buying_a_special_card():
    s = lay(fresh(mode="advanced", special_cards=True), {})
    s.ship = s.game.idx(-1, 0)
    s.coins = [4, 4]
    act_with(s, 0, "water-50")
    hand = len(s.hands[0])
    do(s, "place water-50 (1,1)")
    assert s.coins[0] == 5
    do(s, "ship (0,0)")
    assert texts(s) == ["buy", "skip"]
    do(s, "buy")
    assert s.coins[0] == 3 and s.current_player == CHANCE
    s.apply(CARD_ID["flood-89"])
    assert CARD_ID["flood-89"] in s.hands[0]
    # nothing to remove next to the anchor: the water draw follows at once
    assert len(s.hands[0]) == hand + 2
    assert "flood-89" not in s.observation(1)["known_hand_cards"][0]
    # black, later in the round: the ship is on the anchor, it cannot buy
    act_with(s, 1, "black-18")
    s.ship_moves = 1
    do(s, "place black-18 (-1,1)")
    assert "ship (0,0)" not in texts(s)
    do(s, "ship (1,0)")
    assert s.ship_moves == 2 and "buy" not in texts(s)


# ---------------------------------------------------------------- K12
def fake_closed(s, spec):
    """Closed areas from (size, owner) pairs, with made-up cell masks."""
    s.closed = [(1 << k, owner, size, ()) for k, (size, owner) in enumerate(spec)]


def test_k12_two_player_end_scoring_with_ties():
    s = fresh(mode="advanced", scored_areas="largest_5")
    R, B, N = 0, 1, -1
    fake_closed(s, [(8, R), (6, B), (5, B), (4, R), (3, N), (3, B), (3, R), (2, R), (1, B)])
    s.won = [4, 4]
    s.hands = [[CARD_ID[c] for c in ("red-41", "red-17", "red-9", "water-60", "water-71")],
               [CARD_ID[c] for c in ("black-44", "black-20", "black-6", "water-58", "water-81")]]
    assert len(s.scored_closed()) == 7
    assert s.scores() == [3.0, 3.0]
    assert s.ranking_key(1) > s.ranking_key(0)
    s2 = fresh(mode="advanced")
    s2.closed, s2.won, s2.hands = s.closed, s.won, s.hands
    assert s2.scores() == [4.0, 4.0] and s2.ranking_key(1) > s2.ranking_key(0)


# ---------------------------------------------------------------- K13
def k13(**options):
    s = fresh(3, mode="expansion", **options)
    R, B, G, N = 0, 1, 2, -1
    fake_closed(s, [(7, R), (6, B), (5, G), (5, R), (4, B), (4, N), (3, G), (3, R), (2, B),
                    (2, G), (1, R)])
    s.won = [4, 3, 3]
    s.chits = [1, 2, 0, 0, 2, 1, 0, 0, 0]  # red tea 1 wine 2; black wine 2 spice 1
    s.coins = [5, 5, 3]
    return s


def test_k13_three_player_end_scoring():
    s = k13()
    assert s.scores() == [4.0, 3.0, 1.0]
    b = s.breakdown()["players"]
    assert b[0]["chit_majorities"] == {"tea": 1, "wine": 0, "spice": 0}
    assert b[2]["no_chit_penalty"] == -1 and all(x["money_majority"] == 0 for x in b)
    assert k13(scored_areas="all").scores() == [5.0, 4.0, 2.0]
    s5 = k13(scored_areas="largest_5")
    assert s5.scores() == [3.0, 3.0, 0.0]
    assert s5.ranking_key(0) > s5.ranking_key(1)


# ---------------------------------------------------------------- K14
def test_k14a_no_keeper_left():
    s = lay(fresh(), {(1, 1): "red-19", (2, 1): "~", (1, 2): "~"})
    s.keepers = [0, 5]
    s._close_areas()
    assert s.closed[0][1] == -1 and s.keepers == [0, 5] and s.won == [0, 0]


def test_k14b_areas_closing_together_larger_first():
    # P: 4 cards from (1,-2); Q: 2 cards from (-2,1); both enclosed by water, red leads both
    layout = {(1, -2): "red-19", (2, -2): "red-25", (1, -1): "red-31", (2, -1): "red-37",
              (-2, 1): "red-43", (-1, 1): "black-2"}
    for x, y in [(1, -3), (2, -3), (3, -2), (3, -1), (-3, 1), (-2, 2), (-1, 2)]:
        layout[(x, y)] = "~"
    s = lay(fresh(), layout)
    s.keepers = [1, 5]
    s._close_areas()
    assert [(a[2], a[1]) for a in s.closed] == [(4, 0), (2, -1)]
    # equal sizes: reading order decides
    layout[(2, -2)] = "~"
    layout[(2, -1)] = "~"
    layout[(3, -2)] = layout[(3, -1)] = "~"
    s = lay(fresh(), layout)
    s.keepers = [1, 5]
    s._close_areas()
    assert [cells_of(s, a[0]) for a in s.closed][0] == {(1, -2), (1, -1)}
    assert [a[1] for a in s.closed] == [0, -1]


# ---------------------------------------------------------------- K15
K15 = {(3, 0): "water-45", (1, 1): "red-19", (3, 1): "black-20"}


def test_k15a_blocked_cells():
    s = act_with(lay(fresh(3, mode="expansion", restriction_of_camp=True), K15), 2, "green-19")
    assert "place green-19 (2,1)" not in texts(s)
    s = act_with(lay(fresh(3, mode="expansion", restriction_of_camp=True), K15), 2, "water-47")
    assert "place water-47 (2,1)" in texts(s)
    s = act_with(lay(fresh(3, mode="expansion"), K15), 2, "green-19")
    do(s, "place green-19 (2,1)")
    aid = s.area_of[s.game.idx(2, 1)]
    assert cells_of(s, s.areas[aid]) == {(1, 1), (2, 1), (3, 1)}
    assert s.area_counts(s.areas[aid]) == [1, 0, 0, 1, 0, 0, 1, 0, 0]


def test_k15b_storage_cap():
    z = {(1, 1): "red-19", (1, 2): "red-25"}
    opts = {"mode": "expansion", "restriction_of_camp": True}
    s = act_with(lay(fresh(3, **opts), z), 0, "red-31")
    do(s, "place red-31 (2,1)")
    aid = s.area_of[s.game.idx(2, 1)]
    assert s.area_counts(s.areas[aid])[TEA] == 2 and s.stored[s.game.idx(2, 1)] == 0
    s = act_with(lay(fresh(3, **opts), z), 0, "red-31")
    do(s, "place red-31 (2,1) export=tea")
    assert s.chits[TEA] == 1 and s.chit_supply[TEA] == 5
    s = act_with(lay(fresh(3, **opts), z), 0, "red-11")
    do(s, "place red-11 (2,1) crane=tea")
    assert s.crane[s.game.idx(2, 1)] == TEA + 3  # inactive
    s = act_with(lay(fresh(3, **opts), z), 0, "red-11")
    do(s, "place red-11 (2,1) crane=wine")
    aid = s.area_of[s.game.idx(2, 1)]
    assert s.area_counts(s.areas[aid])[WINE] == 1


# ---------------------------------------------------------------- K16
def test_k16a_e2_only_water_left():
    s = fresh(3, mode="expansion")
    s.hands[2] = [CARD_ID["water-60"], CARD_ID["water-71"]]
    s.unseen[2] = []
    s.top[2] = -1
    s.phase = P_ROUND
    s._advance()
    assert s.current_player == TERMINAL and s.ended == "E2"
    assert "final_breakdown" in s.observation(None)


def test_k16b_e1_field_complete():
    layout = {}
    for y in range(-2, 4):
        for x in range(-2, 4):
            if (x, y) != (0, 0) and (x, y) != (3, 3):
                layout[(x, y)] = "~"
    s = lay(fresh(), layout)
    assert legal_cells(s) == {(3, 3)}
    s = choosing(s, {0: ["water-84", "red-19"], 1: ["black-26", "black-30"]})
    do(s, "choose water-84", 0)
    do(s, "choose black-26", 1)
    assert s.current_player == 0
    hand0 = len(s.hands[0])
    do(s, "place water-84 (3,3)")
    assert s.current_player == TERMINAL and s.phase == P_END and s.ended == "E1"
    assert CARD_ID["black-26"] in s.hands[1] and len(s.hands[0]) == hand0
    assert s.breakdown()["players"][1]["best_harbour_card"] == "black-30"


# ---------------------------------------------------------------- special cards (4.5.4)
def test_flood_turns_a_harbour_card_into_water():
    s = lay(fresh(mode="advanced", special_cards=True), {(1, 1): "red-19", (2, 1): "red-25"})
    act_with(s, 1, "flood-88")
    assert texts(s) == ["place flood-88 (1,1)", "place flood-88 (2,1)"]
    tea = s.supply[TEA]
    do(s, "place flood-88 (1,1)")
    i = s.game.idx(1, 1)
    assert s.water >> i & 1 and s.cell[i] == CARD_ID["flood-88"]
    assert s.supply[TEA] == tea + 1
    assert CARD_ID["red-19"] in s.queue[0] or CARD_ID["red-19"] in s.hands[0] or \
        s.top[0] == CARD_ID["red-19"]
    assert [cells_of(s, m) for m in s.areas.values()] == [{(2, 1)}]


def test_bridge_joins_areas_as_neutral_land():
    s = lay(fresh(mode="advanced", special_cards=True), {(1, 1): "red-19", (1, -1): "black-20"})
    act_with(s, 0, "bridge-90")
    options = texts(s)
    assert "place bridge-90 (0,0)" not in options  # the anchor, with the ship on it
    do(s, "place bridge-90 (1,0)")
    aid = s.area_of[s.game.idx(1, 0)]
    assert cells_of(s, s.areas[aid]) == {(1, -1), (1, 0), (1, 1)}
    assert s.cell[s.game.idx(1, 0)] == CARD_ID["bridge-90"]


def test_customs_house_taxes_every_other_player():
    s = choosing(fresh(3, mode="expansion"), {0: ["customs-92", "red-19"],
                                              1: ["black-18", "water-45"],
                                              2: ["green-17", "water-47"]})
    s.coins = [4, 4, 4]
    do(s, "choose customs-92", 0)
    do(s, "choose black-18", 1)
    do(s, "choose green-17", 2)
    assert s.coins == [4, 3, 3]
    assert s.order == [0, 1, 2]
    do(s, "place customs-92 (1,1)")
    i = s.game.idx(1, 1)
    assert s.land >> i & 1 and s.area_of[i] >= 0


def test_limited_treasury_pays_water_income_only_while_it_has_coins():
    s = lay(fresh(limited_coins=True), {})
    s.treasury = 0
    s.coins = [4, 4]
    act_with(s, 0, "water-45")
    do(s, "place water-45 (1,1)")
    assert s.coins == [4, 4] and s.treasury == 0
    s.treasury = 1
    act_with(s, 1, "water-47")
    do(s, "place water-47 (-1,1)")
    assert s.coins == [4, 5] and s.treasury == 0


def test_supply_shortage_loses_goods():
    s = lay(fresh(3, mode="expansion"), {})
    s.supply = [0, 5, 5]
    act_with(s, 0, "red-19")
    do(s, "place red-19 (1,1)")
    assert s.stored[s.game.idx(1, 1)] == 0 and s.supply == [0, 5, 5]
