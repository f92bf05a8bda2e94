"""Botanik: two players build pipe machines from tiles released through a shared registry."""

from meeple.engine import register

from .rules import Botanik, BotanikState

register(Botanik)

__all__ = ["Botanik", "BotanikState"]
