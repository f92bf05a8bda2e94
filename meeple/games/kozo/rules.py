"""Kozo rules: the shared polycube tower, placements by straight drop, balance cubes, rounds.

The state keeps the height map of the ring (``top`` per column, and whether a balance cube lies
on it) and the list of placed polycubes and balance cubes for the stability referee
(:mod:`.physics`). Surfaces are kept in hundredths of a cube edge so a balance cube's 0.57 is
exact integer arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # mypy reads the shadow's typed names
    from meeple.engine import _cython_shadow as cython
else:
    try:
        import cython
    except ImportError:  # the pure-Python build without Cython installed
        from meeple.engine import _cython_shadow as cython

from meeple.engine import CHANCE, TERMINAL, Game, Option, State
from meeple.engine.grid import iter_bits, mask_of_indices
from meeple.engine.i18n import N_, words
from meeple.engine.options import OptionSchema, Preset

from . import notation, physics, views
from .components import (
    ALL_PIECES,
    BALANCE,
    BALANCE_BASE,
    BALANCE_HUNDREDTHS,
    CHOOSE,
    DRAW,
    MAX_Z,
    NUM_ACTIONS,
    NUM_PIECES,
    ORIENTATIONS,
    OVER,
    PIECE_BASE,
    PIECE_SETS,
    PLACE,
    PLACE_BASE,
    PLACEMENTS,
    PLACEMENTS_BY_PIECE,
    RING,
    RING_COLUMNS,
    SEAT_COLOURS,
    SIZE_BASE,
    SIZE_VALUES,
    SIZES,
    TREMOR,
    TowerEntry,
)

_, _n = words(__file__)


class Kozo(Game):
    """Kozo (ACTOP): build one tower from 12 shared polycubes without toppling it."""

    name = "kozo"
    title = "Kozo"
    version = "3"
    """2: the static referee counts side pushes and friction (rules.md 2.6.1); 3: its contact
    margin is 0.01 cube edges again, as in the spec."""
    player_counts = (2, 3, 4, 5, 6)
    colours = SEAT_COLOURS
    perfect_information = True
    pitch = N_("Add wooden blocks to one shared tower and score them, unless it topples")
    minutes = (15, 30)
    option_schema = OptionSchema((
        Option("random_size", bool, False,
               help=N_("the scoring tiles lie face down; a tile drawn at random says which size "
                       "to play"),
               label=N_("Random sizes")),
        Option("opponent_choice", bool, False, reconstructed=True,
               help=N_("the next player chooses the size you play (with random sizes: the "
                       "block itself)"),
               label=N_("Your neighbour chooses")),
        Option("tremor", float, 0.0, reconstructed=True, minimum=0.0, maximum=0.2,
               help=N_("each block lands a little off where it was aimed, by up to this many "
                       "cube edges; 0 for a steady hand"),
               label=N_("Shaky hands"), labels=((0.0, N_("none")),), advanced=True),
        Option("stability", str, "static", choices=("static", "mujoco"), reconstructed=True,
               help=N_("how the program decides whether the tower falls"),
               label=N_("Who decides a fall"),
               labels=(("static", N_("balance worked out exactly (fast)")),
                       ("mujoco", N_("a physics simulation (slower)"))),
               advanced=True),
        Option("static_margin", float, physics.STATIC_MARGIN, minimum=0.0, maximum=0.1,
               help=N_("how much of each contact face the exact balance leaves out, in cube "
                       "edges"),
               label=N_("Contact margin"), advanced=True),
        Option("rounds", int, 3, minimum=1, maximum=9, help=N_("how many rounds are played"),
               label=N_("Rounds")),
        Option("tie_break_turn", str, "last_successful",
               choices=("last_successful", "last_taken"), reconstructed=True,
               help=N_("between tied players, the one whose last turn came later ranks higher"),
               label=N_("Ties go to"),
               labels=(("last_successful", N_("the later turn without a fall")),
                       ("last_taken", N_("the later turn, even with a fall"))),
               advanced=True),
        Option("piece_set", str, "derived_v1", choices=PIECE_SETS, reconstructed=True,
               help=N_("the shapes of the 12 wooden blocks: every shape of 2 to 4 cubes and "
                       "one of 5"),
               label=N_("Blocks"),
               labels=(("derived_v1", N_("meeple's own (the printed blocks are not known)")),),
               advanced=True),
        Option("sim_seconds", float, 3.0, minimum=0.5, maximum=10.0,
               help=N_("physics simulation: how long the tower is watched after each turn, in "
                       "seconds"),
               label=N_("Simulation time"), advanced=True),
        Option("fall_distance", float, 0.25, minimum=0.05, maximum=1.0,
               help=N_("physics simulation: a block that moves this far, in cube edges, has "
                       "fallen"),
               label=N_("Fall distance"), advanced=True),
        Option("fall_tilt_deg", float, 10.0, minimum=1.0, maximum=45.0,
               help=N_("physics simulation: a block that tilts this far, in degrees, has fallen"),
               label=N_("Fall tilt"), advanced=True),
    ))

    @classmethod
    def presets(cls) -> tuple[Preset, ...]:
        return (
            Preset(N_("Standard"), N_("Three rounds; you choose which block to add.")),
            Preset(N_("Short game"), N_("One round only."), {"rounds": 1}),
            Preset(N_("Random sizes"),
                   N_("Three rounds; a scoring tile drawn at random says which size of block "
                      "you add."), {"random_size": True}),
            Preset(N_("Your neighbour chooses"),
                   N_("Three rounds; the next player chooses the size of the block you add."),
                   {"opponent_choice": True}),
        )

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
        self.mujoco_verdicts: dict[tuple, tuple[bool, tuple[int, ...]]] = {}
        """MuJoCo verdicts (whether it stands, the bodies that moved) by tower with its tremor
        offsets: a move's sentence and the move itself judge the same tower."""

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

    def planes(self) -> list[dict[str, Any]]:
        return views.planes(self)


