"""What the bots' fork server imports before it starts (never the server itself): Ctrl-C is
ignored, so that every worker it forks ignores it from its first instant (Ctrl-C is for the
server, which ends its workers itself); then every game, once for all the workers."""

from __future__ import annotations

import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)

from . import bot_worker  # noqa: E402, F401  (imports every game)
