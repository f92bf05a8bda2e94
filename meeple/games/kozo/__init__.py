"""Kozo: a shared tower of 12 wooden polycubes on a ring around an open chimney."""

from meeple.engine import register

from .rules import Kozo, KozoState

register(Kozo)

__all__ = ["Kozo", "KozoState"]
