"""The ``meeple`` command: play in the terminal, replay and render records, read the rules,
serve the web platform, run bot arenas.

Every command reports a bad input (a game name, an option, a file, a record) as one line on
standard error and a non-zero exit status (:func:`handled`), never as a traceback."""

from __future__ import annotations

import difflib
import errno
import functools
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table
from rich.text import Text

import meeple
from meeple.arena.command import head_to_head_table, result_table
from meeple.arena.core import run_arena
from meeple.bots import bot_names, make_bot, view_for
from meeple.bots.levels import bot_name
from meeple.cli_words import (
    COMMAND_WORDS,
    command_of,
    install,
    move_prompt,
    moves_heading,
    say_help,
    typed_commands,
)
from meeple.engine import CHANCE, Game, MeepleError, State, game_class, i18n
from meeple.engine.i18n import N_, words
from meeple.engine.look import PALETTE, seat_name
from meeple.engine.options import Option, reconstructed
from meeple.engine.records import check_record
from meeple.engine.scores import ScoreLine, score_lines, score_table_text

_, _n = words(__file__)
install()


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


def move_list(state: State, player: int) -> list[tuple[int, str, str]]:
    """The legal moves of ``player``: (action, notation, label in words or "")."""
    out = []
    for a in state.legal_actions(player):
        d = state.describe_action(a, player)
        label = d.get("label") or ""
        out.append((a, d["text"], label if label != d["text"] else ""))
    return out


def list_moves(state: State, player: int) -> None:
    """Print the legal moves of ``player``, numbered, in notation with their labels."""
    moves = move_list(state, player)
    console.print(moves_heading(len(moves)))
    width = len(str(len(moves)))
    for i, (_a, text, label) in enumerate(moves, 1):
        note = f"  [dim]{escape(label)}[/]" if label else ""
        console.print(f"  {i:>{width}}. {escape(text)}{note}")


COMMANDS = ("moves", "board", "rules", "hint", "help", "quit")


def play_help() -> str:
    """What a player can type at the move prompt, as rich markup."""
    return _(
        "Type a move in the game's notation (Tab completes it), or the number of a listed move. "
        "Commands: [bold]{moves}[/] (or [bold]?[/]) lists the legal moves, [bold]{board}[/] "
        "redraws, [bold]{rules}[/] shows the rules, [bold]{hint}[/] suggests a move and says "
        "why, [bold]{help}[/] shows this, [bold]{quit}[/] ends.",
        **{key: escape(_(text)) for key, text in COMMAND_WORDS.items() if key != "skip"})


# -- the move prompt --------------------------------------------------------------------------


