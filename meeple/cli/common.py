"""What the commands of ``meeple`` share: the consoles, the one error handler
(:func:`handled`), a game's name, options and seats read from the command line, and a position
and the final result drawn on the screen.

The commands print to ``common.console``, read at the moment they print: ``meeple.cli.console``
sets it (a test puts a console there that captures what is printed)."""

from __future__ import annotations

import difflib
import errno
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

import meeple
from meeple.bots.levels import bot_name
from meeple.cli_words import (
    install,
)
from meeple.engine import CHANCE, Game, MeepleError, State, game_class, i18n
from meeple.engine.i18n import N_, words
from meeple.engine.look import PALETTE, seat_name
from meeple.engine.scores import ScoreLine, score_lines, score_table_text

_, _n = words(__file__)
install()


console = Console(highlight=False)
errors = Console(stderr=True, highlight=False, soft_wrap=True)
"""Error messages: standard error, one line each."""
tables = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
"""The arena's tables; written to a file or a pipe, they keep their figures whole."""
EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}
F = TypeVar("F", bound=Callable[..., Any])


# -- errors -----------------------------------------------------------------------------------


def fail(message: str, code: int = 2) -> None:
    """Print ``error: message`` as one line on standard error and exit with ``code``."""
    label = _("error:")
    errors.print(f"[bold red]{escape(label)}[/] {escape(' '.join(str(message).split()))}")
    raise typer.Exit(code)


