"""Mops Royal: a tile-laying game of colour and object combinations for 2–4 players."""

from meeple.engine import register

from . import heuristics, learn, render
from .rules import MopsRoyal, MopsRoyalState

register(MopsRoyal, renderer=render, heuristics=heuristics, lessons=learn)

__all__ = ["MopsRoyal", "MopsRoyalState"]
