"""The terminal's hint and review: ``hint`` at the move prompt suggests a legal move with the
game's reason (in a real process), and ``meeple review RECORD`` prints the chances, turning
points and better moves (and ``--svg`` writes the chart), for every game (in this process)."""

from __future__ import annotations

import json
import re

import pytest

import meeple
from meeple.bots import review as reviews
from meeple.bots.review import positions, review_lines
from meeple.engine.records import replay
from tests.test_cli import Terminal, legal_moves_listed, run_here

GAMES = meeple.games()
QUICK = 40
"""Search iterations per position in these tests (the review's own budget is larger)."""


@pytest.mark.parametrize("name", GAMES)
def test_hint_at_the_prompt_is_a_legal_move_with_a_reason(name):
    term = Terminal("play", name, "--players", "2", "--seats", "human,random", "--seed", "5")
    screen = term.read_to_prompt()
    assert screen is not None
    term.send("help")
    screen = term.read_to_prompt()
    assert screen is not None and "hint suggests a move" in " ".join(screen.split())
    term.send("?")
    screen = term.read_to_prompt()
    assert screen is not None
    listed = legal_moves_listed(screen)
    term.send("hint")
    screen = term.read_to_prompt()
    assert screen is not None
    m = re.search(r"^Hint: (.+)\n  Why: (.+)\.\n  To play it, type: (.+)$", screen, re.M)
    assert m, screen
    assert m.group(3) in listed, (m.group(3), listed)
    assert m.group(2) and "_" not in m.group(2)
    term.send(m.group(3))  # the hinted move is played like any other
    screen = term.read_to_prompt()
    term.proc.kill()
    term.proc.wait(10)


@pytest.mark.parametrize("name", GAMES)
def test_review_prints_the_chances_turning_points_and_better_moves(name, tmp_path, monkeypatch):
    rec = tmp_path / "game.json"
    r = run_here("play", name, "--players", "2", "--seats", "greedy,random", "--seed", "3",
                 "--save", str(rec), "--json")
    assert r.returncode == 0, r.stderr
    record = json.loads(rec.read_text())
    final = replay(record)
    viewer = [] if final.game.perfect_information else ["--viewer", "1"]
    svg = tmp_path / "chart.svg"
    made = []  # the review the command makes, kept to compare with what it prints
    real = reviews.review
    monkeypatch.setattr(reviews, "review", lambda *a, **k: made.append((a, k, real(*a, **k)))
                        or made[-1][2])
    r = run_here("review", str(rec), *viewer, "--svg", str(svg), "--iterations", str(QUICK))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Chance to win after each move:" in out
    assert ("Turning points:" in out) or ("No turning points" in out)
    assert ("clearly better than" in out) or ("no clearly better move" in out)
    text = svg.read_text()
    assert text.startswith("<svg") and text.count('class="chance-line"') == 2
    points = len(re.findall(r"^\s+\d+\s+\d+%\s+\d+%\s", out, re.M))
    assert points == len(positions(final)[0])  # a line for every charted position
    seat = None if final.game.perfect_information else 1
    names = _cli_names([str(s) for s in record["meta"]["seats"]])
    # the review of this game, for this seat, with these names and budget, printed whole
    [(args, options, expected)] = made
    assert args[0].history() == final.history() and args[1] == seat
    assert options["names"] == names and options["iterations"] == QUICK
    flat = " ".join(out.split())
    for line in review_lines(expected, seat, names):
        assert " ".join(line.split()) in flat, line
    assert text.count('class="turning-point"') == len(expected.turning)


def _cli_names(seats: list[str]) -> list[str]:
    from meeple.cli import seat_names

    return seat_names(seats)


def test_review_needs_a_viewer_where_information_is_hidden(tmp_path):
    rec = tmp_path / "game.json"
    r = run_here("play", "mops_royal", "--players", "2", "--seats", "random,random", "--seed",
                 "3", "--save", str(rec), "--json")
    assert r.returncode == 0, r.stderr
    r = run_here("review", str(rec))
    assert r.returncode != 0
    assert "--viewer N" in r.stderr and "Traceback" not in r.stderr
