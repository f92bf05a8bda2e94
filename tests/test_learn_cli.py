"""``meeple learn GAME`` driven through its prompt (in a real process): every step's text, a
wrong move explained, the intended move accepted, then the game against the weakest bot; every
tutorial to its game and ``meeple rules GAME`` opening with how to play (in this process)."""

from __future__ import annotations

import pytest

from meeple.engine.registry import game_lessons
from tests.test_cli import Terminal, run_here

GAMES = ["botanik", "kontor", "koplus", "kozo", "mops_royal"]


def flat(text: str) -> str:
    return " ".join(text.split())


def test_learn_koplus_through_its_prompt():
    lesson = game_lessons("koplus").LESSON
    term = Terminal("learn", "koplus", "--seed", "3")
    try:
        screen = term.read_to_prompt()
        assert screen is not None and "Learn to play KoPlus" in screen
        assert f"Step 1 of {len(lesson.steps)}" in screen
        assert flat(lesson.steps[0].text) in flat(screen)
        term.send("X@5,5")  # not the top tile: the engine's reason
        screen = term.read_to_prompt()
        assert screen is not None and "Not this one. That move is not allowed" in screen
        term.send("U0@4,4")  # legal, explained by the step
        screen = term.read_to_prompt()
        assert screen is not None and flat(lesson.steps[0].wrong["U0@4,4"]) in flat(screen)
        for i, step in enumerate(lesson.steps):
            term.send(step.expect[0])
            screen = term.read_to_prompt()
            assert screen is not None
            assert flat(step.good) in flat(screen)
            if i + 1 < len(lesson.steps):
                assert f"Step {i + 2} of {len(lesson.steps)}" in screen
                assert flat(lesson.steps[i + 1].text) in flat(screen)
        assert flat(lesson.closing) in flat(screen)
        assert "Player 1's turn" in screen  # the game against the bot has begun
        term.send("q")
        assert term.read_to_prompt() is None
        assert "Game left unfinished" in term.tail
    finally:
        term.proc.kill()
        term.proc.wait()


@pytest.mark.parametrize("name", GAMES)
def test_every_tutorial_runs_in_the_terminal_to_the_game(name):
    lesson = game_lessons(name).LESSON
    moves = [s.expect[0] for s in lesson.steps]
    r = run_here("learn", name, "--seed", "1", input="\n".join([*moves, "q"]) + "\n")
    out = flat(r.stdout)
    assert r.returncode == 0, r.stderr
    for step in lesson.steps:
        assert flat(step.text) in out and flat(step.good) in out
    assert flat(lesson.closing) in out and "Game left unfinished" in out
    assert "Traceback" not in r.stdout + r.stderr


def test_quit_during_the_steps_and_an_unknown_game():
    r = run_here("learn", "kozo", input="q\n")
    assert r.returncode == 0 and "meeple learn kozo" in r.stdout
    r = run_here("learn", "chess")
    assert r.returncode == 2 and "no game named" in r.stderr


def test_rules_open_with_how_to_play():
    r = run_here("rules", "kontor")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.index("How to play Kontor") < out.index("The full rules") < out.index(
        "Where the original rules are silent")
    assert "picture:" not in out and "Closed by water: red wins the area with wine" in out
