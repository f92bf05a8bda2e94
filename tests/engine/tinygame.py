"""A tiny game of the test suite's own with chance and simultaneous nodes ("sealed bids").

Each of 3 rounds, chance turns up a prize (1..3); then both players bid one card from their
hands {1, 2, 3} at the same time; the higher bid takes the prize (a tie: nobody). Bids are hidden
until both have chosen. The larger total of prizes wins.
"""

from __future__ import annotations

import numpy as np

from meeple.engine import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    NotationError,
    Option,
    State,
    registry,
    svg,
)
from meeple.engine.options import OptionSchema


class SealedBids(Game):
    name = "sealed_bids"
    title = "Sealed bids (test game)"
    version = "1"
    player_counts = (2,)
    perfect_information = False
    option_schema = OptionSchema((Option("rounds", int, 3, choices=(1, 2, 3)),))

    @property
    def num_distinct_actions(self) -> int:
        return 3

    @property
    def max_chance_outcomes(self) -> int:
        return 3

    @property
    def max_game_length(self) -> int:
        return 3 * self.options["rounds"]

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (8,)

    def planes(self) -> list[dict]:
        """The tensor: round, prize, prizes won, the cards in hand, the other's bid."""
        return [
            {"name": "round", "shape": (1,), "low": 0.0, "high": 3.0, "meaning": "rounds played"},
            {"name": "prize", "shape": (1,), "low": 0.0, "high": 3.0, "meaning": "the prize"},
            {"name": "won", "shape": (1,), "low": 0.0, "high": 6.0, "meaning": "seat 0's prizes"},
            {"name": "hand", "shape": (4,), "low": 0.0, "high": 6.0,
             "meaning": "seat 1's prizes, then 1 for each card 1 to 3 in hand"},
            {"name": "other_bid", "shape": (1,), "low": 0.0, "high": 1.0,
             "meaning": "1 once the other player has bid"},
        ]


class SealedBidsState(State):
    def __init__(self, game: Game):
        super().__init__(game)
        self.round = 0
        self.prize: int | None = None
        self.hands = [[1, 2, 3], [1, 2, 3]]
        self.bids: list[int | None] = [None, None]
        self.won = [0, 0]
        self.prizes_left = [1, 2, 3]

    @property
    def current_player(self) -> int:
        if self.round >= self.game.options["rounds"]:
            return TERMINAL
        if self.prize is None:
            return CHANCE
        return SIMULTANEOUS

    def _pending_players(self) -> list[int]:
        return [p for p in (0, 1) if self.bids[p] is None]

    def _chance_outcomes(self):
        return [(v - 1, 1 / len(self.prizes_left)) for v in self.prizes_left]

    def _legal_actions(self, player: int) -> list[int]:
        if player == CHANCE:
            return [v - 1 for v in self.prizes_left]
        return [v - 1 for v in self.hands[player]]

    def _apply(self, action: int, player: int) -> None:
        if player == CHANCE:
            self.prize = action + 1
            self.prizes_left.remove(action + 1)
            return
        self.bids[player] = action + 1
        self.hands[player].remove(action + 1)
        if None not in self.bids:
            b0, b1 = self.bids
            if b0 != b1:
                self.won[0 if b0 > b1 else 1] += self.prize
            self.bids = [None, None]
            self.prize = None
            self.round += 1

    def _action_to_string(self, action: int, player: int) -> str:
        return f"prize {action + 1}" if player == CHANCE else f"bid {action + 1}"

    def _string_to_action(self, text: str, player: int) -> int:
        word = "prize" if player == CHANCE else "bid"
        parts = text.split()
        if len(parts) != 2 or parts[0] != word or parts[1] not in ("1", "2", "3"):
            raise NotationError(f"expected '{word} N' with N in 1..3, got {text!r}")
        return int(parts[1]) - 1

    def _action_to_dict(self, action: int, player: int) -> dict:
        return {"type": "prize" if player == CHANCE else "bid", "value": action + 1}

    def _dict_to_action(self, move: dict, player: int) -> int:
        return self._string_to_action(f"{move.get('type')} {move.get('value')}", player)

    def _observation(self, player=None):
        return {
            "round": self.round,
            "prize": self.prize,
            "won": list(self.won),
            "hand": list(self.hands[player]) if player is not None else None,
            "has_bid": [b is not None for b in self.bids],
        }

    def observation_tensor(self, player):
        t = np.zeros(8, dtype=np.float32)
        t[0] = self.round
        t[1] = self.prize or 0
        t[2:4] = self.won
        for v in self.hands[player]:
            t[3 + v] = 1
        t[7] = self.bids[1 - player] is not None
        return t

    def scores(self):
        return [float(w) for w in self.won]

    def resample(self, player, rng):
        other = self.clone()
        o = 1 - player
        if other.bids[o] is not None:  # the other's sealed bid is unknown: redraw it
            hand = other.hands[o] + [other.bids[o]]
            bid = rng.choice(hand)
            hand.remove(bid)
            other.hands[o], other.bids[o] = sorted(hand), bid
        return other


SealedBids.state_class = SealedBidsState


class Pictures:
    """The tiny game's pictures: its observation as text, and the same text in an SVG."""

    @staticmethod
    def text(observation, names=None) -> str:
        return f"sealed bids: scores {observation['scores']}"

    @classmethod
    def svg(cls, observation, names=None) -> str:
        return svg.document(200, 40, [svg.text(10, 24, cls.text(observation))], cls="tiny")


def register_tiny() -> None:
    """Register the tiny game with its pictures."""
    registry.register(SealedBids, renderer=Pictures())