def is_terminal() -> bool:
    """Whether a person sits at a terminal (standard input and output both are one)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


class MovePrompt:
    """One player's move prompt. At a terminal: prompt_toolkit with line editing, the
    player's own history and Tab completion of the legal moves; elsewhere (pipes, tests) a
    plain ``input()`` so scripted play works."""

    def __init__(self) -> None:
        self.session: Any = None
        self.words: list[str] = []
        if is_terminal():
            from prompt_toolkit import PromptSession
            from prompt_toolkit.completion import WordCompleter
            from prompt_toolkit.history import InMemoryHistory

            completer = WordCompleter(lambda: self.words, sentence=True)
            self.session = PromptSession(history=InMemoryHistory(), completer=completer,
                                         complete_while_typing=False)

    def ask(self, markup: str, words: list[str]) -> str:
        """Show the prompt (rich markup) and read one line; EOFError at the end of input."""
        if self.session is None:
            return console.input(markup)
        from prompt_toolkit.formatted_text import ANSI

        self.words = words
        with console.capture() as captured:
            console.print(markup, end="")
        try:
            return str(self.session.prompt(ANSI(captured.get())))
        except KeyboardInterrupt:
            raise EOFError from None


def ask_human(
    state: State, player: int, names: list[str], prompt: MovePrompt | None = None,
    since: list[str] | None = None,
) -> int | None:
    """Prompt ``player`` until they type a legal move (or a listed move's number); ``None``
    if they quit. A forced move (exactly one legal action) is played with a note."""
    prompt = prompt or MovePrompt()
    show(state, player, names)
    if since:
        since_label = _("Since your last turn:")
        console.print(f"[bold]{escape(since_label)}[/]")
        for line in since:
            console.print(f"  {line}")
    moves = move_list(state, player)
    if len(moves) == 1:
        _a, text, label = moves[0]
        console.print(_("Only one move is possible: [bold]{move}[/]; it is played for you.",
                        move=escape(label or text)))
        return moves[0][0]
    words = [text for _a, text, _b in moves] + typed_commands(COMMANDS)
    while True:
        try:
            text = prompt.ask(move_prompt(who(state.game, player, names)), words)
        except EOFError:
            return None
        text = text.strip()
        low = text.lower()
        command = command_of(text)
        if low in ("?", "m") or command == "moves":
            list_moves(state, player)
            continue
        if low == "h" or command == "help":
            console.print(play_help())
            continue
        if low == "b" or command == "board":
            show(state, player, names)
            continue
        if command == "rules":
            console.print(Markdown(state.game.rules_markdown()))
            continue
        if command == "hint":
            show_hint(state, player)
            continue
        if low in ("q", "exit") or command == "quit":
            return None
        if not text:
            continue
        try:
            action = state.string_to_action(text, player)
            state.check(action, player)
            return action
        except (meeple.NotationError, meeple.IllegalAction) as e:
            if text.isdigit() and 1 <= int(text) <= len(moves):
                return moves[int(text) - 1][0]
            console.print(f"[red]{escape(str(e))}[/]  "
                          + escape(_("(type ? to list the legal moves)")))


def show_hint(state: State, player: int) -> None:
    """The move a search bot would play for ``player`` now, and why (``hint`` at the
    prompt); it reads only what ``player`` may know."""
    from meeple.bots.hint import hint

    h = hint(state, player)
    console.print(_("Hint: [bold]{move}[/]", move=escape(h.label)))
    console.print("  " + escape(_("Why: {reason}.", reason=h.reason)))
    console.print("  " + escape(_("To play it, type: {move}", move=h.text)))


# -- hot-seat ---------------------------------------------------------------------------------


@contextmanager
def private_screen() -> Iterator[None]:
    """One player's private view on the terminal's alternate screen: when it ends, the
    normal screen comes back as it was and nothing of the view is left in the scrollback.
    Written to a pipe, it only marks where the private view starts and ends."""
    if console.is_terminal:
        with console.screen():
            yield
    else:
        yield


def pass_device(game: Game, player: int, names: list[str]) -> None:
    """Hot-seat with hidden information: the hand-over screen naming the next player."""
    console.clear()
    try:
        name = "[/]" + who(game, player, names) + "[bold yellow]"
        console.input("[bold yellow]" + _("Pass the keyboard to {player} and press Enter.",
                                          player=name) + "[/]")
    except EOFError:
        pass


# -- what happened since a player's last turn ------------------------------------------------


@dataclass
class Entry:
    """One action of the game as the log keeps it: who, its sentence (the game's
    ``describe``: "places a U ..."), its notation, the sentence for those who may not know it
    yet, the set-up's one line on the set-up's last chance event, and what followed."""

    player: int
    sentence: str
    text: str
    unseen: str = ""
    setup: str = ""
    after: list[str] = field(default_factory=list)


def said(say: Callable[[], str], fallback: str) -> str:
    """A sentence of the log (``fallback``, the notation, if the game cannot say it)."""
    try:
        return say()
    except Exception:  # a sentence must never stop a game
        return fallback


def consequences(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    """What an action brought about that its sentence does not say, from the public views
    before and after it: each player's points won or lost, with the new total. (A fall, a
    round's end and the like are in the move's own sentence.)"""
    out = []
    old, new = before.get("scores") or [], after.get("scores") or []
    if len(old) == len(new):
        for p, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                gain = b - a
                count = abs(gain)
                n = int(count) if float(count).is_integer() else 2  # the plural of 1.5 points
                if gain > 0:
                    out.append(_n("{player} gains {points} point (now {total})",
                                  "{player} gains {points} points (now {total})", n,
                                  player=plain_name(p, names), points=count, total=b))
                else:
                    out.append(_n("{player} loses {points} point (now {total})",
                                  "{player} loses {points} points (now {total})", n,
                                  player=plain_name(p, names), points=count, total=b))
    return out


class Chronicle:
    """The game's log for the players at the table, kept in step with the game: each action
    in the game's own words (its ``describe`` sentence) and the points it won or lost, so a
    person can be told what came of their last turn and what the others did since (only what
    they may know)."""

    def __init__(self, game: Game, names: list[str]):
        self.names = names
        self.shadow = game.new_initial_state()
        self.entries: list[Entry] = []

    def record(self, state: State, player: int, action: int) -> None:
        """Note an action just applied to ``state`` (the log's own copy applies it too)."""
        shadow = self.shadow
        text = shadow.action_to_string(action, player)
        entry = Entry(player, said(lambda: shadow.describe(player, action), text), text,
                      said(lambda: shadow.describe_unseen(player), _("has chosen")))
        before = shadow.observation(None)
        shadow.apply(action, player)
        if player == CHANCE and shadow.current_player != CHANCE and self.entries \
                and all(e.player == CHANCE for e in self.entries):
            entry.setup = said(shadow.describe_setup, _("The game is set up."))
        entry.after = consequences(before, state.observation(None), self.names)
        self.entries.append(entry)

    def since(self, state: State, viewer: int, limit: int = 15) -> list[str]:
        """``viewer``'s last action and what it brought about, then what the others did since,
        as ``viewer`` may know it now (rich markup lines; at most ``limit``, the latest)."""
        last = max((i for i, e in enumerate(self.entries) if e.player == viewer), default=-1)
        if last < 0:
            return []
        visible = state.visible_history(viewer)
        mine = self.entries[last]
        lines = [f"{escape(plain_name(viewer, self.names))} {escape(mine.sentence)}",
                 *(escape(x) for x in mine.after)]
        for i in range(last + 1, len(self.entries)):
            e = self.entries[i]
            name = escape(plain_name(e.player, self.names))
            if i < len(visible) and visible[i][1] is None:
                if e.player != CHANCE:
                    lines.append(f"{name} {escape(e.unseen)}")
            elif e.player == CHANCE:
                lines.append(escape(e.sentence))
            else:
                lines.append(f"{name} {escape(e.sentence)}")
            lines.extend(escape(x) for x in e.after)
        if len(lines) > limit:
            earlier = _n("... {n} earlier", "... {n} earlier", len(lines) - limit + 1)
            lines = [f"[dim]{escape(earlier)}[/]", *lines[-limit + 1:]]
        return lines


# -- playing ----------------------------------------------------------------------------------


class _Quit(Exception):
    """A person left the game."""


def run_game(
    game: Game,
    seats: list[str],
    seed: int | None,
    quiet: bool,
) -> tuple[State, bool]:
    """Play a game with the given seats; return the final state and whether it finished.

    Hot-seat with hidden information: each person's turn is on the terminal's alternate
    screen (their private view never reaches the scrollback), after a hand-over screen
    naming them. Each move that everyone may know is printed as it is made."""
    rng = random.Random(seed)
    bots = {
        p: make_bot(spec, game, seed=None if seed is None else seed * 100 + p)
        for p, spec in enumerate(seats)
        if spec != "human"
    }
    names = seat_names(seats)
    humans = [p for p, s in enumerate(seats) if s == "human"]
    hot_seat = len(humans) > 1 and not game.perfect_information
    prompts: dict[int, MovePrompt] = {}
    chronicle = Chronicle(game, names) if humans or not quiet else None
    last_human: int | None = None

    def choose(state: State, p: int, rng: random.Random) -> int:
        nonlocal last_human
        if p in bots:
            return bots[p].act(view_for(state, p))
        since = chronicle.since(state, p) if chronicle else []
        prompt = prompts.setdefault(p, MovePrompt())
        if hot_seat:
            legal = state.legal_actions(p)
            if len(legal) == 1:
                console.print(_("{player} has only one possible move; it is played for "
                                "them.", player=who(game, p, names)))
                return legal[0]
            if p != last_human:
                pass_device(game, p, names)
            last_human = p
            with private_screen():
                chosen = ask_human(state, p, names, prompt, since)
        else:
            chosen = ask_human(state, p, names, prompt, since)
        if chosen is None:
            raise _Quit
        return chosen

    secret: list[int] = []  # moves shown as "has chosen", told once everyone may know them

    def tell(entry: Entry) -> None:
        text = escape(entry.sentence)
        if entry.sentence != entry.text:
            text += f" [dim]({escape(entry.text)})[/]"
        console.print(text if entry.player == CHANCE else f"{who(game, entry.player, names)} "
                      f"{text}")

    def on_move(state: State, p: int, action: int) -> None:
        if chronicle is None:
            return
        chronicle.record(state, p, action)
        if quiet:
            return
        visible = state.visible_history(None)
        for i in [i for i in secret if visible[i][1] is not None]:
            secret.remove(i)
            tell(chronicle.entries[i])
        entry = chronicle.entries[-1]
        if entry.setup:  # the set-up's chance events in one line
            console.print(escape(entry.setup))
        elif p == CHANCE:  # in words, once the set-up is over (a set-up of one event too)
            leading = all(q == CHANCE for q, _ in visible)
            if visible[-1][1] is not None and (not leading or state.current_player != CHANCE):
                tell(entry)
        elif visible[-1][1] is None:  # a secret until everyone has chosen
            secret.append(len(chronicle.entries) - 1)
            chosen = _("has chosen")
            console.print(f"{who(game, p, names)} {escape(chosen)}")
        else:
            tell(entry)
        for line in entry.after:
            console.print(f"  {escape(line)}")

    state = game.new_initial_state()
    try:
        meeple.play_out(state, rng, policy=choose, on_move=on_move)
    except _Quit:
        return state, False
    return state, True


def writable(path: Path) -> None:
    """Refuse before a game a file that could not be written after it."""
    if path.is_dir():
        raise meeple.OptionError(_("cannot write {file}: it is a folder", file=str(path)))
    if not path.parent.is_dir():
        raise meeple.OptionError(_("cannot write {file}: there is no folder {folder}",
                                   file=str(path), folder=str(path.parent)))


GAME = N_("GAME")
"""The metavar of a game's name."""
GAME_NAMES = N_("koplus, kozo, mops_royal, ...")


@app.command(context_settings=EXTRA, help=N_(
    "Play a game in the terminal against bots, or hot-seat. Game options: --name value."))
@handled
def play(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar=GAME, help=GAME_NAMES),
    players: int | None = typer.Option(None, "--players", "-p", help=N_("number of players")),
    seats: str | None = typer.Option(
        None, "--seats",
        help=N_("comma-separated: human, or a bot level (weakest first): random, greedy, "
                "mcts:thoughtful, mcts:expert")
    ),
    seed: int | None = typer.Option(None, "--seed", help=N_("seed for chance and bots")),
    as_json: bool = typer.Option(False, "--json",
                                 help=N_("bots only: play silently, print record")),
    save: Path | None = typer.Option(None, "--save", help=N_("write the record to this file")),
    option: list[str] = typer.Option([], "--option", "-O", help=OPTION_HELP),
    mode: str | None = typer.Option(None, "--mode", help=MODE_HELP),
) -> None:
    """Play a game in the terminal against bots, or hot-seat. Game options: --name value."""
    name = resolve_game(game_name)
    options = parse_options(name, option, list(ctx.args), mode)
    seat_list = [s.strip() for s in seats.split(",")] if seats else None
    if players is None:
        players = len(seat_list) if seat_list else game_class(name).default_players()
    game = meeple.load(name, players=players, **options)
    if seat_list is None:
        seat_list = ["human"] + ["greedy"] * (players - 1)
    if len(seat_list) != players:
        raise meeple.OptionError(_n(
            "--seats lists {n} seat but the game has {players} players",
            "--seats lists {n} seats but the game has {players} players", len(seat_list),
            players=players))
    for s in seat_list:
        if s != "human":
            make_bot(s, game)  # validates the spec
    if as_json and "human" in seat_list:
        fail(_("--json plays bots only: every seat must be a bot (e.g. --seats "
               "greedy,random)"))
    if save is not None:
        writable(save)
    if not as_json:
        names = seat_names(seat_list)
        console.print(
            f"[bold]{escape(game.title or game.name)}[/] — "
            + escape(_n("{n} player:", "{n} players:", players)) + " "
            + ", ".join(who(game, p, names) for p in range(players))
        )
        console.print(play_help())
    state, finished = run_game(game, seat_list, seed, quiet=as_json)
    record = game.record(state, seats=seat_list, seed=seed)
    if save is not None:
        save.write_text(json.dumps(record, indent=1))
    if as_json:
        sys.stdout.write(json.dumps(record) + "\n")
        return
    if finished:
        show_final(state, None, seat_names(seat_list))
    else:
        console.print(_("Game left unfinished."))
    if save is not None:
        console.print(escape(_("Record written to {file}", file=str(save))))


