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
from meeple.engine import CHANCE, SIMULTANEOUS, Game, State, game_class, sample_chance

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


def show(state: State, viewer: int | None) -> None:
    """Draw the state as ``viewer`` sees it."""
    console.print(Text.from_markup(state.game.renderer.text(state.observation(viewer))))


def show_result(state: State, names: list[str]) -> None:
    """The final scores, ranks and breakdown."""
    obs = state.observation(None)
    table = Table(title="Final result")
    table.add_column("rank")
    table.add_column("player")
    table.add_column("score", justify="right")
    breakdown = obs.get("final_breakdown")
    keys: list[str] = []
    if isinstance(breakdown, list) and breakdown and isinstance(breakdown[0], dict):
        keys = [k for k in breakdown[0] if k not in ("player", "final")]
        for k in keys:
            table.add_column(k.replace("_", " "), justify="right")
    ranks = state.ranks()
    for p in sorted(range(len(names)), key=lambda q: ranks[q]):
        row = [str(ranks[p]), f"P{p} {names[p]}", f"{state.scores()[p]:g}"]
        if keys:
            row += [str(breakdown[p].get(k, "")) for k in keys]
        table.add_row(*row)
    console.print(table)
    winners = ", ".join(f"P{p} {names[p]}" for p in state.winners())
    console.print(f"[bold]Winner{'s' if len(state.winners()) > 1 else ''}:[/] {winners}")


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
    show(state, player)
    while True:
        try:
            text = console.input(f"[bold]P{player} {names[player]}[/] move (? for moves): ")
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
            show(state, player)
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


def pass_device(player: int, names: list[str]) -> None:
    """Hot-seat with hidden information: clear the screen and wait for the next player."""
    console.clear()
    try:
        console.input(f"[bold yellow]Pass the keyboard to P{player} {names[player]}[/] "
                      "and press Enter.")
    except EOFError:
        pass
    console.clear()


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
    names = [spec for spec in seats]
    state = game.new_initial_state()
    humans = [p for p, s in enumerate(seats) if s == "human"]
    last_human: int | None = None
    while not state.is_terminal():
        cp = state.current_player
        if cp == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        actors = state.pending_players() if cp == SIMULTANEOUS else [cp]
        for p in actors:
            if p in bots:
                action = bots[p].act(view_for(state, p))
            else:
                if len(humans) > 1 and p != last_human and not game.perfect_information:
                    pass_device(p, names)
                last_human = p
                action = ask_human(state, p, names)
                if action is None:
                    return state, False
            if not quiet:
                # a choice made at a simultaneous node stays secret until everyone has chosen
                move = "has chosen" if cp == SIMULTANEOUS else escape(
                    state.action_to_string(action, p))
                console.print(f"[cyan]P{p} {names[p]}:[/] {move}")
            state.apply(action, p)
            if state.current_player != SIMULTANEOUS:
                break
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
        console.print(
            f"[bold]{game.title or game.name}[/] — {players} players: "
            + ", ".join(f"P{p} {s}" for p, s in enumerate(seat_list))
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
        show(state, None)
        show_result(state, seat_list)
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
    n = 0
    while True:
        state = meeple.replay(record, upto=n)
        console.rule(f"move {n}/{total}")
        if n:
            p, text = record["moves"][n - 1]
            who = "chance" if p == CHANCE else f"P{p}"
            console.print(f"[cyan]{who}:[/] {escape(text)}")
        show(state, viewer)
        if n == total and final.is_terminal():
            show_result(final, [str(s) for s in record.get("meta", {}).get("seats", [])]
                        or [f"player {p}" for p in range(final.game.num_players)])
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
    out.write_text(state.game.renderer.svg(state.observation(viewer)))
    console.print(f"wrote {out}")


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
