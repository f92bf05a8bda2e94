"""``meeple rules``, ``meeple learn`` and ``meeple games``: how to play a game and its
options in player words, a guided first game, the list of games."""

from __future__ import annotations

from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

import meeple
from meeple.bots import bot_names
from meeple.cli import common
from meeple.cli.common import (
    GAME,
    GAME_NAMES,
    handled,
    print_rulebook,
    resolve_game,
    seat_names,
    show_final,
    who,
)
from meeple.cli.play import MovePrompt, run_game
from meeple.engine import Game, game_class, i18n
from meeple.engine.i18n import N_, words
from meeple.engine.options import Option, reconstructed

_, _n = words(__file__)
commands = typer.Typer()
"""The commands of this module (``meeple.cli`` adds them to ``meeple``)."""


RECONSTRUCTED_MARK = "*"
"""Beside an option whose default no source confirms (``Option.reconstructed``)."""


def typed(option: Option, value: Any) -> str:
    """What a person types for ``value`` after ``--option name=``: on/off for a switch."""
    if option.type is bool:
        return "on" if value else "off"  # typed as written, in every language
    if option.type is float and isinstance(value, float):
        return f"{value:g}"
    return str(value)


def shown(option: Option, value: Any) -> str:
    """``value`` of ``option`` as a person reads it: the option's words for it, a number
    written the way the language in use writes numbers (0,01 in German)."""
    if (isinstance(value, (int, float)) and not isinstance(value, bool)
            and option.words(value) == str(value)):
        return i18n.number(value)
    return option.words(value)


def option_values(option: Option) -> list[tuple[str, str]]:
    """The values a person types for ``option``, each with its words: on and off for a
    switch, else every choice and every value the game names in words."""
    if option.type is bool:
        return [(typed(option, v), option.words(v)) for v in (True, False)]
    choices = list(option.choices or ())
    values = choices + [v for v, _ in option.labels if v is not None and v not in choices]
    return [(typed(option, v), option.words(v)) for v in values]


def option_range(option: Option) -> str:
    """A free number's range in words ("a number from 0 to 0.5"); '' for other options."""
    if option.type not in (int, float) or option.choices:
        return ""
    whole = option.type is int
    # the limits as a person types them (a point, never a comma), in every language
    lo = None if option.minimum is None else f"{option.minimum:g}"
    hi = None if option.maximum is None else f"{option.maximum:g}"
    if lo is not None and hi is not None:
        return (_("a whole number from {low} to {high}", low=lo, high=hi) if whole
                else _("a number from {low} to {high}", low=lo, high=hi))
    if lo is not None:
        return (_("a whole number, at least {low}", low=lo) if whole
                else _("a number, at least {low}", low=lo))
    if hi is not None:
        return (_("a whole number, at most {high}", high=hi) if whole
                else _("a number, at most {high}", high=hi))
    return _("a whole number") if whole else _("a number")


def to_change(option: Option) -> list[str]:
    """How to type another value of ``option``, as rich markup lines."""
    typing = f"--option {option.name}=" + _("VALUE")
    values = option_values(option)
    span = option_range(option)
    if option.type is bool:
        first, second = (v if v == w else f"{v} ({w})" for v, w in values)
        return ["  " + escape(_("To change it: {typing}, with {value} {first} or {second}.",
                                typing=typing, value=_("VALUE"), first=first,
                                second=second))]
    if span:
        named = "; ".join(_("{value} for {meaning}", value=v, meaning=w)
                          for v, w in values if v != w)
        if named:
            return ["  " + escape(_("To change it: {typing}, with {value} {range} ({named}).",
                                    typing=typing, value=_("VALUE"), range=span,
                                    named=named))]
        return ["  " + escape(_("To change it: {typing}, with {value} {range}.",
                                typing=typing, value=_("VALUE"), range=span))]
    if values:
        return ["  " + escape(_("To change it: {typing}, with {value} one of:", typing=typing,
                                value=_("VALUE"))),
                *(f"    {escape(v)}: {escape(w)}" if v != w
                  else f"    {escape(v)}" for v, w in values)]
    return ["  " + escape(_("To change it: {typing}, with {value} any text.", typing=typing,
                            value=_("VALUE")))]


