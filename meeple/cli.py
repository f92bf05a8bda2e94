"""The ``meeple`` command: play in the terminal, replay and render records, read the rules,
serve the web platform, run bot arenas."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table
from rich.text import Text

import meeple
from meeple.arena.command import arena as arena_command
from meeple.bots import bot_names, make_bot, view_for
from meeple.engine import CHANCE, SIMULTANEOUS, Game, State, game_class
from meeple.engine.look import PALETTE, seat_name
from meeple.engine.scores import ScoreLine, score_lines, score_table_text

app = typer.Typer(
    help="Play and study KoPlus, Kozo, Mops Royal, Botanik and Kontor.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console(highlight=False)
EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}


def fail(message: str) -> None:
    """Print an error in red and exit with status 2."""
    console.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(2)


def parse_options(name: str, pairs: list[str], extra: list[str]) -> dict[str, Any]:
    """Game options from ``--option key=value`` pairs and ``--key value`` extra arguments."""
    cls = game_class(name)
    texts: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise meeple.OptionError(f"--option needs key=value, got {pair!r}")
        texts[key.strip().replace("-", "_")] = value.strip()
    i = 0
    while i < len(extra):
        arg = extra[i]
        if not arg.startswith("--"):
            raise meeple.OptionError(f"unexpected argument {arg!r}")
        key, sep, value = arg[2:].partition("=")
        if not sep:
            if i + 1 >= len(extra):
                raise meeple.OptionError(f"--{key} needs a value")
            value = extra[i + 1]
            i += 1
        texts[key.replace("-", "_")] = value
        i += 1
    known = {o.name for o in cls.option_schema}
    for key in texts:
        if key not in known:
            raise meeple.OptionError(
                f"unknown option {key!r} for {name}; its options are: {', '.join(known) or 'none'}"
            )
    return {key: cls.option(key).parse(value, name) for key, value in texts.items()}


def seat_names(seats: list[str]) -> list[str]:
    """Each seat's one display name: "Player N" for a person, with the bot in words for a
    bot ("Player 2 (greedy bot)", "Player 3 (search bot, level 4)")."""
    out = []
    for p, spec in enumerate(seats):
        kind, _, level = spec.partition(":")
        if kind == "human" or not kind:
            out.append(seat_name(p))
            continue
        bot = "search bot" if kind == "mcts" else f"{kind} bot"
        out.append(f"{seat_name(p)} ({bot}{f', level {level}' if level else ''})")
    return out


def who(game: Game, player: int, names: list[str]) -> str:
    """A player as rich markup: the seat's colour symbol and name in the seat's colour."""
    if player == CHANCE:
        return "chance"
    colours = game.seat_colours() or PALETTE
    colour = colours[player % len(colours)]
    return f"[bold {colour.fill}]{colour.symbol} {escape(seat_name(player, names))}[/]"


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


def result_table(state: State, names: list[str]) -> str:
    """The final breakdown as one plain table (``scores.score_table_text``: rank, player,
    each part of the score, one total; the notes on ties below)."""
    return score_table_text(final_lines(state), names, state.ranks())


def show_result(state: State, names: list[str]) -> None:
    """The final result: the one results table (the board pictures never hold it) and the
    winners. Players' names are drawn in their colours."""
    game = state.game
    colours = game.seat_colours() or PALETTE
    out = []
    for row in escape(result_table(state, names)).splitlines():
        for p in range(game.num_players):
            name = escape(seat_name(p, names))
            if f"  {name}  " in f"  {row}  " or row.startswith(f"{name}: "):
                fill = colours[p % len(colours)].fill
                row = row.replace(name, f"[bold {fill}]{name}[/]", 1)
                break
        out.append(row)
    console.print("[bold]Final result[/]")
    console.print("\n".join(out))
    winners = state.winners()
    console.print(f"[bold]Winner{'s' if len(winners) > 1 else ''}:[/] "
                  + ", ".join(who(game, p, names) for p in winners))


def show_final(state: State, viewer: int | None, names: list[str]) -> None:
    """The last position, then the final result: the board, a blank line and the one table."""
    show(state, viewer, names)
    console.print()
    show_result(state, names)


def list_moves(state: State, player: int) -> None:
    """Print the legal moves of ``player`` in notation, with their labels."""
    actions = state.legal_actions(player)
    lines = []
    for a in actions:
        d = state.describe_action(a, player)
        label = d.get("label") or ""
        note = f"  [dim]{escape(label)}[/]" if label and label != d["text"] else ""
        lines.append(escape(d["text"]) + note)
    console.print(f"[bold]{len(actions)} legal move{'s' if len(actions) != 1 else ''}:[/]")
    if len(lines) > 40 and all("[dim]" not in x for x in lines):
        console.print("  " + "  ".join(lines))
    else:
        for line in lines:
            console.print("  " + line)


