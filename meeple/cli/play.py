"""``meeple play``: a game in the terminal against bots or hot-seat; the move prompt, the
hand-over between players and what happened since a player's last turn (``meeple learn``'s
closing game is played the same way)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

import meeple
from meeple.bots import make_bot, view_for
from meeple.cli import common
from meeple.cli.common import (
    EXTRA,
    GAME,
    GAME_NAMES,
    MODE_HELP,
    OPTION_HELP,
    fail,
    handled,
    parse_options,
    plain_name,
    resolve_game,
    said,
    seat_names,
    show,
    show_final,
    who,
    writable,
)
from meeple.cli_words import (
    COMMAND_WORDS,
    command_of,
    move_prompt,
    moves_heading,
    typed_commands,
)
from meeple.engine import CHANCE, Game, State, game_class
from meeple.engine.i18n import N_, words

_, _n = words(__file__)
commands = typer.Typer()
"""The commands of this module (``meeple.cli`` adds them to ``meeple``)."""


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
    common.console.print(moves_heading(len(moves)))
    width = len(str(len(moves)))
    for i, (_a, text, label) in enumerate(moves, 1):
        note = f"  [dim]{escape(label)}[/]" if label else ""
        common.console.print(f"  {i:>{width}}. {escape(text)}{note}")


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
            return common.console.input(markup)
        from prompt_toolkit.formatted_text import ANSI

        self.words = words
        with common.console.capture() as captured:
            common.console.print(markup, end="")
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
        common.console.print(f"[bold]{escape(since_label)}[/]")
        for line in since:
            common.console.print(f"  {line}")
    moves = move_list(state, player)
    if len(moves) == 1:
        _a, text, label = moves[0]
        common.console.print(_("Only one move is possible: [bold]{move}[/]; it is played for "
                               "you.", move=escape(label or text)))
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
            common.console.print(play_help())
            continue
        if low == "b" or command == "board":
            show(state, player, names)
            continue
        if command == "rules":
            common.print_rulebook(state.game.name, common.console)
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
            common.console.print(f"[red]{escape(str(e))}[/]  "
                                 + escape(_("(type ? to list the legal moves)")))


def show_hint(state: State, player: int) -> None:
    """The move a search bot would play for ``player`` now, and why (``hint`` at the
    prompt); it reads only what ``player`` may know."""
    from meeple.bots.hint import hint

    h = hint(state, player)
    common.console.print(_("Hint: [bold]{move}[/]", move=escape(h.label)))
    common.console.print("  " + escape(_("Why: {reason}.", reason=h.reason)))
    common.console.print("  " + escape(_("To play it, type: {move}", move=h.text)))


# -- hot-seat ---------------------------------------------------------------------------------


@contextmanager
def private_screen() -> Iterator[None]:
    """One player's private view on the terminal's alternate screen: when it ends, the
    normal screen comes back as it was and nothing of the view is left in the scrollback.
    Written to a pipe, it only marks where the private view starts and ends."""
    if common.console.is_terminal:
        with common.console.screen():
            yield
    else:
        yield


def pass_device(game: Game, player: int, names: list[str]) -> None:
    """Hot-seat with hidden information: the hand-over screen naming the next player."""
    common.console.clear()
    try:
        name = "[/]" + who(game, player, names) + "[bold yellow]"
        common.console.input("[bold yellow]" + _("Pass the keyboard to {player} and press "
                                                 "Enter.", player=name) + "[/]")
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
                common.console.print(_("{player} has only one possible move; it is played "
                                       "for them.", player=who(game, p, names)))
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
        common.console.print(text if entry.player == CHANCE
                             else f"{who(game, entry.player, names)} {text}")

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
            common.console.print(escape(entry.setup))
        elif p == CHANCE:  # in words, once the set-up is over (a set-up of one event too)
            leading = all(q == CHANCE for q, _ in visible)
            if visible[-1][1] is not None and (not leading or state.current_player != CHANCE):
                tell(entry)
        elif visible[-1][1] is None:  # a secret until everyone has chosen
            secret.append(len(chronicle.entries) - 1)
            chosen = _("has chosen")
            common.console.print(f"{who(game, p, names)} {escape(chosen)}")
        else:
            tell(entry)
        for line in entry.after:
            common.console.print(f"  {escape(line)}")

    state = game.new_initial_state()
    try:
        meeple.play_out(state, rng, policy=choose, on_move=on_move)
    except _Quit:
        return state, False
    return state, True


@commands.command(context_settings=EXTRA, help=N_(
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
        common.console.print(
            f"[bold]{escape(game.title or game.name)}[/] — "
            + escape(_n("{n} player:", "{n} players:", players)) + " "
            + ", ".join(who(game, p, names) for p in range(players))
        )
        common.console.print(play_help())
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
        common.console.print(_("Game left unfinished."))
    if save is not None:
        common.console.print(escape(_("Record written to {file}", file=str(save))))
