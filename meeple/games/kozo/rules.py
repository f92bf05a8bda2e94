"""Kozo rules: the shared polycube tower, placements by straight drop, balance cubes, rounds.

The state keeps the height map of the ring (``top`` per column, and whether a balance cube lies
on it) and the list of placed polycubes and balance cubes for the stability referee
(:mod:`.physics`). Surfaces are kept in hundredths of a cube edge so a balance cube's 0.57 is
exact integer arithmetic.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from meeple.engine import CHANCE, TERMINAL, Game, NotationError, Option, State
from meeple.engine.grid import iter_bits, mask_of_indices
from meeple.engine.options import OptionSchema

from . import physics
from .components import (
    BALANCE_BASE,
    BALANCE_HUNDREDTHS,
    BASE,
    CHIMNEY,
    LETTERS,
    NUM_ACTIONS,
    NUM_PIECES,
    ORIENTATIONS,
    PIECE_BASE,
    PIECE_SETS,
    PIECES,
    PLACE_BASE,
    PLACEMENTS,
    PLACEMENTS_BY_PIECE,
    RING,
    RING_COLUMNS,
    RING_INDEX,
    SIZE_BASE,
    SIZES,
    place_id,
)

DRAW, CHOOSE, PLACE, TREMOR, BALANCE, OVER = range(6)
PHASE_NAMES = ("draw", "choose", "place", "tremor", "balance", "over")
MAX_Z = 24  # layers kept in the observation tensor
ALL_PIECES = (1 << NUM_PIECES) - 1
SIZE_VALUES = (2, 3, 4, 5)


class Kozo(Game):
    """Kozo (ACTOP): build one tower from 12 shared polycubes without toppling it."""

    name = "kozo"
    title = "Kozo"
    version = "2"
    """2: the static referee counts side pushes and friction (rules.md 2.6.1)."""
    player_counts = (2, 3, 4, 5, 6)
    perfect_information = True
    option_schema = OptionSchema((
        Option("random_size", bool, False,
               help="scoring tiles face down; a random tile sets the size to play"),
        Option("opponent_choice", bool, False, reconstructed=True,
               help="the next player chooses the size (with random_size: the piece)"),
        Option("tremor", float, 0.0, reconstructed=True, minimum=0.0, maximum=0.2,
               help="random horizontal placement offset (cube edges), judged by MuJoCo"),
        Option("stability", str, "static", choices=("static", "mujoco"), reconstructed=True,
               help="which referee decides falls"),
        Option("static_margin", float, 0.0, minimum=0.0, maximum=0.1,
               help="contact shrink of the static referee, cube edges"),
        Option("rounds", int, 3, minimum=1, maximum=9, help="number of rounds"),
        Option("tie_break_turn", str, "last_successful",
               choices=("last_successful", "last_taken"), reconstructed=True,
               help="which last turn breaks ties"),
        Option("piece_set", str, "derived_v1", choices=PIECE_SETS, reconstructed=True,
               help="the table of the 12 polycubes"),
        Option("sim_seconds", float, 3.0, minimum=0.5, maximum=10.0,
               help="simulated seconds per MuJoCo check"),
        Option("fall_distance", float, 0.25, minimum=0.05, maximum=1.0,
               help="MuJoCo: displacement that counts as a fall, cube edges"),
        Option("fall_tilt_deg", float, 10.0, minimum=1.0, maximum=45.0,
               help="MuJoCo: rotation that counts as a fall, degrees"),
    ))

    @classmethod
    def configurations(cls) -> list[tuple[int, dict[str, Any]]]:
        return [
            (2, {}), (3, {}), (4, {}), (5, {}), (6, {}),
            (2, {"random_size": True}),
            (3, {"opponent_choice": True}),
            (2, {"random_size": True, "opponent_choice": True}),
            (2, {"tremor": 0.1, "rounds": 1}),
            (2, {"stability": "mujoco", "rounds": 1}),
        ]

    def _setup(self) -> None:
        o = self.options
        self.use_mujoco = o["stability"] == "mujoco" or o["tremor"] > 0
        self.verdicts: dict[tuple, bool] = {}
        """Static verdicts by tower, kept because search bots judge the same towers often."""

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        return 9

    @property
    def max_game_length(self) -> int:
        return self.options["rounds"] * NUM_PIECES * 5

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (9 * MAX_Z + 9 * 2 + NUM_PIECES + 6 + 4 + NUM_PIECES + 3 * self.num_players + 2,)


def _parse_ints(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"-?\d+", text)]


_PLACE_RE = re.compile(r"^p\s*(\d+)\s*\.\s*(\d+)\s*@\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?$")
_ASK_RE = re.compile(r"^p\s*(\d+)\s*\??$")
_BAL_RE = re.compile(r"^b\s*@\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?$")
_SIZE_RE = re.compile(r"^size\s*(\d+)$")
_PIECE_RE = re.compile(r"^piece\s*p?\s*(\d+)$")
_TREMOR_RE = re.compile(r"^tremor\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?$")
_DRAW_RE = re.compile(r"^draw\s*(\d+)$")
FORMS = (
    "expected a placement 'Pp.o@dx,dy' (e.g. P7.23@1,0), a balance cube 'B@x,y' "
    "(e.g. B@2,1), 'size s' or 'piece Pp'; type a piece alone (e.g. P7) to see its orientations"
)


class KozoState(State):
    """A Kozo position: the round, whose turn and phase, the tower, the tiles and scores."""

    __slots__ = (
        "round", "first", "active", "phase", "placed", "top", "bal", "tower", "occ",
        "balances", "round_points", "totals", "round_log", "last_success", "last_taken",
        "game_turn", "required_size", "required_piece", "tremor", "last_check", "events",
        "_place_cache", "turns_in_round",
    )

    def __init__(self, game: Game):
        super().__init__(game)
        n = game.num_players
        self.round = 0
        self.first = 0
        self.active = 0
        self.phase = PLACE
        self.placed = 0
        self.top = [0] * 9
        self.bal = [0] * 9
        self.tower: list[tuple[int, int, int, int, int, tuple]] = []
        self.occ: dict[tuple[int, int, int], int] = {}
        self.balances: list[tuple[int, int, int]] = []
        self.round_points = [0] * n
        self.totals = [0] * n
        self.round_log: list[dict[str, Any]] = []
        self.last_success = [0] * n
        self.last_taken = [0] * n
        self.game_turn = 0
        self.turns_in_round = 0
        self.required_size = 0
        self.required_piece = -1
        self.tremor = (0.0, 0.0)
        self.last_check: dict[str, Any] | None = None
        self.events: list[str] = []
        self._place_cache: list[int] | None = None
        self._begin_turn()

    # ------------------------------------------------------------------ copies
    def clone(self) -> KozoState:
        s = self._blank_copy()
        s.round = self.round
        s.first = self.first
        s.active = self.active
        s.phase = self.phase
        s.placed = self.placed
        s.top = list(self.top)
        s.bal = list(self.bal)
        s.tower = list(self.tower)
        s.occ = dict(self.occ)
        s.balances = list(self.balances)
        s.round_points = list(self.round_points)
        s.totals = list(self.totals)
        s.round_log = list(self.round_log)
        s.last_success = list(self.last_success)
        s.last_taken = list(self.last_taken)
        s.game_turn = self.game_turn
        s.turns_in_round = self.turns_in_round
        s.required_size = self.required_size
        s.required_piece = self.required_piece
        s.tremor = self.tremor
        s.last_check = self.last_check
        s.events = list(self.events)
        s._place_cache = self._place_cache
        return s

    # ------------------------------------------------------------------ turn structure
    @property
    def current_player(self) -> int:
        ph = self.phase
        if ph == OVER:
            return TERMINAL
        if ph == DRAW or ph == TREMOR:
            return CHANCE
        if ph == CHOOSE:
            return self.chooser()
        return self.active

    def chooser(self) -> int:
        """The seat that names the size or piece in the ``opponent_choice`` variant."""
        return (self.active + 1) % self.game.num_players

    def surface(self, col: int) -> int:
        """``T(c)`` in hundredths of a cube edge."""
        return self.top[col] * 100 + (BALANCE_HUNDREDTHS if self.bal[col] else 0)

    def _rest_level(self, entry) -> int:
        """Resting level ``z0`` of a placement in hundredths (C4 holds iff it is a multiple of
        100)."""
        top = self.top
        bal = self.bal
        z0 = 0
        for c, lo, _ in entry[6]:
            v = top[c] * 100 + (BALANCE_HUNDREDTHS if bal[c] else 0) - lo * 100
            if v > z0:
                z0 = v
        return z0

    def _surfaces(self) -> list[int]:
        """``T(c)`` of every column in hundredths of a cube edge."""
        top = self.top
        bal = self.bal
        return [top[c] * 100 + (BALANCE_HUNDREDTHS if bal[c] else 0) for c in range(9)]

    def _legal_placements(self, pieces_mask: int) -> Iterator[int]:
        """Placement ids of the pieces in ``pieces_mask`` that come to rest on whole cubes."""
        surface = self._surfaces()
        for p in iter_bits(pieces_mask):
            for aid, cols in _DROP[p]:
                z0 = 0
                for c, low in cols:
                    v = surface[c] - low
                    if v > z0:
                        z0 = v
                if z0 % 100 == 0:
                    yield aid

    def _allowed_pieces(self) -> int:
        mask = ALL_PIECES & ~self.placed
        if self.required_piece >= 0:
            return mask & (1 << self.required_piece)
        if self.required_size:
            return mask & _SIZE_MASK[self.required_size]
        return mask

    def placements(self) -> list[int]:
        """Legal polycube placements for the active player now (sorted ids)."""
        if self._place_cache is None:
            self._place_cache = sorted(self._legal_placements(self._allowed_pieces()))
        return self._place_cache

    def _playable_sizes(self) -> list[int]:
        free = ALL_PIECES & ~self.placed
        out = []
        for s in SIZE_VALUES:
            m = free & _SIZE_MASK[s]
            if m and self._has_placement(m):
                out.append(s)
        return out

    def _has_placement(self, mask: int) -> bool:
        return next(self._legal_placements(mask), None) is not None

    def _playable_pieces(self) -> list[int]:
        m = ALL_PIECES & ~self.placed & _SIZE_MASK[self.required_size]
        return [p for p in iter_bits(m) if self._has_placement(1 << p)]

    def _begin_turn(self) -> None:
        """Start the active player's turn: draw, choice or placement; or end a blocked round."""
        self.required_size = 0
        self.required_piece = -1
        self.tremor = (0.0, 0.0)
        self._place_cache = None
        opts = self.game.options
        if opts["random_size"]:
            self.phase = DRAW
        elif opts["opponent_choice"]:
            if self._playable_sizes():
                self.phase = CHOOSE
            else:
                self._end_round("blocked")
        elif self._has_placement(ALL_PIECES & ~self.placed):
            self.phase = PLACE
        else:
            self._end_round("blocked")

    def _end_round(self, reason: str) -> None:
        n = self.game.num_players
        faller = self.active if reason == "fall" else None
        lost = 0
        if faller is not None:
            lost = self.round_points[faller]
            self.round_points[faller] = 0
        for p in range(n):
            self.totals[p] += self.round_points[p]
        self.round_log.append({
            "round": self.round + 1,
            "end": reason,
            "faller": faller,
            "lost": lost,
            "points": list(self.round_points),
            "turns": self.turns_in_round,
        })
        self.events.append(f"round end ({'complete' if reason == 'complete' else reason})")
        self.round += 1
        self.round_points = [0] * n
        self.placed = 0
        self.top = [0] * 9
        self.bal = [0] * 9
        self.tower = []
        self.occ = {}
        self.balances = []
        self.turns_in_round = 0
        self.required_size = 0
        self.required_piece = -1
        self.tremor = (0.0, 0.0)
        self._place_cache = None
        if self.round >= self.game.options["rounds"]:
            self.phase = OVER
            return
        self.first = self.active = self.round % n
        self._begin_turn()

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self, player: int) -> list[int]:
        ph = self.phase
        if ph == PLACE:
            return list(self.placements())
        if ph == BALANCE:
            return [
                BALANCE_BASE + i
                for i, c in enumerate(RING_COLUMNS)
                if self.top[c] >= 1 and not self.bal[c]
            ]
        if ph == CHOOSE:
            if self.game.options["random_size"]:
                return [PIECE_BASE + p for p in self._playable_pieces()]
            return [SIZE_BASE + s - 2 for s in self._playable_sizes()]
        if ph == DRAW or ph == TREMOR:
            return sorted(a for a, _ in self._chance_outcomes())
        return []

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == TREMOR:
            return [(k, 1 / 9) for k in range(9)]
        if self.phase == DRAW:
            free = ALL_PIECES & ~self.placed
            counts = [0] * 6
            for p in iter_bits(free):
                counts[SIZES[p]] += 1
            total = sum(counts)
            return [(s - 2, counts[s] / total) for s in SIZE_VALUES if counts[s]]
        return []

    def _illegal_reason(self, action: int, player: int) -> str | None:
        ph = self.phase
        if ph == PLACE:
            if not (PLACE_BASE <= action < BALANCE_BASE):
                return "place a polycube first: Pp.o@dx,dy"
            p, o = divmod(action // 9, 24)
            if (self.placed >> p) & 1:
                return f"P{p + 1} is already in the tower this round"
            if o >= len(ORIENTATIONS[p]):
                return f"P{p + 1} has orientations 0..{len(ORIENTATIONS[p]) - 1} only"
            if self.required_piece >= 0 and p != self.required_piece:
                return f"the piece to play is P{self.required_piece + 1}"
            if self.required_size and SIZES[p] != self.required_size:
                return f"the piece must have size {self.required_size}"
            entry = PLACEMENTS.get(action)
            if entry is None:
                return "a cube would be over the chimney or outside the base (C3)"
            return "it would rest on a balance cube (C4)"
        if ph == BALANCE:
            if not (BALANCE_BASE <= action < SIZE_BASE):
                return "place a balance cube now: B@x,y"
            c = RING_COLUMNS[action - BALANCE_BASE]
            if self.top[c] == 0:
                return "a balance cube goes on a polycube, not on the base"
            return "that column's top already carries a balance cube"
        if ph == CHOOSE:
            return "choose one of the listed sizes or pieces"
        return None

    # ------------------------------------------------------------------ applying
    def _apply(self, action: int, player: int) -> None:
        ph = self.phase
        if ph == PLACE:
            self._place(action)
            self._place_cache = None
            if self.game.options["tremor"] > 0:
                self.phase = TREMOR
            else:
                self._after_check(self._check("polycube"), first=True)
        elif ph == TREMOR:
            self.tremor = self._tremor_offset(action)
            self.events.append(f"tremor {action // 3 - 1},{action % 3 - 1}")
            self._after_check(self._check("polycube"), first=True)
        elif ph == BALANCE:
            x, y = RING[action - BALANCE_BASE]
            c = RING_COLUMNS[action - BALANCE_BASE]
            self.balances.append((x, y, self.top[c]))
            self.bal[c] = 1
            self._after_check(self._check("balance"), first=False)
        elif ph == DRAW:
            self.required_size = action + 2
            self.events.append(f"draw {action + 2}")
            if self.game.options["opponent_choice"]:
                if self._playable_pieces():
                    self.phase = CHOOSE
                else:
                    self._end_round("blocked")
            elif self._has_placement(self._allowed_pieces()):
                self.phase = PLACE
            else:
                self._end_round("blocked")
            self._place_cache = None
        elif ph == CHOOSE:
            if action >= PIECE_BASE:
                self.required_piece = action - PIECE_BASE
            else:
                self.required_size = action - SIZE_BASE + 2
            self._place_cache = None
            self.phase = PLACE

    def _place(self, action: int) -> None:
        entry = PLACEMENTS[action]
        z0 = self._rest_level(entry) // 100
        p = entry[1]
        cells = tuple((x, y, z + z0) for x, y, z in entry[5])
        idx = len(self.tower)
        for cell in cells:
            self.occ[cell] = idx
        for c, _, hi in entry[6]:
            self.top[c] = z0 + hi + 1
            self.bal[c] = 0
        self.tower.append((p, entry[2], entry[3], entry[4], z0, cells))
        self.placed |= 1 << p
        self.game_turn += 1
        self.turns_in_round += 1
        self.last_taken[self.active] = self.game_turn

    def _tremor_offset(self, outcome: int) -> tuple[float, float]:
        """Effective offset of the piece just placed for a tremor outcome (rules.md 4.5)."""
        t = self.game.options["tremor"]
        i, j = outcome // 3 - 1, outcome % 3 - 1
        idx = len(self.tower) - 1
        cells = self.tower[-1][5]
        occ = self.occ

        def blocked(di: int, dj: int) -> bool:
            for x, y, z in cells:
                k = occ.get((x + di, y + dj, z))
                if k is not None and k != idx:
                    return True
            return False

        ox = 0.0 if i == 0 or blocked(i, 0) else i * t
        oy = j * t
        if j != 0 and (blocked(0, j) or (ox != 0.0 and blocked(i, j))):
            oy = 0.0
        return (ox, oy)

    def physics_tower(self) -> tuple[list, list]:
        """The tower as the referees take it: ``(pieces, balances)`` (see :mod:`.physics`)."""
        pieces = [(entry[5], 0.0, 0.0) for entry in self.tower]
        if pieces and self.tremor != (0.0, 0.0) and self.phase in (TREMOR, BALANCE):
            pieces[-1] = (pieces[-1][0], self.tremor[0], self.tremor[1])
        return pieces, list(self.balances)

    def _check(self, after: str) -> bool:
        """Run the deciding referee on the whole tower; remember what was checked."""
        opts = self.game.options
        pieces, balances = self.physics_tower()
        moved: list[int] | None = None
        if self.game.use_mujoco:
            stands, moved, _, _ = physics.mujoco_verdict(
                pieces, balances, opts["sim_seconds"], opts["fall_distance"],
                opts["fall_tilt_deg"],
            )
            referee = "mujoco"
        else:
            key = (tuple(p[0] for p in pieces), tuple(balances))
            verdicts = self.game.verdicts
            stands = verdicts.get(key)
            if stands is None:
                if len(verdicts) >= 20_000:
                    verdicts.clear()
                stands = verdicts[key] = physics.static_stands(
                    pieces, balances, opts["static_margin"])
            referee = "static"
        self.last_check = {
            "after": after,
            "player": self.active,
            "result": "stable" if stands else "fallen",
            "referee": referee,
            "tower": (tuple(self.tower), tuple(balances), self.tremor),
            "moved": moved,
        }
        self.events.append("stable" if stands else "fallen")
        return stands

    def _after_check(self, stands: bool, first: bool) -> None:
        if not stands:
            self._end_round("fall")
            return
        if first:
            self.phase = BALANCE
            return
        # a successful turn: take the tile
        p = self.tower[-1][0]
        size = self.required_size if self.required_size else SIZES[p]
        self.round_points[self.active] += size
        self.last_success[self.active] = self.game_turn
        self.events.append(f"take tile {size}")
        if self.placed == ALL_PIECES:
            self._end_round("complete")
            return
        self.active = (self.active + 1) % self.game.num_players
        self._begin_turn()

    # ------------------------------------------------------------------ notation
    def _action_to_string(self, action: int, player: int) -> str:
        if player == CHANCE:
            if self.phase == DRAW:
                return f"draw {action + 2}"
            return f"tremor {action // 3 - 1},{action % 3 - 1}"
        if 0 <= action < BALANCE_BASE:
            rest, d = divmod(action, 9)
            p, o = divmod(rest, 24)
            dy, dx = BASE.cell(d)
            return f"P{p + 1}.{o}@{dx},{dy}"
        if action < SIZE_BASE:
            x, y = RING[action - BALANCE_BASE]
            return f"B@{x},{y}"
        if action < PIECE_BASE:
            return f"size {action - SIZE_BASE + 2}"
        if action < NUM_ACTIONS:
            return f"piece P{action - PIECE_BASE + 1}"
        raise ValueError(f"no Kozo action has id {action}")

    def _string_to_action(self, text: str, player: int) -> int:
        t = " ".join(text.lower().split())
        if player == CHANCE:
            m = _TREMOR_RE.match(t)
            if m:
                i, j = int(m.group(1)), int(m.group(2))
                if i in (-1, 0, 1) and j in (-1, 0, 1):
                    return 3 * (i + 1) + (j + 1)
                raise NotationError("tremor outcomes are 'tremor i,j' with i, j in -1, 0, 1")
            m = _DRAW_RE.match(t)
            if m and 2 <= int(m.group(1)) <= 5:
                return int(m.group(1)) - 2
            raise NotationError(
                f"{text!r}: expected a chance outcome 'tremor i,j' or 'draw s' (s in 2..5)"
            )
        m = _ASK_RE.match(t)
        if m:
            raise NotationError(self.orientations_text(int(m.group(1))))
        m = _PLACE_RE.match(t)
        if m:
            p, o, dx, dy = (int(g) for g in m.groups())
            if not 1 <= p <= NUM_PIECES:
                raise NotationError(f"{text!r}: pieces are P1..P{NUM_PIECES}")
            if o >= len(ORIENTATIONS[p - 1]):
                raise NotationError(
                    f"{text!r}: P{p} has orientations 0..{len(ORIENTATIONS[p - 1]) - 1}"
                )
            if dx > 2 or dy > 2:
                raise NotationError(f"{text!r}: offsets dx, dy are 0, 1 or 2")
            return place_id(p, o, dx, dy)
        m = _BAL_RE.match(t)
        if m:
            col = (int(m.group(1)), int(m.group(2)))
            if col not in RING_INDEX:
                raise NotationError(
                    f"{text!r}: a balance cube goes on a ring column x,y in 0..2, not the "
                    "chimney 1,1"
                )
            return BALANCE_BASE + RING_INDEX[col]
        m = _SIZE_RE.match(t)
        if m:
            s = int(m.group(1))
            if s not in SIZE_VALUES:
                raise NotationError(f"{text!r}: sizes are 2, 3, 4 and 5")
            return SIZE_BASE + s - 2
        m = _PIECE_RE.match(t)
        if m:
            p = int(m.group(1))
            if not 1 <= p <= NUM_PIECES:
                raise NotationError(f"{text!r}: pieces are P1..P{NUM_PIECES}")
            return PIECE_BASE + p - 1
        raise NotationError(f"{text!r}: {FORMS}")

    def _action_to_dict(self, action: int, player: int) -> dict[str, Any]:
        """The dict form of an action (rules 2.7), e.g. ``{"type": "balance", "column": [2, 1]}``;
        chance outcomes are ``{"type": "draw", "size": s}`` and ``{"type": "tremor", "step":
        [i, j]}``."""
        if player == CHANCE:
            if self.phase == DRAW:
                return {"type": "draw", "size": action + 2}
            return {"type": "tremor", "step": [action // 3 - 1, action % 3 - 1]}
        if 0 <= action < BALANCE_BASE:
            rest, d = divmod(action, 9)
            p, o = divmod(rest, 24)
            dy, dx = BASE.cell(d)
            return {"type": "place", "piece": p + 1, "orient": o, "offset": [dx, dy]}
        if action < SIZE_BASE:
            x, y = RING[action - BALANCE_BASE]
            return {"type": "balance", "column": [x, y]}
        if action < PIECE_BASE:
            return {"type": "size", "size": action - SIZE_BASE + 2}
        if action < NUM_ACTIONS:
            return {"type": "piece", "piece": action - PIECE_BASE + 1}
        raise ValueError(f"no Kozo action has id {action}")

    def _dict_to_action(self, move: dict[str, Any], player: int) -> int:
        """Read the dict form (rules 2.7) by checking its keys and reading the equivalent text
        form; :class:`NotationError` names the expected form."""
        chance = player == CHANCE
        kinds = _CHANCE_DICT_FORMS if chance else _DICT_FORMS
        if chance and self.phase == DRAW:
            kinds = {"draw": kinds["draw"]}
        elif chance and self.phase == TREMOR:
            kinds = {"tremor": kinds["tremor"]}
        kind = move.get("type")
        if not isinstance(kind, str) or kind not in kinds:
            if kind in _DICT_FORMS or kind in _CHANCE_DICT_FORMS:
                why = f"a {kind!r} action does not fit here"
            else:
                why = f"unknown action type {kind!r}" if "type" in move else 'no "type"'
            what = "a chance outcome" if chance else "a player's action"
            raise NotationError(
                f"{move!r}: {why}; {what} in dict form is " + " or ".join(kinds.values())
            )
        form = kinds[kind]
        if kind == "place":
            p, o = _dict_int(move, "piece", form, 1), _dict_int(move, "orient", form)
            dx, dy = _dict_pair(move, "offset", form)
            text = f"P{p}.{o}@{dx},{dy}"
        elif kind == "balance":
            x, y = _dict_pair(move, "column", form)
            text = f"B@{x},{y}"
        elif kind == "piece":
            text = f"piece P{_dict_int(move, 'piece', form, 1)}"
        elif kind == "tremor":
            i, j = _dict_pair(move, "step", form, -1, 1)
            text = f"tremor {i},{j}"
        else:  # size, draw
            text = f"{kind} {_dict_int(move, 'size', form, 2)}"
        try:
            return self._string_to_action(text, player)
        except NotationError as e:
            raise NotationError(f"{move!r} names no action ({e}): expected {form}") from None

    def orientations_text(self, piece: int) -> str:
        """The orientations of a piece (typed as ``P7`` or ``P7?``): cubes as ``xyz`` digits,
        and how many placements of each are legal now."""
        if not 1 <= piece <= NUM_PIECES:
            return f"pieces are P1..P{NUM_PIECES}"
        p = piece - 1
        legal = set(self.placements()) if self.phase == PLACE else set()
        lines = [f"P{piece} {PIECES[p][0]} ({SIZES[p]} cubes), orientations "
                 f"(cubes as xyz, x east, y north, z up); type P{piece}.o@dx,dy to place:"]
        for o, cubes in enumerate(ORIENTATIONS[p]):
            ids = [place_id(piece, o, dx, dy) for dy in range(3) for dx in range(3)]
            at = [f"{dx},{dy}" for dy, dx in (BASE.cell(i % 9) for i in ids if i in legal)]
            where = f"legal at {' '.join(at)}" if at else "no legal offset now"
            lines.append(f"  {o:>2}: {' '.join(f'{x}{y}{z}' for x, y, z in cubes):<20} {where}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ descriptions
    def resting_cubes(self, action: int) -> tuple[int, list[tuple[int, int, int]]]:
        """Where a placement would come to rest: ``(z0, cubes)`` (z0 in cube edges)."""
        entry = PLACEMENTS[action]
        z0 = self._rest_level(entry) / 100
        return z0, [(x, y, z + z0) for x, y, z in entry[5]]

    def _describe_action(self, action: int, player: int) -> dict[str, Any]:
        if player == CHANCE:
            return {"kind": "chance", "label": self._action_to_string(action, player)}
        if action < BALANCE_BASE:
            p, o = divmod(action // 9, 24)
            dy, dx = BASE.cell(action % 9)
            entry = PLACEMENTS.get(action)
            if entry is None:
                return {"kind": "place", "label": "not a placement inside the ring",
                        "piece": p + 1, "rotation": o, "offset": [dx, dy]}
            z0, cubes = self.resting_cubes(action)
            cols = sorted({(x, y) for x, y, _ in cubes})
            ax, ay = cubes[0][0], cubes[0][1]
            zt = int(z0) if z0 == int(z0) else z0
            return {
                "kind": "place",
                "label": f"Place P{p + 1} ({PIECES[p][0]}) turned {o} at {dx},{dy}: "
                         f"it rests at height {zt}",
                "target": f"col-{ax}-{ay}",
                "cells": [f"col-{x}-{y}" for x, y in cols],
                "piece": p + 1,
                "letter": LETTERS[p],
                "colour": p,
                "rotation": o,
                "offset": [dx, dy],
                "z0": zt,
                "cubes": [[x, y, int(z) if z == int(z) else z] for x, y, z in cubes],
            }
        if action < SIZE_BASE:
            x, y = RING[action - BALANCE_BASE]
            h = self.top[RING_COLUMNS[action - BALANCE_BASE]]
            return {
                "kind": "balance",
                "label": f"Put a balance cube on column {x},{y} (height {h})",
                "target": f"col-{x}-{y}",
                "cells": [f"col-{x}-{y}"],
                "column": [x, y],
                "height": h,
            }
        if action < PIECE_BASE:
            s = action - SIZE_BASE + 2
            return {"kind": "size", "label": f"Make them play a piece of size {s}", "size": s}
        p = action - PIECE_BASE
        return {"kind": "piece", "label": f"Make them play P{p + 1} ({PIECES[p][0]})",
                "piece": p + 1}

    # ------------------------------------------------------------------ views
    def scene(self, tower, balances, tremor) -> dict[str, Any]:
        """A tower as JSON (pieces with cells, balance cubes) for the 3D view and motion."""
        pieces = []
        last = len(tower) - 1
        for i, (p, o, dx, dy, z0, cells) in enumerate(tower):
            pieces.append({
                "piece": p + 1,
                "letter": LETTERS[p],
                "colour": p,
                "name": PIECES[p][0],
                "orient": o,
                "offset": [dx, dy],
                "z0": z0,
                "cells": [list(c) for c in cells],
                "tremor": list(tremor) if i == last and tremor != (0.0, 0.0) else [0.0, 0.0],
            })
        return {
            "pieces": pieces,
            "balances": [{"column": [x, y], "height": h} for x, y, h in balances],
        }

    def _last_check_json(self) -> dict[str, Any] | None:
        lc = self.last_check
        if lc is None:
            return None
        tower, balances, tremor = lc["tower"]
        scene = self.scene(tower, balances, tremor)
        names = [f"P{p['piece']}" for p in scene["pieces"]] + [
            f"B@{b['column'][0]},{b['column'][1]}" for b in scene["balances"]
        ]
        fell: list[str] = []
        if lc["result"] == "fallen":
            moved = lc["moved"]
            if moved is None:  # computed once, then kept with the check
                pieces = [(c, 0.0, 0.0) for *_, c in tower]
                if pieces and tremor != (0.0, 0.0):
                    pieces[-1] = (pieces[-1][0], tremor[0], tremor[1])
                moved = lc["moved"] = physics.static_unbalanced(
                    pieces, list(balances), self.game.options["static_margin"])
            fell = [names[i] for i in moved]
        return {
            "after": lc["after"],
            "player": lc["player"],
            "result": lc["result"],
            "referee": lc["referee"],
            "fell": fell,
            "scene": scene,
            "motion_available": True,
        }

    def _observation(self, player: int | None) -> dict[str, Any]:
        opts = self.game.options
        n = self.game.num_players
        ph = self.phase
        phase = PHASE_NAMES[ph]
        if ph == CHOOSE:
            phase = "choose_piece" if opts["random_size"] else "choose_size"
        free = ALL_PIECES & ~self.placed
        columns = []
        for (x, y), c in zip(RING, RING_COLUMNS, strict=True):
            columns.append({"column": [x, y], "top": self.top[c], "balance": bool(self.bal[c])})
        obs: dict[str, Any] = {
            "round": min(self.round + 1, opts["rounds"]),
            "rounds": opts["rounds"],
            "phase": phase,
            "active": self.active if ph != OVER else None,
            "chooser": self.chooser() if ph == CHOOSE else None,
            "first_player": self.first,
            "required_size": self.required_size or None,
            "required_piece": self.required_piece + 1 if self.required_piece >= 0 else None,
            "pieces_left": [
                {"piece": p + 1, "letter": LETTERS[p], "name": PIECES[p][0], "size": SIZES[p],
                 "colour": p, "orientations": len(ORIENTATIONS[p])}
                for p in iter_bits(free)
            ],
            "tiles_face_down": (
                sorted(SIZES[p] for p in iter_bits(free))
                if opts["random_size"] else None
            ),
            "base": {"ring": [list(c) for c in RING], "chimney": list(CHIMNEY),
                     "balance_edge": 0.57},
            "tower": self.scene(self.tower, self.balances,
                                self.tremor if ph in (TREMOR, BALANCE) else (0.0, 0.0)),
            "columns": columns,
            "round_points": list(self.round_points),
            "totals": list(self.totals),
            "round_log": [dict(r) for r in self.round_log],
            "last_check": self._last_check_json(),
            "events": self.events[-12:],
            "options": {"stability": opts["stability"], "tremor": opts["tremor"],
                        "random_size": opts["random_size"],
                        "opponent_choice": opts["opponent_choice"]},
            "turn": self.game_turn,
        }
        if ph == OVER:
            key = "last_success" if opts["tie_break_turn"] == "last_successful" else "last_taken"
            last = getattr(self, key)
            obs["final_breakdown"] = [
                {
                    "player": p,
                    "rounds": [r["points"][p] for r in self.round_log],
                    "total": self.totals[p],
                    "last_successful_turn": self.last_success[p] or None,
                    "tie_break_turn": last[p] or None,
                }
                for p in range(n)
            ]
        return obs

    def observation_tensor(self, player: int) -> np.ndarray:
        n = self.game.num_players
        t = np.zeros(self.game.observation_shape, dtype=np.float32)
        for (x, y, z) in self.occ:
            if z < MAX_Z:
                t[z * BASE.size + BASE.index(y, x)] = 1.0
        k = 9 * MAX_Z
        for c in range(9):
            t[k + c] = self.top[c] / 10.0
            t[k + 9 + c] = self.bal[c]
        k += 18
        for p in range(NUM_PIECES):
            t[k + p] = (self.placed >> p) & 1
        k += NUM_PIECES
        t[k + self.phase] = 1.0
        k += 6
        if self.required_size:
            t[k + self.required_size - 2] = 1.0
        k += 4
        if self.required_piece >= 0:
            t[k + self.required_piece] = 1.0
        k += NUM_PIECES
        for i in range(n):
            p = (player + i) % n  # seats relative to the viewer
            t[k + i] = self.round_points[p] / 45.0
            t[k + n + i] = self.totals[p] / 45.0
            t[k + 2 * n + i] = 1.0 if p == self.active else 0.0
        k += 3 * n
        t[k] = self.round / max(1, self.game.options["rounds"])
        t[k + 1] = len(self.balances) / 12.0
        return t

    # ------------------------------------------------------------------ results
    def scores(self) -> list[float]:
        if self.phase == OVER:
            return [float(v) for v in self.totals]
        return [float(a + b) for a, b in zip(self.totals, self.round_points, strict=True)]

    def ranking_key(self, player: int) -> tuple:
        if self.game.options["tie_break_turn"] == "last_taken":
            return (self.scores()[player], self.last_taken[player])
        return (self.scores()[player], self.last_success[player])


_DICT_FORMS = {
    "place": '{"type": "place", "piece": p, "orient": o, "offset": [dx, dy]}',
    "balance": '{"type": "balance", "column": [x, y]}',
    "size": '{"type": "size", "size": s}',
    "piece": '{"type": "piece", "piece": p}',
}
_CHANCE_DICT_FORMS = {
    "tremor": '{"type": "tremor", "step": [i, j]} (i, j in -1, 0, 1)',
    "draw": '{"type": "draw", "size": s}',
}


def _dict_int(move: dict[str, Any], key: str, form: str, low: int = 0) -> int:
    """``move[key]``, an int of at least ``low``, else :class:`NotationError` naming ``form``."""
    v = move.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        have = "is missing" if key not in move else f"must be an int >= {low}, not {v!r}"
        raise NotationError(f"{move!r}: {key!r} {have}: expected {form}")
    return v


def _dict_pair(move: dict[str, Any], key: str, form: str, low: int = 0, high: int = 2
               ) -> tuple[int, int]:
    """``move[key]``, a pair of ints in ``low..high``, else :class:`NotationError`."""
    v = move.get(key)
    if not (isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(c, int) and not isinstance(c, bool) and low <= c <= high
                    for c in v)):
        have = ("is missing" if key not in move
                else f"must be a pair of ints in {low}..{high}, not {v!r}")
        raise NotationError(f"{move!r}: {key!r} {have}: expected {form}")
    return v[0], v[1]


_DROP = tuple(
    tuple((entry[0], tuple((c, lo * 100) for c, lo, _ in entry[6])) for entry in by_piece)
    for by_piece in PLACEMENTS_BY_PIECE
)
"""Per piece: ``(action id, ((column, lowest z in hundredths), ...))`` for the drop (4.4)."""
_SIZE_MASK = {s: mask_of_indices(p for p in range(NUM_PIECES) if SIZES[p] == s)
              for s in SIZE_VALUES}

Kozo.state_class = KozoState
