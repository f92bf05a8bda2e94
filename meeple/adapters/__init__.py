"""Adapters to other game frameworks: OpenSpiel (``openspiel``), PettingZoo (``pettingzoo``)
and Gymnasium (``gymnasium``), each importing its framework only when used (``meeple[peers]``
installs them). The named planes of every game's observation tensor are the engine's
(``meeple.observation_planes``, ``meeple.engine.planes``)."""

from meeple.engine.planes import observation_planes

__all__ = ["observation_planes"]