# -- records ----------------------------------------------------------------------------------


def load_record(path: Path) -> dict[str, Any]:
    """A record read from ``path`` and checked (``records.check_record``); any problem is
    a :class:`RecordError` naming the file."""
    if path.is_dir():
        raise meeple.RecordError(_("{file} is a folder, not a record", file=str(path)))
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise meeple.RecordError(_("no such file: {file}", file=str(path))) from None
    except OSError as e:
        raise meeple.RecordError(_("cannot read {file}: {reason}", file=str(path),
                                   reason=reason(e))) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise meeple.RecordError(_("{file} is not a text file (a record is JSON text)",
                                   file=str(path))) from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise meeple.RecordError(_("{file} is not JSON: {reason}", file=str(path),
                                   reason=str(e))) from None
    try:
        return check_record(record)
    except meeple.RecordError as e:
        raise meeple.RecordError(f"{path}: {e}") from None


ALL = "all"
PUBLIC = "public"


def parse_viewer(text: str | None, players: int, allow_all: bool = True) -> int | str | None:
    """A ``--viewer`` value: a seat number (0 is Player 1), ``public`` (a spectator: ``None``)
    or ``all`` (everything, every player's private view)."""
    if text is None or text.strip().lower() == PUBLIC:
        return None
    low = text.strip().lower()
    if low == ALL and allow_all:
        return ALL
    if low.lstrip("-").isdigit() and 0 <= int(low) < players:
        return int(low)
    if allow_all:
        raise meeple.OptionError(_(
            "--viewer must be all, public or a seat from 0 to {last} (0 is Player 1), got "
            "{text}", last=str(players - 1), text=repr(text)))
    raise meeple.OptionError(_(
        "--viewer must be public or a seat from 0 to {last} (0 is Player 1), got {text}",
        last=str(players - 1), text=repr(text)))


