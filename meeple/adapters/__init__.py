"""Adapters to other game frameworks: OpenSpiel (``openspiel``), PettingZoo (``pettingzoo``)
and Gymnasium (``gymnasium``), each importing its framework only when used (``meeple[peers]``
installs them); and the named planes of every game's observation tensor (``planes``, numpy
only): ``observation_planes(state, player)`` is importable from here."""

from .planes import observation_planes

__all__ = ["observation_planes"]
