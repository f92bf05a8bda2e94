"""``meeple play`` in a real terminal (tmux): hot-seat turns on the alternate screen with
nothing private left in the scrollback, and the move prompt's line editing, history and Tab
completion."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Pane:
    """A tmux session running one command in a 100×45 terminal."""

    def __init__(self, command: str):
        self.name = f"meeple-{uuid.uuid4().hex[:8]}"
        env = f"cd {ROOT} && TERM=xterm-256color COLUMNS=100 LANGUAGE=en"
        for _ in range(5):  # a tmux server that is just closing refuses new sessions
            started = subprocess.run(
                ["tmux", "new-session", "-d", "-s", self.name, "-x", "100", "-y", "45",
                 f"{env} {command}; sleep 30"], capture_output=True)
            if started.returncode == 0:
                break
            time.sleep(0.5)
        assert started.returncode == 0, started.stderr

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> str:
        """What the terminal shows now."""
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True, check=True).stdout

    def scrollback(self) -> str:
        """The normal screen with all its scrollback (not the alternate screen)."""
        out = subprocess.run(["tmux", "capture-pane", "-p", "-S", "-", "-E", "-", "-t",
                              self.name], capture_output=True, text=True, check=True).stdout
        if self.alternate():  # capture-pane shows the alternate screen while it is on
            return ""
        return out

    def alternate(self) -> bool:
        out = subprocess.run(["tmux", "display-message", "-p", "-t", self.name,
                              "#{alternate_on}"], capture_output=True, text=True, check=True)
        return out.stdout.strip() == "1"

    def wait_for(self, text: str, timeout: float = 120) -> str:
        return self.wait_until(lambda screen: text in screen, f"{text!r} shown", timeout)

    def wait_until(self, shown: Callable[[str], bool], what: str, timeout: float = 120) -> str:
        """The screen once ``shown(screen)`` holds (polled; a generous ceiling for a busy
        machine)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if shown(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"never {what}; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def pane() -> Iterator[type[Pane]]:
    opened: list[Pane] = []

    def make(command: str) -> Pane:
        p = Pane(command)
        opened.append(p)
        return p

    yield make  # type: ignore[misc]
    for p in opened:
        p.close()


MEEPLE = f"{sys.executable} -m meeple.cli"
PROMPT = "move (? for moves):"


def test_hot_seat_turns_leave_nothing_private_in_the_scrollback(pane):
    term = pane(f"{MEEPLE} play kontor --seats human,human --seed 9")
    term.wait_for("Pass the keyboard to")
    assert "Player 1" in term.screen().split("Pass the keyboard to")[1]
    assert not term.alternate()
    term.keys("Enter")
    private = term.wait_for(PROMPT)
    assert term.alternate(), "a player's private view must be on the alternate screen"
    hand = next(line for line in private.splitlines() if line.startswith("In your hand:"))
    term.keys("moves", "Enter")
    term.wait_for("legal moves:")
    listing = term.wait_for(" 1. ")  # the list itself, printed after its heading
    first = next(line for line in listing.splitlines() if line.strip().startswith("1. "))
    chosen = first.split("1. ", 1)[1].split("  ")[0]  # e.g. "choose red-27"
    term.keys("1", "Enter")
    handover = term.wait_for("Player 2 and press Enter.")  # the hand-over names the next
    assert "Pass the keyboard to ● Player 2 and press Enter." in handover
    assert not term.alternate()
    back = term.scrollback()
    assert "Pass the keyboard to" in back and "Player 1 has chosen" in back
    assert "In your hand" not in back and hand not in back
    assert chosen not in back and chosen.split()[-1] not in back
    assert "legal moves:" not in back and PROMPT not in back
    term.keys("Enter")
    term.wait_for(PROMPT)
    assert term.alternate()
    term.keys("quit", "Enter")
    term.wait_for("Game left unfinished.")
    assert "In your hand" not in term.scrollback()


def test_the_prompt_edits_remembers_and_completes(pane):
    term = pane(f"{MEEPLE} play koplus --seats human,greedy --seed 3")
    term.wait_for(PROMPT)
    # line editing: type "oves", go to the start of the line, add the "m"
    term.keys("oves", "Home", "m", "Enter")
    listing = term.wait_for("legal moves:")
    assert "\x1b" not in listing and "[D" not in listing
    # history: the arrow up brings back "moves"
    term.keys("Up")
    term.wait_until(lambda screen: screen.rstrip().splitlines()[-1].endswith(f"{PROMPT} moves"),
                    "the last line brought back")
    term.keys("Enter")
    screen = term.wait_until(lambda screen: screen.rstrip().endswith(PROMPT),
                             "the moves listed again, then the prompt")
    first = next(line for line in reversed(screen.splitlines())
                 if line.strip().startswith("1. "))
    move = first.split("1. ", 1)[1].split("  ")[0]  # e.g. "U0@6,4"
    # Tab completes a legal move from its first letters
    def typed(screen: str) -> str:
        line = next(x for x in reversed(screen.splitlines()) if PROMPT in x)
        return line.split(PROMPT, 1)[1].strip()

    term.keys("C-u", move[:-1], "Tab")
    time.sleep(0.8)  # what Tab adds, if anything, is drawn after the typed letters
    completed = typed(term.wait_until(lambda screen: typed(screen).startswith(move[:-1]),
                                      "the letters typed"))
    assert len(completed) >= len(move) - 1
    term.keys("Escape", "C-u", move, "Enter")
    term.wait_for("Player 2 (Casual bot) places")
    term.keys("quit", "Enter")
    term.wait_for("Game left unfinished.")


def test_a_hot_seat_game_in_german(pane):
    """The same terminal play in German: the hand-over, the prompt, its commands typed in
    German, the move list and the end, with no English of the command's own."""
    prompt = "ist am Zug (? für Züge):"
    term = pane(f"{MEEPLE} --lang de play kontor --seats human,human --seed 9")
    screen = term.wait_for("Gib die Tastatur an")
    assert "Spieler 1 weiter und drück Enter." in " ".join(screen.split())
    term.keys("Enter")
    term.wait_for(prompt)
    assert term.alternate()
    term.keys("züge", "Enter")
    listing = term.wait_for("erlaubte Züge:")
    assert "(gib einen Zug oder seine Nummer ein)" in listing
    term.keys("hilfe", "Enter")
    helped = " ".join(term.wait_for("Befehle:").split())
    assert "Befehle: züge (oder ?) listet die erlaubten Züge" in helped
    term.keys("1", "Enter")
    handover = term.wait_for("Spieler 2 weiter und drück Enter.")
    assert "hat gewählt" in term.scrollback()
    for english in ("Pass the keyboard", "has chosen", "legal moves", PROMPT):
        assert english not in handover and english not in term.scrollback()
    term.keys("Enter")
    term.wait_for(prompt)
    term.keys("ende", "Enter")
    term.wait_for("Partie nicht zu Ende gespielt.")