def record_names(record: dict[str, Any], players: int) -> list[str]:
    """The seats' display names from a record's metadata (none when it has none): a record
    of ``meeple play`` holds each seat's bot spec ("human", "greedy"), a record from the web
    platform (it names its ``table``) the seats' names as stored there."""
    meta = record.get("meta", {})
    seats = [str(x) for x in meta.get("seats") or []]
    if len(seats) != players:
        return []
    if "table" in meta:
        bots = meta.get("bots")
        specs = bots if isinstance(bots, list) and len(bots) == players else [None] * players
        return [table_seat_name(name, spec) for name, spec in zip(seats, specs, strict=True)]
    return seat_names(seats)


def table_seat_name(name: str, spec: Any = None) -> str:
    """A seat's name stored by the web platform, in the language in use: a bot seat is
    stored under its level's English name ("Casual bot 2"), said here in the language as
    the web pages say it; ``spec``: the seat's bot, when the record holds it."""
    from meeple.server.domain import Seat, SeatKind, bot_seat_name
    from meeple.server.views import shown_name

    if not isinstance(spec, str):
        spec = None
        with i18n.speaking(i18n.DEFAULT):
            for known in bot_names():
                english = bot_seat_name(known)
                if name == english or (name.startswith(english + " ")
                                       and name[len(english) + 1:].isdigit()):
                    spec = known
                    break
    if spec is None:
        return name
    return shown_name(Seat(0, SeatKind.BOT, name=name, bot=spec)) or name


