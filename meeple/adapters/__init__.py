"""Adapters to other game frameworks: OpenSpiel (``openspiel``), PettingZoo (``pettingzoo``)
and Gymnasium (``gymnasium``). Each imports its framework only when used."""
