"""KoPlus (コプラス): lay plus- and U-shaped NET tiles on a board of sections to catch aliens."""

from meeple.engine import register

from .rules import KoPlus, KoPlusState

register(KoPlus)

__all__ = ["KoPlus", "KoPlusState"]