HELP = (
    "Type a move in the game's notation. Commands: [bold]?[/] or [bold]moves[/] lists the "
    "legal moves, [bold]board[/] redraws, [bold]rules[/] shows the rules, [bold]quit[/] ends."
)


def ask_human(state: State, player: int, names: list[str]) -> int | None:
    """Prompt ``player`` until they type a legal move; ``None`` if they quit."""
    show(state, player, names)
    while True:
        try:
            text = console.input(f"{who(state.game, player, names)} move (? for moves): ")
        except EOFError:
            return None
        text = text.strip()
        low = text.lower()
        if low in ("?", "moves", "m"):
            list_moves(state, player)
            continue
        if low in ("help", "h"):
            console.print(HELP)
            continue
        if low in ("board", "b"):
            show(state, player, names)
            continue
        if low == "rules":
            console.print(Markdown(state.game.rules_markdown()))
            continue
        if low in ("quit", "q", "exit"):
            return None
        if not text:
            continue
        try:
            action = state.string_to_action(text, player)
            state.check(action, player)
            return action
        except (meeple.NotationError, meeple.IllegalAction) as e:
            console.print(f"[red]{escape(str(e))}[/]  (type ? to list the legal moves)")


def pass_device(game: Game, player: int, names: list[str]) -> None:
    """Hot-seat with hidden information: clear the screen and wait for the next player."""
    console.clear()
    try:
        console.input(f"[bold yellow]Pass the keyboard to[/] {who(game, player, names)} "
                      "[bold yellow]and press Enter.[/]")
    except EOFError:
        pass
    console.clear()


class _Quit(Exception):
    """A person left the game."""


def run_game(
    game: Game,
    seats: list[str],
    seed: int | None,
    quiet: bool,
) -> tuple[State, bool]:
    """Play a game with the given seats; return the final state and whether it finished."""
    rng = random.Random(seed)
    bots = {
        p: make_bot(spec, game, seed=None if seed is None else seed * 100 + p)
        for p, spec in enumerate(seats)
        if spec != "human"
    }
    names = seat_names(seats)
    humans = [p for p, s in enumerate(seats) if s == "human"]
    last_human: int | None = None

    def choose(state: State, p: int, rng: random.Random) -> int:
        nonlocal last_human
        if p in bots:
            action = bots[p].act(view_for(state, p))
        else:
            if len(humans) > 1 and p != last_human and not game.perfect_information:
                pass_device(game, p, names)
            last_human = p
            chosen = ask_human(state, p, names)
            if chosen is None:
                raise _Quit
            action = chosen
        if not quiet:
            # a choice made at a simultaneous node stays secret until everyone has chosen
            move = "has chosen" if state.current_player == SIMULTANEOUS else escape(
                state.action_to_string(action, p))
            console.print(f"{who(game, p, names)}: {move}")
        return action

    state = game.new_initial_state()
    try:
        meeple.play_out(state, rng, policy=choose)
    except _Quit:
        return state, False
    return state, True


@app.command(context_settings=EXTRA)
def play(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="koplus, kozo, mops_royal, ..."),
    players: int | None = typer.Option(None, "--players", "-p", help="number of players"),
    seats: str | None = typer.Option(
        None, "--seats", help="comma-separated: human, random, greedy, mcts:1..5"
    ),
    seed: int | None = typer.Option(None, "--seed", help="seed for chance and bots"),
    as_json: bool = typer.Option(False, "--json", help="bots only: play silently, print record"),
    save: Path | None = typer.Option(None, "--save", help="write the record to this file"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option key=value"),
) -> None:
    """Play a game in the terminal against bots, or hot-seat. Game options: --name value."""
    try:
        options = parse_options(game_name, option, list(ctx.args))
        seat_list = [s.strip() for s in seats.split(",")] if seats else None
        if players is None:
            players = len(seat_list) if seat_list else game_class(game_name).default_players()
        game = meeple.load(game_name, players=players, **options)
        if seat_list is None:
            seat_list = ["human"] + ["greedy"] * (players - 1)
        if len(seat_list) != players:
            raise meeple.OptionError(
                f"--seats lists {len(seat_list)} seats but the game has {players} players"
            )
        for s in seat_list:
            if s != "human":
                make_bot(s, game)  # validates the spec
    except meeple.OptionError as e:
        fail(str(e))
        return
    if as_json and "human" in seat_list:
        fail("--json plays bots only: every seat must be a bot (e.g. --seats greedy,random)")
    if not as_json:
        names = seat_names(seat_list)
        console.print(
            f"[bold]{escape(game.title or game.name)}[/] — {players} players: "
            + ", ".join(who(game, p, names) for p in range(players))
        )
        console.print(HELP)
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
        console.print("Game left unfinished.")
    if save is not None:
        console.print(f"Record written to {save}")