def move_line(
    state: State, record: dict[str, Any], viewer: int | str | None, names: list[str],
    before: State | None = None,
) -> str | None:
    """The last move of ``state`` (after the record's first moves) as ``viewer`` may know it
    now, as rich markup: its sentence with the notation after it ("Player 1 chooses the red
    harbour card 27 with tea. (choose red-27)"; chance's sentence alone), or "Player 1 has
    chosen" / "A hidden draw." while it is a secret to them. ``before``: the state before
    that move (replayed from the record if not given). ``None`` at the start."""
    n = len(state.history())
    if not n:
        return None
    history = (state.history() if viewer == ALL
               else state.visible_history(None if viewer is None else int(viewer)))
    p, action = history[n - 1]
    if action is None:
        if p == CHANCE:
            return escape(_("A hidden draw."))
        chosen = _("has chosen")
        return f"{who(state.game, p, names)} {escape(chosen)}"
    if before is None:
        before = meeple.replay(record, upto=n - 1)
    text = str(record["moves"][n - 1][1])
    sentence = said(lambda: before.describe(p, action), text)
    line = escape(sentence) + (f" [dim]({escape(text)})[/]" if sentence != text else "")
    return line if p == CHANCE else f"{who(state.game, p, names)} {line}"


def show_replay_step(
    record: dict[str, Any], final: State, n: int, viewer: int | str | None, names: list[str]
) -> None:
    """Draw step ``n`` of a replay: the move that led to it as ``viewer`` may know it now,
    then the board (every player's view for ``all``)."""
    total = len(record["moves"])
    state = meeple.replay(record, upto=n)
    game = state.game
    seen = (_("everything") if viewer == ALL else _("as a spectator sees it") if viewer is None
            else _("as {player} sees it", player=seat_name(int(viewer), names)))
    console.rule(escape(_("move {n}/{total} · {seen}", n=n, total=total, seen=seen)))
    line = move_line(state, record, viewer, names, meeple.replay(record, upto=n - 1) if n
                     else None)
    if line is not None:
        console.print(line)
    if n == total and final.is_terminal():
        show_final(final, None if viewer == ALL else viewer, names)  # type: ignore[arg-type]
    elif viewer == ALL and not game.perfect_information:
        for p in range(game.num_players):
            name = who(game, p, names) + "[bold]"
            console.print("[bold]" + _("What {player} sees:", player=name) + "[/]")
            show(state, p, names)
    else:
        show(state, None if viewer == ALL else viewer, names)  # type: ignore[arg-type]