class KozoState(State):
    """A Kozo position: the round, whose turn and phase, the tower, the tiles and scores."""

    __slots__ = (
        "round", "first", "active", "phase", "placed", "top", "bal", "tower", "occ",
        "balances", "round_points", "totals", "round_log", "last_success", "last_taken",
        "game_turn", "required_size", "required_piece", "tremor", "last_check", "events",
        "_place_cache", "turns_in_round",
    )

    game: Kozo

    def __init__(self, game: Kozo):
        super().__init__(game)
        n = game.num_players
        self.round = 0
        self.first = 0
        self.active = 0
        self.phase = PLACE
        self.placed = 0
        self.top = [0] * 9
        self.bal = [0] * 9
        self.tower: list[TowerEntry] = []
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

    @cython.locals(surface=list, z0=cython.Py_ssize_t, v=cython.Py_ssize_t,
                   c=cython.Py_ssize_t, low=cython.Py_ssize_t)
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
                return _("place a polycube first: Pp.o@dx,dy")
            p, o = divmod(action // 9, 24)
            code = f"P{p + 1}"
            if (self.placed >> p) & 1:
                return _("{piece} is already in the tower this round", piece=code)
            if o >= len(ORIENTATIONS[p]):
                return _("{piece} has orientations 0..{last} only", piece=code,
                         last=str(len(ORIENTATIONS[p]) - 1))
            if self.required_piece >= 0 and p != self.required_piece:
                wanted = f"P{self.required_piece + 1}"
                return _("the piece to play is {piece}", piece=wanted)
            if self.required_size and SIZES[p] != self.required_size:
                return _("the piece must have size {size}", size=self.required_size)
            entry = PLACEMENTS.get(action)
            if entry is None:
                return _("a cube would be over the chimney or outside the base (C3)")
            return _("it would rest on a balance cube (C4)")
        if ph == BALANCE:
            if not (BALANCE_BASE <= action < SIZE_BASE):
                return _("place a balance cube now: B@x,y")
            c = RING_COLUMNS[action - BALANCE_BASE]
            if self.top[c] == 0:
                return _("a balance cube goes on a polycube, not on the base")
            return _("that column's top already carries a balance cube")
        if ph == CHOOSE:
            return _("choose one of the listed sizes or pieces")
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
            mkey = (tuple(pieces), tuple(balances))
            cache = self.game.mujoco_verdicts
            seen = cache.get(mkey)
            if seen is None:
                if len(cache) >= 2_000:
                    cache.clear()
                stands, found, _, _ = physics.mujoco_verdict(
                    pieces, balances, opts["sim_seconds"], opts["fall_distance"],
                    opts["fall_tilt_deg"],
                )
                seen = cache[mkey] = (stands, tuple(found))
            stands, moved = seen[0], list(seen[1])
            referee = "mujoco"
        else:
            key = (tuple(p[0] for p in pieces), tuple(balances))
            verdicts = self.game.verdicts
            known = verdicts.get(key)
            if known is None:
                if len(verdicts) >= 20_000:
                    verdicts.clear()
                known = verdicts[key] = physics.static_stands(
                    pieces, balances, opts["static_margin"])
            stands = known
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
        return notation.action_to_string(self, action, player)

    def _string_to_action(self, text: str, player: int) -> int:
        return notation.string_to_action(self, text, player)

    def _action_to_dict(self, action: int, player: int) -> dict[str, Any]:
        return notation.action_to_dict(self, action, player)

    def _dict_to_action(self, move: dict[str, Any], player: int) -> int:
        return notation.dict_to_action(self, move, player)

    def orientations_text(self, piece: int) -> str:
        """The orientations of a piece and where each is legal now (typed as ``P7``)."""
        return notation.orientations_text(self, piece)

    # ------------------------------------------------------------------ descriptions
    def resting_cubes(self, action: int) -> tuple[float, list[tuple[int, int, float]]]:
        """Where a placement would come to rest: ``(z0, cubes)`` (z0 in cube edges)."""
        entry = PLACEMENTS[action]
        z0 = self._rest_level(entry) / 100
        return z0, [(x, y, z + z0) for x, y, z in entry[5]]

    def _describe_action(self, action: int, player: int) -> dict[str, Any]:
        return notation.describe_action(self, action, player)

    def describe(self, player: int, action: int) -> str:
        return views.describe(self, player, action)

    # ------------------------------------------------------------------ views
    def _observation(self, player: int | None) -> dict[str, Any]:
        return views.observation(self, player)

    def observation_tensor(self, player: int) -> np.ndarray:
        return views.observation_tensor(self, player)

    # ------------------------------------------------------------------ results
    def scores(self) -> list[float]:
        if self.phase == OVER:
            return [float(v) for v in self.totals]
        return [float(a + b) for a, b in zip(self.totals, self.round_points, strict=True)]

    def ranking_key(self, player: int) -> tuple:
        if self.game.options["tie_break_turn"] == "last_taken":
            return (self.scores()[player], self.last_taken[player])
        return (self.scores()[player], self.last_success[player])


_DROP = tuple(
    tuple((entry[0], tuple((c, lo * 100) for c, lo, _ in entry[6])) for entry in by_piece)
    for by_piece in PLACEMENTS_BY_PIECE
)
"""Per piece: ``(action id, ((column, lowest z in hundredths), ...))`` for the drop (4.4)."""
_SIZE_MASK = {s: mask_of_indices(p for p in range(NUM_PIECES) if SIZES[p] == s)
              for s in SIZE_VALUES}

Kozo.state_class = KozoState