def load_record(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        fail(f"no such file: {path}")
    except json.JSONDecodeError as e:
        fail(f"{path} is not JSON: {e}")
    return {}


@app.command()
def replay(
    file: Path = typer.Argument(..., help="a record written by --save or --json"),
    viewer: int | None = typer.Option(None, "--viewer", help="see as this player (default: all)"),
) -> None:
    """Step through a record: Enter = next, b = back, a number = go to that move, q = quit."""
    record = load_record(file)
    try:
        final = meeple.replay(record)
    except meeple.RecordError as e:
        fail(str(e))
        return
    total = len(record["moves"])
    seats = [str(x) for x in record.get("meta", {}).get("seats", [])]
    names = seat_names(seats) if len(seats) == final.game.num_players else []
    n = 0
    while True:
        state = meeple.replay(record, upto=n)
        console.rule(f"move {n}/{total}")
        if n:
            p, action = state.visible_history(viewer)[n - 1]
            if action is not None:
                move = escape(str(record["moves"][n - 1][1]))
            else:
                move = "a hidden draw" if p == CHANCE else "has chosen"
            console.print(f"{who(state.game, p, names)}: {move}")
        if n == total and final.is_terminal():
            show_final(final, viewer, names)
        else:
            show(state, viewer, names)
        try:
            cmd = console.input("[dim](Enter next, b back, N go to move N, q quit)[/] ").strip()
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


@app.command()
def render(
    file: Path = typer.Argument(..., help="a game record"),
    move: int | None = typer.Option(None, "--move", "-m", help="after this many moves"),
    out: Path = typer.Option(Path("board.svg"), "-o", "--out", help="SVG file to write"),
    viewer: int | None = typer.Option(None, "--viewer", help="draw as this player sees it"),
) -> None:
    """Draw the board of a record after a given move as SVG."""
    record = load_record(file)
    total = len(record.get("moves", []))
    if move is not None and not 0 <= move <= total:
        fail(f"--move must be between 0 and {total}")
    try:
        state = meeple.replay(record, upto=move)
    except meeple.RecordError as e:
        fail(str(e))
        return
    seats = [str(x) for x in record.get("meta", {}).get("seats", [])]
    names = seat_names(seats) if len(seats) == state.game.num_players else None
    out.write_text(state.game.renderer.svg(state.observation(viewer), names))
    console.print(f"wrote {out}")


@app.command()
def gallery(
    which: str = typer.Argument(..., metavar="GAME|all", help="a game's name, or all"),
    out: Path = typer.Option(Path("gallery"), "-o", "--out", help="folder for the pictures"),
    png: bool = typer.Option(True, "--png/--no-png", help="also write PNG (cairosvg)"),
    docs: Path | None = typer.Option(None, "--docs", help="also write a page showing them"),
) -> None:
    """Draw sample positions (start, middle, end) of every configuration as SVG and PNG."""
    from meeple.gallery import write_docs, write_gallery

    try:
        pics = write_gallery(which, out, with_png=png)
    except meeple.OptionError as e:
        fail(str(e))
        return
    console.print(f"wrote {len(pics)} pictures to {out}")
    if docs is not None:
        console.print(f"wrote {write_docs(pics, docs, out)}")


@app.command()
def rules(game_name: str = typer.Argument(..., metavar="GAME")) -> None:
    """Show the rules of a game (reconstructed rules are marked)."""
    try:
        cls = game_class(game_name)
    except meeple.OptionError as e:
        fail(str(e))
        return
    console.print(Markdown(cls.rules_markdown()))


@app.command("games")
def list_games() -> None:
    """List the games with their player counts and options."""
    table = Table(title="meeple games")
    for col in ("game", "players", "options"):
        table.add_column(col)
    for name in meeple.games():
        d = game_class(name).describe()
        opts = ", ".join(
            f"{o['name']}={o['default']!r}" + (" [R]" if o["reconstructed"] else "")
            for o in d["options"]
        )
        table.add_row(f"{name}\n[dim]{d['title']}[/]", ", ".join(map(str, d["players"])), opts)
    console.print(table)
    console.print(f"[dim]bots: {', '.join(bot_names())}; [R] = reconstructed default[/]")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="port to listen on"),
    db: str | None = typer.Option(
        None, help="database URL (default: SQLite in ./meeple-data); postgresql+psycopg://..."
    ),
    redis: str | None = typer.Option(None, help="Redis URL to fan out updates between servers"),
) -> None:
    """Start the web platform."""
    from meeple.server import serve as run_server

    console.print(f"meeple serving on http://{host}:{port}/")
    run_server(host=host, port=port, db=db, redis=redis)


app.command("arena")(arena_command)


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