@app.command(help=N_("Step through a record: Enter = next, b = back, a number = go to that "
                     "move, q = quit."))
@handled
def replay(
    file: Path = typer.Argument(..., metavar=N_("FILE"),
                                help=N_("a record written by --save or --json")),
    viewer: str = typer.Option(
        ALL, "--viewer",
        help=N_("all: everything, every player's view (the default); public: what a "
                "spectator sees; a seat number (0 is Player 1): what that player knew then"),
    ),
) -> None:
    """Step through a record: Enter = next, b = back, a number = go to that move, q = quit."""
    record = load_record(file)
    final = meeple.replay(record)
    seat = parse_viewer(viewer, final.game.num_players)
    total = len(record["moves"])
    names = record_names(record, final.game.num_players)
    n = 0
    while True:
        show_replay_step(record, final, n, seat, names)
        try:
            keys = escape(_("(Enter next, b back, N go to move N, q quit)"))
            cmd = console.input(f"[dim]{keys}[/] ").strip()
        except EOFError:
            return
        if cmd in ("q", "quit"):
            return
        if cmd == "b":
            n = max(0, n - 1)
        elif cmd.isdigit():
            n = min(total, int(cmd))
        elif n < total:
            n += 1
        elif cmd == "":
            return


@app.command("review", help=N_(
    "Review a finished game: each player's chance to win after every move, the turning points, "
    "and the moves where a search bot's choice was clearly better."))
@handled
def review_command(
    file: Path = typer.Argument(..., metavar=N_("FILE"), help=N_("a record of a finished game")),
    viewer: str | None = typer.Option(
        None, "--viewer", help=N_("whose review (0 is Player 1): that player's better moves, "
                                  "and in a game of hidden information only what that player "
                                  "could see")),
    svg_out: Path | None = typer.Option(None, "--svg",
                                        help=N_("also write the chart to this SVG")),
    iterations: int | None = typer.Option(
        None, "--iterations", min=1,
        help=N_("search iterations per position (default: the game's own; fewer is quicker)")),
) -> None:
    """Review a finished game: each player's chance to win after every move, the turning
    points, and the moves where a search bot's choice was clearly better."""
    from rich.progress import Progress

    from meeple.bots.review import chart_svg, review, review_lines

    record = load_record(file)
    final = meeple.replay(record)
    game = final.game
    if not final.is_terminal():
        raise meeple.RecordError(_("{file}: the game is not over, so it has no review yet",
                                   file=str(file)))
    seat = parse_viewer(viewer, game.num_players, allow_all=False)
    if seat is None and not game.perfect_information:
        raise meeple.OptionError(_("{game} hides information: say whose review it is with "
                                   "--viewer N (0 is Player 1)", game=game.title))
    names = record_names(record, game.num_players) or None
    if svg_out is not None:
        writable(svg_out)
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(_("Reviewing"), total=None)
        result = review(final, seat if isinstance(seat, int) else None, names=names,
                        iterations=iterations,
                        progress=lambda done, total: bar.update(task, completed=done,
                                                                total=total))
    for line in review_lines(result, seat if isinstance(seat, int) else None, names):
        console.print(escape(line))
    if svg_out is not None:
        svg_out.write_text(chart_svg(result, game.seat_colours(), names), encoding="utf-8")
        console.print(escape(_("The chart is in {file}.", file=str(svg_out))))


