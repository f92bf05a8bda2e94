"""Words every game's labels share: small numbers in words, and a place said from a landmark
("two to the left and one below the anchor")."""

from __future__ import annotations

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
"""Numbers up to nine in words."""


def number_word(n: int) -> str:
    """``n`` in words up to nine, else in digits."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def place_from(x: int, y: int, landmark: str) -> str:
    """The place ``x`` to the right and ``y`` down from ``landmark`` ("the anchor", "your
    start tile") in words: "on the anchor", "just above the anchor", "next to the anchor, on
    the left", "two to the right and one below the anchor"."""
    if x == 0 and y == 0:
        return f"on {landmark}"
    if abs(x) + abs(y) == 1:
        return {(0, -1): f"just above {landmark}", (0, 1): f"just below {landmark}",
                (-1, 0): f"next to {landmark}, on the left",
                (1, 0): f"next to {landmark}, on the right"}[(x, y)]
    h = f"{number_word(abs(x))} to the {'left' if x < 0 else 'right'}" if x else ""
    v = f"{number_word(abs(y))} {'above' if y < 0 else 'below'}" if y else ""
    if not v:
        return f"{h} of {landmark}"
    if not h:
        return f"{v} {landmark}"
    return f"{h} and {v} {landmark}"
