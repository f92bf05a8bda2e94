"""Mops Royal: a tile-laying game of colour and object combinations for 2–4 players."""

from meeple.engine import register

from .rules import MopsRoyal, MopsRoyalState

register(MopsRoyal)

__all__ = ["MopsRoyal", "MopsRoyalState"]