@app.command(help=N_("Draw the board of a record after a given move as SVG."))
@handled
def render(
    file: Path = typer.Argument(..., metavar=N_("FILE"), help=N_("a game record")),
    move: int | None = typer.Option(None, "--move", "-m", help=N_("after this many moves")),
    out: Path = typer.Option(Path("board.svg"), "-o", "--out", help=N_("SVG file to write")),
    viewer: str | None = typer.Option(
        None, "--viewer", help=N_("draw as this seat sees it (0 is Player 1), or public")),
) -> None:
    """Draw the board of a record after a given move as SVG."""
    record = load_record(file)
    total = len(record["moves"])
    if move is not None and not 0 <= move <= total:
        fail(_("--move must be between 0 and {total}", total=total))
    writable(out)
    state = meeple.replay(record, upto=move)
    seat = parse_viewer(viewer, state.game.num_players, allow_all=False)
    names = record_names(record, state.game.num_players) or None
    picture = state.game.renderer.svg(state.observation(seat), names)  # type: ignore[arg-type]
    try:
        out.write_text(picture)
    except OSError as e:
        fail(_("cannot write {file}: {reason}", file=str(out), reason=reason(e)))
    console.print(escape(_("wrote {file}", file=str(out))))


@app.command(help=N_("Draw sample positions (start, middle, end) of every configuration as "
                     "SVG and PNG."))
def gallery(
    which: str = typer.Argument(..., metavar=N_("GAME|all"), help=N_("a game's name, or all")),
    out: Path = typer.Option(Path("gallery"), "-o", "--out",
                             help=N_("folder for the pictures")),
    png: bool = typer.Option(True, "--png/--no-png", help=N_("also write PNG (cairosvg)")),
    docs: Path | None = typer.Option(None, "--docs", help=N_("also write a page showing them")),
) -> None:
    """Draw sample positions (start, middle, end) of every configuration as SVG and PNG."""
    from meeple.gallery import write_docs, write_gallery

    try:
        pics = write_gallery(which, out, with_png=png)
    except meeple.OptionError as e:
        fail(str(e))
        return
    console.print(escape(_n("wrote {n} picture to {folder}", "wrote {n} pictures to {folder}",
                            len(pics), folder=str(out))))
    if docs is not None:
        console.print(escape(_("wrote {file}", file=str(write_docs(pics, docs, out)))))


@app.command(help=N_("Show how to play a game, then its full rules (reconstructed rules are "
                     "marked)."))
@handled
def rules(game_name: str = typer.Argument(..., metavar=GAME, help=GAME_NAMES)) -> None:
    """Show how to play a game, then its full rules (reconstructed rules are marked)."""
    from meeple.lessons_cli import print_howto

    name = resolve_game(game_name)
    print_howto(name, console)
    cls = game_class(name)
    if cls.option_schema:
        console.rule(escape(_("Options")))
        for line in options_text(cls):
            console.print(line)
    console.rule(escape(_("The full rules")))
    console.print(Markdown(game_class(name).rules_markdown(i18n.language())))


@app.command(help=N_("Learn a game: a guided first game in short steps, then a game against "
                     "the easiest bot."))
@handled
def learn(
    game_name: str = typer.Argument(..., metavar=GAME, help=GAME_NAMES),
    seed: int | None = typer.Option(None, "--seed", help=N_("seed for chance and the bot")),
) -> None:
    """Learn a game: a guided first game in short steps, then a game against the easiest bot."""
    from meeple import lessons_cli

    name = resolve_game(game_name)
    if not lessons_cli.walk(name, console, MovePrompt().ask, who):
        return
    seats = lessons_cli.closing_seats(name)
    state, finished = run_game(lessons_cli.closing_game(name), seats, seed, quiet=False)
    if finished:
        show_final(state, None, seat_names(seats))
    else:
        console.print(_("Game left unfinished."))


@app.command("games", help=N_("List the games with their player counts and options."))
def list_games() -> None:
    """List the games with their player counts and options."""
    table = Table(title=_("meeple games"))
    for col in (_("game"), _("players"), _("options")):
        table.add_column(col)
    for name in meeple.games():
        d = game_class(name).describe()
        opts = "\n".join(option_summary(o) for o in game_class(name).option_schema)
        table.add_row(f"{name}\n[dim]{d['title']}[/]", ", ".join(map(str, d["players"])), opts)
    console.print(table)
    console.print("[dim]" + escape(_("Change an option with --option name=value, the name after "
                                     "its words (meeple rules {game} lists the values).",
                                     game=_(GAME))) + "[/]")
    console.print(f"[dim]{RECONSTRUCTED_MARK} {escape(reconstructed())}.[/]")
    console.print("[dim]" + escape(_("Bots: {bots}.", bots=", ".join(bot_names()))) + "[/]")


