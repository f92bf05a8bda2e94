"""The ``meeple`` command: play in the terminal, replay and render records, read the rules,
serve the web platform, run bot arenas.

This module is the command group itself and its language (``--lang``); the commands are in
one module per group: :mod:`.play` (play), :mod:`.replay` (replay, review), :mod:`.pictures`
(render, gallery), :mod:`.rules` (rules, learn, games), :mod:`.serve`, :mod:`.arena` and
:mod:`.admin` (backup, restore), over
:mod:`.common`, what they share (the consoles, the error handler, a game's name, options and
seats, the board and the final result on the screen).

Every command reports a bad input (a game name, an option, a file, a record) as one line on
standard error and a non-zero exit status (:func:`~.common.handled`), never as a traceback."""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import typer
from rich.console import Console

from meeple.cli import admin, arena, common, pictures, play, replay, rules, serve
from meeple.cli.common import fail, final_lines, seat_names, show_final, show_result, who
from meeple.cli.play import Chronicle, MovePrompt, ask_human, run_game
from meeple.cli.replay import ALL, move_line, record_names
from meeple.cli.rules import option_summary, options_text, shown
from meeple.cli_words import say_help
from meeple.engine import i18n
from meeple.engine.i18n import N_, words

__all__ = ["ALL", "Chronicle", "MovePrompt", "app", "ask_human", "chosen_language",
           "final_lines", "main", "move_line", "option_summary", "options_text", "record_names",
           "run_game", "seat_names", "show_final", "show_result", "shown", "who"]

_, _n = words(__file__)


def chosen_language(args: list[str]) -> str:
    """The language of a run of the command: ``--lang`` before the command's name, else the
    terminal's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            return i18n.known(args[i + 1]) or i18n.from_environment()
        if arg.startswith("--lang="):
            return i18n.known(arg.partition("=")[2]) or i18n.from_environment()
        if not arg.startswith("-"):
            break
    return i18n.from_environment()


class MeepleCommand(typer.core.TyperGroup):
    """The ``meeple`` command group: each run speaks its language from the first word on,
    click's and typer's own words and the help texts too."""

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        if argv and (argv[0] == "--lang" and len(argv) == 2
                     or argv[0].startswith("--lang=") and len(argv) == 1):
            args = [*argv, "--help"]  # a language and nothing to do: the help, in it
        with i18n.speaking(chosen_language(argv)):
            say_help(self)
            return super().main(args, *rest, **kwargs)


app = typer.Typer(
    cls=MeepleCommand,
    help=N_("Play and study KoPlus, Kozo, Mops Royal, Botanik and Kontor."),
    no_args_is_help=True,
    add_completion=False,
)
LANG_HELP = N_("the language to speak: en (English), de (Deutsch), es (Español) or nl "
               "(Nederlands); by default the terminal's")


@app.callback()
def choose_language(
    lang: str | None = typer.Option(None, "--lang", metavar=N_("LANG"), help=LANG_HELP),
) -> None:
    # The language is chosen before the command starts (MeepleCommand); here it is checked.
    if lang is not None and i18n.known(lang) is None:
        fail(_("there is no language {lang}; meeple speaks {languages}", lang=repr(lang),
               languages=", ".join(i18n.LANGUAGES)))


for group in (play, replay, pictures, rules, serve, admin, arena):  # in the order --help lists them
    app.add_typer(group.commands)


class _Package(ModuleType):
    """``meeple.cli`` itself: its ``console`` is the one every command prints to
    (``common.console``), so putting another there (a test capturing what is printed) puts it
    there for them all."""

    @property
    def console(self) -> Console:
        return common.console

    @console.setter
    def console(self, value: Console) -> None:
        common.console = value


sys.modules[__name__].__class__ = _Package


def main() -> None:  # pragma: no cover - console entry point
    app()
