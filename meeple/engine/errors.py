"""The errors every meeple game raises, so callers can handle them the same way for all games."""

from __future__ import annotations

from .i18n import words

_, _n = words(__file__)


class MeepleError(Exception):
    """Base class of meeple's own errors."""


class OptionError(MeepleError, ValueError):
    """A game was loaded with an unknown option, a wrong value, or an unsupported player count."""


class IllegalAction(MeepleError, ValueError):
    """An action was refused; the state is unchanged.

    ``action`` is the int id (or the text that was given), ``player`` who tried it, ``reason``
    a short sentence saying why (said in the language in use, as the message is).
    """

    def __init__(self, action: int | str, player: int | None, reason: str, text: str | None = None):
        self.action = action
        self.player = player
        self.reason = reason
        shown = text if text is not None else str(action)
        if player is None:
            # TRANSLATORS: {action} is a move in notation, {reason} why it is refused
            message = _("illegal action {action}: {reason}", action=shown, reason=reason)
        else:
            # TRANSLATORS: {player} is a seat number from 0
            message = _("illegal action {action} by player {player}: {reason}", action=shown,
                        player=str(player), reason=reason)
        super().__init__(message)


class NotationError(MeepleError, ValueError):
    """Text could not be read as an action in the game's notation."""


class RecordError(MeepleError, ValueError):
    """A game record is malformed or belongs to another game version."""