@app.command(help=N_("Start the web platform."))
@handled
def serve(
    host: str = typer.Option("127.0.0.1", help=N_("address to listen on")),
    port: int = typer.Option(8000, help=N_("port to listen on")),
    db: str | None = typer.Option(
        None, help=N_("database URL (default: SQLite in ./meeple-data); "
                      "postgresql+psycopg://...")
    ),
    redis: str | None = typer.Option(
        None, help=N_("Redis URL to fan out updates between servers")),
    trusted_proxy: list[str] = typer.Option(  # noqa: B006 - typer reads the default
        [], "--trusted-proxy",
        help=N_("address of a proxy in front of the server whose X-Forwarded-For is believed "
                "(repeatable; default: none, the connecting address counts)"),
    ),
    allowed_origin: list[str] = typer.Option(  # noqa: B006
        [], "--allowed-origin",
        help=N_("a page origin (https://example.org) whose pages may open the live socket "
                "(repeatable; default: the server's own origin only)"),
    ),
    smtp: str | None = typer.Option(
        None, "--smtp",
        help=N_("the SMTP server that sends turn e-mails, as a URL: "
                "smtp://[user:password@]host[:port]?from=address&site=https://your.site "
                "(default: none, no e-mail is sent)"),
    ),
) -> None:
    """Start the web platform."""
    try:
        from meeple.server import serve as run_server
    except ImportError as e:
        fail(_("the web platform needs the web extra: pip install 'meeple[web]' ({reason})",
               reason=str(e)))
        return

    address = f"http://{host}:{port}/"
    console.print(escape(_("meeple serving on {address}", address=address)))
    run_server(host=host, port=port, db=db, redis=redis, trusted_proxies=trusted_proxy,
               allowed_origins=allowed_origin or None, smtp=smtp)


@app.command("arena", context_settings=EXTRA, help=N_(
    "Bots play many games: win rates with 95% CIs, mean ranks, ratings, records and a ratings "
    "plot. Ctrl-C stops at once and keeps the games played so far."))
@handled
def arena(
    ctx: typer.Context,
    game: str = typer.Argument(..., metavar=GAME, help=N_("the game to play")),
    bots: str = typer.Option(
        "mcts:3,greedy,random", "--bots", "-b",
        help=N_("comma-separated bot specs, e.g. mcts:5,mcts:3,greedy,random"),
    ),
    games: int = typer.Option(100, "--games", "-n", help=N_("how many games to play")),
    players: int | None = typer.Option(
        None, "--players", "-p", help=N_("players per game (default: one seat per bot)")
    ),
    workers: int = typer.Option(
        max(1, os.cpu_count() or 1), "--workers", "-w", help=N_("local worker processes")
    ),
    ray: str | None = typer.Option(
        None, "--ray", help=N_("run the games on a Ray cluster at ADDRESS, or 'local'")
    ),
    out: Path | None = typer.Option(
        None, "--out", "-o", help=N_("folder for records, results.json and ratings.png")
    ),
    seed: int = typer.Option(0, "--seed", help=N_("seed of the whole run")),
    option: list[str] = typer.Option([], "--option", "-O", help=OPTION_HELP),
    mode: str | None = typer.Option(None, "--mode", help=MODE_HELP),
    progress: bool = typer.Option(True, "--progress/--no-progress",
                                  help=N_("show a progress bar")),
) -> None:
    """Bots play many games: win rates with 95% CIs, mean ranks, ratings, records and a
    ratings plot. Ctrl-C stops at once and keeps the games played so far."""
    name = resolve_game(game)
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    options = parse_options(name, option, list(ctx.args), mode)
    out_dir = out or Path("arena") / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(_("cannot make the folder {folder}: {reason}", folder=str(out_dir),
               reason=reason(e)))
    result = run_arena(
        name, specs, games, players, workers, ray, out_dir, seed, options, progress
    )
    tables.print(result_table(result))
    if len(result.bots) > 1:
        tables.print(head_to_head_table(result))
    tables.print(escape(_(
        "records in {records}, results in {results}, plot in {plot}",
        records=str(out_dir / "games"), results=str(out_dir / "results.json"),
        plot=str(out_dir / "ratings.png"))))
    if result.interrupted:
        errors.print(escape(_n(
            "interrupted: {n} of {planned} games was played; the results above are of that "
            "game only",
            "interrupted: {n} of {planned} games were played; the results above are of those "
            "games only", result.games, planned=result.games_planned)))
        raise typer.Exit(130)


def main() -> None:  # pragma: no cover - console entry point
    app()
