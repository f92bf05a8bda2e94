"""The final breakdown of a game: one :class:`ScoreLine` per player, drawn as one table by each
client (the browser's results table, the terminal and the state's text), never by a game's
pictures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .i18n import number, words
from .look import seat_name

_, _n = words(__file__)

Number = int | float


@dataclass(frozen=True)
class ScoreLine:
    """One player's final score: labelled parts (in player words) and one total.

    ``note`` says what decides a tie on points, where the game has a tie-break. ``items`` say
    where the points of the parts came from, one scoring each, as the rules score them ("Round
    3: small corner", 3), where a part adds up many. The game says the labels, the items and
    the note in the language in use when it builds the line."""

    player: int
    parts: tuple[tuple[str, Number], ...]
    total: Number
    note: str = ""
    items: tuple[tuple[str, Number], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The observation's form: ``{"player", "parts": [{"label", "value"}], "total"}``, with
        ``"note"`` and ``"items"`` (``[{"label", "value"}]``) where there are any."""
        out: dict[str, Any] = {
            "player": self.player,
            "parts": [{"label": label, "value": value} for label, value in self.parts],
            "total": self.total,
        }
        if self.note:
            out["note"] = self.note
        if self.items:
            out["items"] = [{"label": label, "value": value} for label, value in self.items]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoreLine:
        return cls(
            int(data["player"]),
            tuple((str(p["label"]), p["value"]) for p in data["parts"]),
            data["total"],
            str(data.get("note", "")),
            tuple((str(p["label"]), p["value"]) for p in data.get("items") or ()),
        )


def score_lines(observation: dict[str, Any]) -> list[ScoreLine]:
    """The observation's final breakdown (empty before the end)."""
    return [ScoreLine.from_json(d) for d in observation.get("final_breakdown") or []]


def columns(lines: Sequence[ScoreLine]) -> list[str]:
    """The part labels of a breakdown, in their first order of appearance."""
    seen: dict[str, None] = {}
    for line in lines:
        for label, _value in line.parts:
            seen.setdefault(label, None)
    return list(seen)


def fmt(value: Number) -> str:
    """A score as people write it: whole numbers without a decimal point, a fraction with at
    most two decimals, written as the language in use writes it ("2,5" in German)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return number(round(value, 2))
    return str(value)


def ordered(lines: Sequence[ScoreLine], ranks: Sequence[int] | None) -> list[ScoreLine]:
    """The lines best rank first (as given where there are no ranks)."""
    if ranks is None:
        return list(lines)
    return sorted(lines, key=lambda ln: (ranks[ln.player], ln.player))


def score_table_text(lines: Sequence[ScoreLine], names: Sequence[str] | None = None,
                     ranks: Sequence[int] | None = None) -> str:
    """The breakdown as an aligned plain-text table: a row per player (best rank first, with
    a rank column when ``ranks`` are given), each total once."""
    if not lines:
        return ""
    labels = columns(lines)
    lead = [_("Rank")] if ranks is not None else []
    head = [*lead, _("Player"), *labels, _("Total")]
    rows = []
    for line in ordered(lines, ranks):
        parts = dict(line.parts)
        rows.append(
            [*([str(ranks[line.player])] if ranks is not None else []),
             seat_name(line.player, names), *(fmt(parts[k]) if k in parts else "" for k in labels),
             fmt(line.total)]
        )
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    name_col = len(lead)

    def row(cells: list[str]) -> str:
        out = [c.ljust(w) if i == name_col else c.rjust(w)
               for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  ".join(out).rstrip()

    out = [row(head), *(row(r) for r in rows)]
    # TRANSLATORS: a player's name and what decides a tie on points for them
    out += [_("{player}: {note}", player=seat_name(line.player, names), note=line.note)
            for line in lines if line.note]
    return "\n".join(out)