REASONS = {
    errno.ENOENT: N_("there is no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EROFS: N_("the disk is read-only"),
    errno.EEXIST: N_("it exists already"),
    errno.ENAMETOOLONG: N_("the name is too long"),
}
"""The usual operating-system errors in words (the system's own words are English)."""


def reason(e: OSError) -> str:
    """Why an operating-system call failed, in words."""
    known = REASONS.get(e.errno or 0)
    return _(known) if known else (e.strerror or str(e)).lower()


def os_message(e: OSError) -> str:
    """An operating-system error in words: what could not be done to which file."""
    if e.filename:
        return _("cannot use {file}: {reason}", file=str(e.filename), reason=reason(e))
    return _("cannot do it: {reason}", reason=reason(e))


def handled(command: F) -> F:
    """The command line's one error handler: bad input of every kind becomes a one-line
    message on standard error and exit status 2 (130 for Ctrl-C), never a traceback."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except MeepleError as e:
            fail(str(e))
        except UnicodeDecodeError:
            fail(_("the file is not text (a record is a JSON text file)"))
        except json.JSONDecodeError as e:
            fail(_("not JSON: {reason}", reason=str(e)))
        except (ConnectionError, TimeoutError) as e:
            fail(_("cannot connect: {reason}", reason=str(e)))
        except OSError as e:
            fail(os_message(e))
        except KeyboardInterrupt:
            fail(_("interrupted"), code=130)
        return None

    return run  # type: ignore[return-value]


# -- games, options and seats (shared by play and arena) -------------------------------------


def resolve_game(name: str) -> str:
    """The registered name of a game typed any way ("Mops-Royal", "KOPLUS"); an
    :class:`OptionError` with the nearest names ("did you mean") otherwise."""
    known = meeple.games()
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key in known:
        return key
    titles = {game_class(g).title.lower().replace(" ", "_"): g for g in known
              if game_class(g).title}
    if key in titles:
        return titles[key]
    close = difflib.get_close_matches(key, [*known, *titles], n=1, cutoff=0.6)
    games = ", ".join(sorted(known))
    if close:
        raise meeple.OptionError(_(
            "no game named {name}; did you mean {close}? Known games: {games}",
            name=repr(name), close=repr(titles.get(close[0], close[0])), games=games))
    raise meeple.OptionError(_("no game named {name}. Known games: {games}", name=repr(name),
                               games=games))


def parse_options(
    name: str, pairs: list[str], extra: list[str] | None = None, mode: str | None = None
) -> dict[str, Any]:
    """Game options from ``--option key=value`` pairs, ``--key value`` extra arguments and
    ``--mode`` (for a game that has modes), each read with the option's own parser."""
    cls = game_class(name)
    texts: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise meeple.OptionError(_("--option needs key=value, got {text}",
                                       text=repr(pair)))
        texts[key.strip().replace("-", "_")] = value.strip()
    extra = list(extra or [])
    i = 0
    while i < len(extra):
        arg = extra[i]
        if not arg.startswith("--"):
            raise meeple.OptionError(_("unexpected argument {text}", text=repr(arg)))
        key, sep, value = arg[2:].partition("=")
        if not sep:
            if i + 1 >= len(extra):
                flag = "--" + key
                raise meeple.OptionError(_("{option} needs a value", option=flag))
            value = extra[i + 1]
            i += 1
        texts[key.replace("-", "_")] = value
        i += 1
    known = {o.name for o in cls.option_schema}
    if mode is not None:
        if "mode" not in known:
            raise meeple.OptionError(_("{game} has no modes", game=cls.title or name))
        texts["mode"] = mode
    for key in texts:
        if key not in known:
            listed = ", ".join(f"{o.title} ({o.name})" for o in cls.option_schema)
            if not listed:
                raise meeple.OptionError(_("{game} has no option called {name}; it has no "
                                           "options", game=cls.title or name, name=repr(key)))
            raise meeple.OptionError(_("{game} has no option called {name}; its options are: "
                                       "{options}", game=cls.title or name, name=repr(key),
                                       options=listed))
    return {key: cls.option(key).parse(value, name) for key, value in texts.items()}


OPTION_HELP = N_("a game option key=value (also --key value)")
MODE_HELP = N_("the game's mode, for a game that has modes (kontor: basic, advanced, "
               "expansion)")


GAME = N_("GAME")
"""The metavar of a game's name."""
GAME_NAMES = N_("koplus, kozo, mops_royal, ...")


def writable(path: Path) -> None:
    """Refuse before a game a file that could not be written after it."""
    if path.is_dir():
        raise meeple.OptionError(_("cannot write {file}: it is a folder", file=str(path)))
    if not path.parent.is_dir():
        raise meeple.OptionError(_("cannot write {file}: there is no folder {folder}",
                                   file=str(path), folder=str(path.parent)))


def seat_names(seats: list[str]) -> list[str]:
    """Each seat's one display name: "Player N" for a person, with the bot's level as players
    know it for a bot ("Player 2 (Casual bot)", "Player 3 (Expert bot)")."""
    out = []
    for p, spec in enumerate(seats):
        if spec in ("human", ""):
            out.append(seat_name(p))
            continue
        # TRANSLATORS: a seat taken by a bot, e.g. "Player 2 (Casual bot)".
        out.append(_("{player} ({level} bot)", player=seat_name(p), level=bot_name(spec) or spec))
    return out


def who(game: Game, player: int, names: list[str]) -> str:
    """A player as rich markup: the seat's colour symbol and name in the seat's colour."""
    if player == CHANCE:
        return _("chance")
    colours = game.seat_colours() or PALETTE
    colour = colours[player % len(colours)]
    return f"[bold {colour.fill}]{colour.symbol} {escape(seat_name(player, names))}[/]"


def plain_name(player: int, names: list[str]) -> str:
    return _("chance") if player == CHANCE else seat_name(player, names)


# -- drawing ----------------------------------------------------------------------------------


def board_text(state: State, viewer: int | None, names: list[str]) -> str:
    """The game's terminal picture of what ``viewer`` sees, with the players' names."""
    return state.game.renderer.text(state.observation(viewer), names)


def show(state: State, viewer: int | None, names: list[str]) -> None:
    """Draw the state as ``viewer`` sees it."""
    console.print(Text.from_markup(board_text(state, viewer, names)))


def final_lines(state: State) -> list[ScoreLine]:
    """The final breakdown as score lines (the bare scores where a game gives none)."""
    lines = score_lines(state.observation(None))
    return lines or [ScoreLine(p, (), score) for p, score in enumerate(state.scores())]


def result_text(state: State, names: list[str]) -> str:
    """The final breakdown as one plain table (``scores.score_table_text``: rank, player,
    each part of the score, one total; the notes on ties below)."""
    return score_table_text(final_lines(state), names, state.ranks())


def show_result(state: State, names: list[str]) -> None:
    """The final result: the one results table (the board pictures never hold it) and the
    winners. Players' names are drawn in their colours."""
    game = state.game
    colours = game.seat_colours() or PALETTE
    out = []
    for row in escape(result_text(state, names)).splitlines():
        for p in range(game.num_players):
            name = escape(seat_name(p, names))
            if f"  {name}  " in f"  {row}  " or row.startswith(f"{name}: "):
                fill = colours[p % len(colours)].fill
                row = row.replace(name, f"[bold {fill}]{name}[/]", 1)
                break
        out.append(row)
    title = _("Final result")
    console.print(f"[bold]{escape(title)}[/]")
    console.print("\n".join(out))
    winners = state.winners()
    # TRANSLATORS: the label before the winners' names at the end of a game.
    label = _n("Winner:", "Winners:", len(winners))
    console.print(f"[bold]{escape(label)}[/] " + ", ".join(who(game, p, names) for p in winners))


def show_final(state: State, viewer: int | None, names: list[str]) -> None:
    """The last position, then the final result: the board, a blank line and the one table."""
    show(state, viewer, names)
    console.print()
    show_result(state, names)


def said(say: Callable[[], str], fallback: str) -> str:
    """A sentence of the log (``fallback``, the notation, if the game cannot say it)."""
    try:
        return say()
    except Exception:  # a sentence must never stop a game
        return fallback


# -- the rulebook ------------------------------------------------------------------------------


def print_rulebook(name: str, console: Console) -> None:
    """The game's rulebook in the language in use, each picture drawn by the game's own
    terminal renderer (as on the how-to-play page)."""
    from meeple.lessons_cli import print_illustrated

    print_illustrated(name, game_class(name).rules_markdown(i18n.language()), console)