def option_summary(option: Option) -> str:
    """One line of ``meeple games``: the option in player words, its default, and the name
    to type in brackets ("Random sizes: off (random_size)")."""
    mark = f" {RECONSTRUCTED_MARK}" if option.reconstructed else ""
    return (f"{escape(option.title)}: {escape(shown(option, option.default))}{mark} "
            f"[dim]({option.name})[/]")


def options_text(cls: type[Game]) -> list[str]:
    """A game's options for ``meeple rules``, as rich markup lines: each in player words
    with what it does, its default and what to type to change it."""
    out: list[str] = []
    for o in cls.option_schema:
        mark = f" {RECONSTRUCTED_MARK}" if o.reconstructed else ""
        said = o.said_help
        what = said[:1].upper() + said[1:] if said else ""
        if what and not what.endswith("."):
            what += "."
        out.append(f"[bold]{escape(o.title)}[/]{mark}: {escape(what)}".rstrip(": "))
        out.append("  " + escape(_("As it comes: {value}.", value=shown(o, o.default))))
        out.extend(to_change(o))
    if any(o.reconstructed for o in cls.option_schema):
        out.append(f"[dim]{RECONSTRUCTED_MARK} {escape(reconstructed())}.[/]")
    return out


@commands.command(help=N_("Show how to play a game, then its full rules (reconstructed rules are "
                     "marked)."))
@handled
def rules(game_name: str = typer.Argument(..., metavar=GAME, help=GAME_NAMES)) -> None:
    """Show how to play a game, then its full rules (reconstructed rules are marked)."""
    from meeple.lessons_cli import print_howto

    name = resolve_game(game_name)
    print_howto(name, common.console)
    cls = game_class(name)
    if cls.option_schema:
        common.console.rule(escape(_("Options")))
        for line in options_text(cls):
            common.console.print(line)
    common.console.rule(escape(_("The full rules")))
    print_rulebook(name, common.console)


@commands.command(help=N_("Learn a game: a guided first game in short steps, then a game against "
                     "the easiest bot."))
@handled
def learn(
    game_name: str = typer.Argument(..., metavar=GAME, help=GAME_NAMES),
    seed: int | None = typer.Option(None, "--seed", help=N_("seed for chance and the bot")),
) -> None:
    """Learn a game: a guided first game in short steps, then a game against the easiest bot."""
    from meeple import lessons_cli

    name = resolve_game(game_name)
    if not lessons_cli.walk(name, common.console, MovePrompt().ask, who):
        return
    seats = lessons_cli.closing_seats(name)
    state, finished = run_game(lessons_cli.closing_game(name), seats, seed, quiet=False)
    if finished:
        show_final(state, None, seat_names(seats))
    else:
        common.console.print(_("Game left unfinished."))


@commands.command("games", help=N_("List the games with their player counts and options."))
def list_games() -> None:
    """List the games with their player counts and options."""
    table = Table(title=_("meeple games"))
    for col in (_("game"), _("players"), _("options")):
        table.add_column(col)
    for name in meeple.games():
        d = game_class(name).describe()
        opts = "\n".join(option_summary(o) for o in game_class(name).option_schema)
        table.add_row(f"{name}\n[dim]{d['title']}[/]", ", ".join(map(str, d["players"])), opts)
    common.console.print(table)
    common.console.print("[dim]" + escape(_("Change an option with --option name=value, the name "
                                            "after its words (meeple rules {game} lists the "
                                            "values).", game=_(GAME))) + "[/]")
    common.console.print(f"[dim]{RECONSTRUCTED_MARK} {escape(reconstructed())}.[/]")
    common.console.print("[dim]" + escape(_("Bots: {bots}.", bots=", ".join(bot_names()))) + "[/]")
    common.console.print("[dim]" + (_("Rules engine: compiled.") if meeple.compiled()
                                    else _("Rules engine: pure Python.")) + "[/]")
