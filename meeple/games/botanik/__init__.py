"""Botanik: two players build pipe machines from tiles released through a shared registry."""

from meeple.engine import register

from . import heuristics, learn, render
from .rules import Botanik, BotanikState

register(Botanik, renderer=render, heuristics=heuristics, lessons=learn)

__all__ = ["Botanik", "BotanikState"]
