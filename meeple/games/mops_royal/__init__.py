"""Mops Royal: a tile-laying game of colour and object combinations for 2–4 players."""

from meeple.engine import register

from . import heuristics, render
from .rules import MopsRoyal, MopsRoyalState

register(MopsRoyal, renderer=render, heuristics=heuristics)

__all__ = ["MopsRoyal", "MopsRoyalState"]
