"""``meeple replay`` and ``meeple review``: a record read and checked, stepped through as
everyone, a spectator or one player saw it, and a finished game reviewed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

import meeple
from meeple.bots import bot_names
from meeple.cli import common
from meeple.cli.common import (
    handled,
    reason,
    said,
    seat_names,
    show,
    show_final,
    who,
    writable,
)
from meeple.engine import CHANCE, State, i18n
from meeple.engine.i18n import N_, words
from meeple.engine.look import seat_name
from meeple.engine.records import check_record, moves_made, position_of

_, _n = words(__file__)
commands = typer.Typer()
"""The commands of this module (``meeple.cli`` adds them to ``meeple``)."""


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
    """Draw the position after move ``n`` of a replay, numbered as the log numbers moves
    (the set-up and chance steps are no moves; 0: the start, set up), the chance that
    follows the move resolved: the move and what chance did after it, as ``viewer`` may know
    them now, then the board (every player's view for ``all``)."""
    steps = record["moves"]
    total = moves_made(steps)
    at = position_of(steps, n)
    state = meeple.replay(record, upto=at)
    game = state.game
    seen = (_("everything") if viewer == ALL else _("as a spectator sees it") if viewer is None
            else _("as {player} sees it", player=seat_name(int(viewer), names)))
    common.console.rule(escape(_("move {n}/{total} · {seen}", n=n, total=total, seen=seen)))
    if n == 0:
        if at:
            common.console.print(escape(said(state.describe_setup, _("The game is set up."))))
    else:
        before = meeple.replay(record, upto=position_of(steps, n - 1))
        for step in range(len(before.history()), at):  # the move, then chance after it
            after = meeple.replay(record, upto=step + 1)
            line = move_line(after, record, viewer, names, before)
            if line is not None:
                common.console.print(line)
            before = after
    if at == len(steps) and final.is_terminal():
        show_final(final, None if viewer == ALL else viewer, names)  # type: ignore[arg-type]
    elif viewer == ALL and not game.perfect_information:
        for p in range(game.num_players):
            name = who(game, p, names) + "[bold]"
            common.console.print("[bold]" + _("What {player} sees:", player=name) + "[/]")
            show(state, p, names)
    else:
        show(state, None if viewer == ALL else viewer, names)  # type: ignore[arg-type]


@commands.command(help=N_("Step through a record: Enter = next, b = back, a number = go to that "
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
    total = moves_made(record["moves"])  # moves as the log numbers them
    names = record_names(record, final.game.num_players)
    n = 0
    while True:
        show_replay_step(record, final, n, seat, names)
        try:
            keys = escape(_("(Enter next, b back, N go to move N, q quit)"))
            cmd = common.console.input(f"[dim]{keys}[/] ").strip()
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


@commands.command("review", help=N_(
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
        common.console.print(escape(line))
    if svg_out is not None:
        svg_out.write_text(chart_svg(result, game.seat_colours(), names), encoding="utf-8")
        common.console.print(escape(_("The chart is in {file}.", file=str(svg_out))))
