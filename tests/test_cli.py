"""The ``meeple`` command: terminal play with typed moves (bad input included) and the server
as real processes; bot games as JSON records, replay, render, rules and clear errors in this
process with typer's runner (the output is the same; one error is also checked from a real
process)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

import meeple
from meeple.engine import game_class
from meeple.engine.records import move_numbers, moves_made, position_of

MEEPLE = [sys.executable, "-m", "meeple.cli"]
ENV = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb", "LANGUAGE": "en"}
GAMES = meeple.games()


def run(*args: str, input: str | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*MEEPLE, *args], input=input, capture_output=True, text=True, timeout=timeout, env=ENV
    )


def run_here(*args: str, input: str | None = None,
             language: str | None = "en") -> subprocess.CompletedProcess:
    """``meeple ARGS`` run in this process (typer's CliRunner), its status and output as
    :func:`run` gives them: for the tests where the process itself is not what is tested,
    without the second or more a new process spends importing every game. An exception the
    command lets out is raised here (the process would print it as a traceback).
    ``language``: the terminal's LANGUAGE (None: as this process has it)."""
    from typer.testing import CliRunner

    from meeple.cli import app, common

    env = {k: ENV[k] for k in ("COLUMNS", "NO_COLOR", "TERM")}
    if language is not None:
        env["LANGUAGE"] = language
    width = common.console._width  # the COLUMNS of this process when it was made, if any
    common.console.width = int(ENV["COLUMNS"])
    try:
        r = CliRunner().invoke(app, list(args), input=input, env=env)
    finally:
        common.console._width = width
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return subprocess.CompletedProcess(args, r.exit_code, r.stdout, r.stderr)


class Terminal:
    """Drives an interactive ``meeple play`` through pipes, reading up to each prompt."""

    PROMPT = "move (? for moves): "

    def __init__(self, *args: str):
        self.proc = subprocess.Popen(
            [*MEEPLE, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, bufsize=0, env=ENV,
        )

    def read_to_prompt(self) -> str | None:
        """Everything printed up to the next move prompt; None once the program has ended."""
        out: list[str] = []
        assert self.proc.stdout is not None
        while True:
            ch = self.proc.stdout.read(1)
            if ch == "":
                self.tail = "".join(out)
                return None
            out.append(ch)
            if ch == " " and "".join(out[-len(self.PROMPT):]) == self.PROMPT:
                return "".join(out)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()


def legal_moves_listed(screen: str) -> list[str]:
    """The moves of the last listing on the screen, in notation, in their numbered order."""
    lines = screen.splitlines()
    start = max(i for i, line in enumerate(lines) if re.search(r"\d+ legal moves?:", line))
    moves = []
    for n, line in enumerate(lines[start + 1:], 1):
        m = re.match(r"^\s+(\d+)\. (\S.*?)(?:\s{2,}|$)", line)
        if not m:
            break
        assert int(m.group(1)) == n, line
        moves.append(m.group(2))
    return moves


@pytest.mark.parametrize("name", GAMES)
def test_person_plays_a_whole_game_in_the_terminal(name):
    players = game_class(name).default_players()
    seats = ",".join(["human"] + ["random"] * (players - 1))
    term = Terminal("play", name, "--players", str(players), "--seats", seats, "--seed", "7")
    first = True
    turn = 0
    while (screen := term.read_to_prompt()) is not None:
        if first:  # bad input: a clear message and the same prompt, never a crash
            term.send("this is no move")
            screen = term.read_to_prompt()
            assert screen is not None
            assert "(type ? to list the legal moves)" in " ".join(screen.split())
            term.send("help")
            screen = term.read_to_prompt()
            assert screen is not None and "Commands: moves (or ?) lists" in screen
            first = False
        term.send("?")
        screen = term.read_to_prompt()
        assert screen is not None
        listed = legal_moves_listed(screen)
        assert len(listed) > 1  # a forced move is played without asking
        turn += 1
        if turn % 2:  # by the move's notation, or by its number in the list
            term.send(listed[0])
        else:
            term.send(str(len(listed)))
    assert term.proc.wait(timeout=60) == 0, term.tail
    # the end: one results table (from the last board or after it) and the winners
    heads = re.findall(r"^\s*Rank\s{2,}Player\s{2,}.*Total\s*$", term.tail, re.MULTILINE)
    assert len(heads) == 1, term.tail
    assert re.search(r"^Winners?: ", term.tail, re.MULTILINE), term.tail


@pytest.mark.parametrize("name", GAMES)
def test_bot_game_json_record_replays_and_renders(name, tmp_path):
    players = game_class(name).default_players()
    bot = "greedy" if name == "koplus" else "random"  # each game tests its greedy bot
    seats = ",".join([bot] + ["random"] * (players - 1))
    done = run_here("play", name, "--seats", seats, "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["game"] == name and record["terminal"]
    state = meeple.replay(record)
    assert state.is_terminal() and state.scores() == record["scores"]
    path = tmp_path / "game.json"
    path.write_text(done.stdout)
    out = tmp_path / "board.svg"
    r = run_here("render", str(path), "--move", "5", "-o", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert out.read_text().lstrip().startswith("<svg")
    r = run_here("replay", str(path), input="\n\nb\n5\nq\n")
    assert r.returncode == 0 and "move 5/" in r.stdout


def one_line_error(r: subprocess.CompletedProcess, text: str) -> None:
    """A refused command: status 2, one line on standard error holding ``text``, no
    traceback, nothing on standard output."""
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and r.stdout == "", r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert text in lines[0], lines[0]


def test_clear_errors_and_listings(tmp_path):
    one_line_error(run("play", "nosuchgame"), "no game named 'nosuchgame'.")
    one_line_error(run_here("play", "kozzo"), "no game named 'kozzo'; did you mean 'kozo'?")
    if "koplus" in GAMES:
        r = run_here("play", "koplus", "--bonus-needs-points", "maybe", "--seats", "random,random")
        one_line_error(r, "cannot read 'maybe' as bool")
        one_line_error(run_here("play", "koplus", "--colour", "red"),
                       "KoPlus has no option called 'colour'")
        r = run_here("play", "koplus", "--seats", "human,greedy", "--json")
        one_line_error(r, "every seat must be a bot")
        one_line_error(run_here("play", "koplus", "--seats", "greedy,wizard"),
                       "no bot named 'wizard'")
        r = run_here("rules", "KoPlus")  # game names in any case
        assert r.returncode == 0 and "KoPlus" in r.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    one_line_error(run_here("replay", str(bad)), "is not JSON")
    r = run_here("games")
    assert r.returncode == 0
    for name in GAMES:
        assert name in r.stdout


def test_every_bad_input_is_a_one_line_message(tmp_path):
    """Folders, binary files, unwritable outputs, records of the wrong shape or format and
    viewers who are not at the table: one line on standard error, no traceback."""
    name = GAMES[0]
    done = run_here("play", name, "--seats", "random,random", "--seed", "1", "--json")
    record = json.loads(done.stdout)
    good = tmp_path / "good.json"
    good.write_text(done.stdout)
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    one_line_error(run_here("replay", str(tmp_path)), "is a folder, not a record")
    one_line_error(run_here("replay", str(binary)), "is not a text file")
    one_line_error(run_here("replay", str(tmp_path / "none.json")), "no such file")
    one_line_error(run_here("render", str(good), "-o", "/nonexistent/x.svg"),
                   "cannot write /nonexistent/x.svg")
    one_line_error(run_here("render", str(good), "-o", str(tmp_path)), "it is a folder")
    one_line_error(run_here("play", name, "--seats", "random,random", "--save",
                            "/nonexistent/r.json"), "cannot write /nonexistent/r.json")
    one_line_error(run_here("arena", name, "--bots", "random", "--games", "1", "--no-progress",
                       "--out", "/dev/null/x"), "cannot make the folder /dev/null/x")
    one_line_error(run_here("replay", str(good), "--viewer", "7"),
                   "--viewer must be all, public or a seat from 0 to 1")
    one_line_error(run_here("render", str(good), "--viewer", "7"), "a seat from 0 to 1")
    cases = {
        "format": ({**record, "format": 2}, "record format 2 is not one this meeple reads"),
        "meta": ({**record, "meta": [1]}, "'meta' must be an object"),
        "seats": ({**record, "meta": {"seats": "x"}}, "meta 'seats' must be 2 names"),
        "moves": ({**record, "moves": {"a": 1}}, "'moves' must be a list"),
        "list": ([1, 2], "a record is a JSON object"),
    }
    for key, (data, message) in cases.items():
        path = tmp_path / f"{key}.json"
        path.write_text(json.dumps(data))
        one_line_error(run_here("replay", str(path)), message)
        one_line_error(run_here("render", str(path)), message)


def test_str_of_a_state_is_plain_text():
    """``print(state)`` shows plain text: no rich markup from the terminal pictures."""
    from rich.text import Text

    for name in GAMES:
        game = meeple.load(name)
        state = game.new_initial_state()
        texts = [str(state)]
        meeple.play_out(state, 3, max_actions=25)
        texts.append(str(state))
        meeple.play_out(state, 3)
        texts.append(str(state))
        for text in texts:
            assert not re.search(r"\[/?(bold|dim|red|green|yellow|blue|magenta|cyan|#)", text), \
                text
            assert "[/" not in text and Text.from_markup(text).plain == text
        assert "Rank" in texts[-1]


@pytest.mark.parametrize("name", GAMES)
def test_the_result_is_one_table_with_each_total_once(name):
    """The end of a game in the terminal: the last board and one results table (a row per
    player by name, each part of the score in its own column, one Total column), shown once
    on the screen, with no raw data (no braces or brackets) and the winners by name."""
    from rich.console import Console

    from meeple import cli

    players = game_class(name).default_players()
    game = meeple.load(name, players=players)
    seats = ["random"] * players
    state, finished = cli.run_game(game, seats, seed=5, quiet=True)
    assert finished
    names = cli.seat_names(seats)
    saved = cli.console
    cli.console = Console(width=200, color_system=None, highlight=False)
    try:
        with cli.console.capture() as out:
            cli.show_final(state, None, names)
        with cli.console.capture() as alone:
            cli.show_result(state, names)
    finally:
        cli.console = saved
    screen = out.get().splitlines()
    heads = [i for i, line in enumerate(screen) if re.match(r"\s*Rank\s{2,}Player\s{2,}", line)]
    assert len(heads) == 1, "the results table is shown more than once"
    result = alone.get()
    # the board first (no table, no totals in it), a blank line, then the one result
    board = "\n".join(screen[:heads[0]])
    assert out.get().endswith("\n\n" + result) and "Total" not in board
    assert board.endswith("\n\nFinal result")
    for note in (line.note for line in cli.final_lines(state) if line.note):
        assert out.get().count(note) == 1
    assert "{" not in result and "[" not in result and "P0" not in result
    lines = result.splitlines()
    head = next(line for line in lines if line.lstrip().startswith("Rank"))
    cells = [c.lower() for c in re.split(r"\s{2,}", head.strip())]
    assert cells[:2] == ["rank", "player"] and cells[-1] == "total"
    assert sum(c in ("total", "score", "final", "final score") for c in cells) == 1
    rows = [line for line in lines if re.match(r"\s*\d+\s{2,}Player \d", line)]
    assert len(rows) == players
    ranks = state.ranks()
    order = sorted(range(players), key=lambda p: (ranks[p], p))
    for row, p in zip(rows, order, strict=True):
        parts = re.split(r"\s{2,}", row.strip())
        assert parts[0] == str(ranks[p]) and parts[1] == names[p]
        assert float(parts[-1]) == state.scores()[p]
    winners = next(line for line in lines if line.startswith("Winner"))
    assert all(names[p] in winners for p in state.winners())


def replay_block(out: str, number: int, total: int) -> list[str]:
    """The lines ``meeple replay`` shows at move ``number`` of ``total`` (from its rule to
    the prompt)."""
    block = out.split(f"move {number}/{total}")[1].split("(Enter next")[0]
    return [x.strip() for x in block.splitlines()[1:] if x.strip()]


@pytest.mark.parametrize("name", GAMES)
def test_the_replay_counts_moves_as_the_log_does(name, tmp_path):
    """``meeple replay`` steps from move to move as the log numbers them: the set-up and
    chance steps are no moves; move n shows the sentence of the log's move n first, then
    what chance did after it; the last is the log's count of moves (``meeple render --move``
    counts the same)."""
    players = game_class(name).default_players()
    done = run_here("play", name, "--seats", ",".join(["random"] * players), "--seed", "4",
                    "--json")
    record = json.loads(done.stdout)
    moves = record["moves"]
    total = moves_made(moves)
    path = tmp_path / "game.json"
    path.write_text(done.stdout)
    numbers = move_numbers(moves)
    picks = sorted({1, 2, total // 2, total})
    r = run_here("replay", str(path), input="".join(f"{n}\n" for n in picks) + "q\n")
    assert r.returncode == 0, r.stderr
    shown = re.findall(r"move (\d+)/(\d+)", r.stdout)
    assert [int(n) for n, _ in shown] == [0, *picks]
    assert {int(of) for _, of in shown} == {total}
    for n in picks:
        j = numbers.index(n)  # the step of the move numbered n
        player, text = moves[j]
        before = meeple.replay(record, upto=j)
        sentence = before.describe(player, before.string_to_action(text, player))
        block = " ".join(replay_block(r.stdout, n, total))
        assert f"{sentence} ({text})" in " ".join(block.split()), (n, block)
    out = tmp_path / "board.svg"
    assert run_here("render", str(path), "--move", str(total), "-o", str(out)).returncode == 0
    bad = run_here("render", str(path), "--move", str(total + 1), "-o", str(out))
    assert bad.returncode == 2 and f"between 0 and {total}" in bad.stderr


def test_the_replay_log_shows_a_viewer_only_what_they_may_know(tmp_path):
    """Stepping through a record as one player shows each move as that player may know it
    then (``State.visible_history``): a secret draw or choice as hidden, the rest in full."""
    for name in GAMES:
        if game_class(name).perfect_information:
            continue
        players = game_class(name).default_players()
        seats = ",".join(["random"] * players)
        done = run_here("play", name, "--seats", seats, "--seed", "2", "--json")
        record = json.loads(done.stdout)
        steps = len(record["moves"])
        total = moves_made(record["moves"])
        hidden = next((n for n in range(1, steps) if moves_made(record["moves"][:n])
                       and meeple.replay(record, upto=n).visible_history(0)[n - 1][1] is None),
                      None)
        if hidden is None:
            continue
        path = tmp_path / f"{name}.json"
        path.write_text(done.stdout)
        number = moves_made(record["moves"][:hidden])  # the move it is (or follows)
        r = run_here("replay", str(path), "--viewer", "0", input=f"{number}\nq\n")
        assert r.returncode == 0
        player, text = record["moves"][hidden - 1]
        said = "A hidden draw." if player == -1 else "has chosen"
        lines = [x for x in replay_block(r.stdout, number, total) if x.endswith(said)]
        assert lines and all(text not in line for line in lines), lines
        r = run_here("replay", str(path), "--viewer", "0", input=f"{total}\nq\n")
        step = r.stdout.split(f"move {total}/{total}")[1].split("\n", 1)[1]
        last = position_of(record["moves"], total - 1)  # the last move's step
        player, text = record["moves"][last]
        before = meeple.replay(record, upto=last)
        sentence = before.describe(player, before.string_to_action(text, player))
        flat = " ".join(step.split())  # the terminal wraps a long line
        assert f"{sentence} ({text})" in flat, flat  # the end shows everything
        return
    pytest.skip("no game hides a move from a player")


@pytest.mark.parametrize("name", GAMES)
def test_every_replay_step_shows_each_viewer_only_what_they_may_know(name):
    """Every step of a whole game, for every seat, a spectator and ``all``: the move that
    led there as that viewer may know it (``State.visible_history``), never a choice that
    another player made at a simultaneous step still open, and everything for ``all``."""
    from rich.text import Text

    from meeple import cli
    from meeple.engine import CHANCE, SIMULTANEOUS

    players = game_class(name).default_players()
    game = meeple.load(name, players=players)
    state = meeple.play_out(game.new_initial_state(), 2)
    record = game.record(state, seats=["random"] * players)
    names = cli.record_names(record, players)
    state = game.new_initial_state()
    for n, (player, text) in enumerate(record["moves"], 1):
        before = state.clone()
        sentence = before.describe(player, before.string_to_action(text, player))
        state.apply(state.string_to_action(text, player), player)
        open_step = set()
        if state.current_player == SIMULTANEOUS:  # who has chosen at the open step
            pending = set(state.pending_players())
            for p, _ in reversed(state.history()):
                if p < 0 or p in pending or p in open_step:
                    break
                open_step.add(p)
        for viewer in [*range(players), None, cli.ALL]:
            line = Text.from_markup(cli.move_line(state, record, viewer, names, before)).plain
            known = (state.history() if viewer == cli.ALL
                     else state.visible_history(viewer))[n - 1][1] is not None
            secret = player in open_step and player != viewer and viewer != cli.ALL
            if viewer == cli.ALL or game.perfect_information or state.is_terminal():
                assert known
            if known and not secret:
                assert line.endswith(f"{sentence} ({text})"), (n, viewer, line)
                if player == CHANCE:
                    assert line == f"{sentence} ({text})", (n, viewer, line)
                else:
                    assert line.startswith(Text.from_markup(cli.who(game, player, names)).plain
                                           + " "), (n, viewer, line)
            else:
                assert text not in line and sentence not in line, (n, viewer, line)
                assert line.endswith("A hidden draw." if player == CHANCE else "has chosen")


def test_replay_viewer_all_shows_every_players_view(tmp_path):
    name = next((g for g in GAMES if not game_class(g).perfect_information), None)
    if name is None:
        pytest.skip("every game is of perfect information")
    done = run_here("play", name, "--seats", "random,random", "--seed", "2", "--json")
    path = tmp_path / "game.json"
    path.write_text(done.stdout)
    record = json.loads(done.stdout)
    hidden = next(n for n in range(1, len(record["moves"]))
                  if moves_made(record["moves"][:n])
                  and meeple.replay(record, upto=n).visible_history(0)[n - 1][1] is None)
    number = moves_made(record["moves"][:hidden])  # the move it is, or follows
    for args in ([], ["--viewer", "all"]):
        r = run_here("replay", str(path), *args, input=f"{number}\nq\n")
        assert r.returncode == 0, r.stderr
        step = r.stdout.split(f"move {number}/")[1]
        assert "everything" in step.splitlines()[0]
        player, text = record["moves"][hidden - 1]
        before = meeple.replay(record, upto=hidden - 1)
        sentence = before.describe(player, before.string_to_action(text, player))
        flat = " ".join(step.split("\n", 1)[1].split())  # the terminal wraps a long line
        assert f"{sentence} ({text})" in flat
        assert "What ▲ Player 1" in step or "What" in step and "Player 1" in step
        assert step.count("sees:") == 2
    r = run_here("replay", str(path), "--viewer", "public", input=f"{number}\nq\n")
    step = r.stdout.split(f"move {number}/")[1]
    assert "as a spectator sees it" in step.splitlines()[0]
    total = moves_made(record["moves"])
    player, text = record["moves"][hidden - 1]
    said = "A hidden draw." if player == -1 else "has chosen"
    lines = [x for x in replay_block(r.stdout, number, total) if x.endswith(said)]
    assert lines and all(text not in line for line in lines), lines


def test_since_your_last_turn_tells_falls_and_the_others_moves():
    """Kozo: a person's own move with what came of it (a fall, in its sentence, once; the
    points lost or won) and what the bots did after it are told at their next prompt, in the
    game's words, exactly and in order."""
    import random

    from rich.text import Text

    from meeple import cli

    if "kozo" not in GAMES:
        pytest.skip("no Kozo")
    game = meeple.load("kozo", players=3)
    names = cli.seat_names(["human", "random", "random"])
    falls_told = 0
    for seed in range(30):
        state = game.new_initial_state()
        chronicle = cli.Chronicle(game, names)
        expected: list[str] = []  # what the next summary for Player 1 must say
        fell = False

        def on_move(st, p, a, chronicle=chronicle, expected=expected):
            nonlocal fell
            before = chronicle.shadow.observation(None)["last_check"]
            after = st.observation(None)["last_check"]
            scores = st.observation(None)["scores"]
            old = chronicle.shadow.observation(None)["scores"]
            chronicle.record(st, p, a)
            entry = chronicle.entries[-1]
            if p == 0:
                expected.clear()
                expected.append(f"Player 1 {entry.sentence}")
                if after and after != before and after.get("result") == "fallen":
                    assert "the tower falls" in entry.sentence
                    fell = True
            elif p >= 0:
                expected.append(f"{names[p]} {entry.sentence}")
            else:
                expected.append(entry.sentence)
            for q, (x, y) in enumerate(zip(old, scores, strict=True)):
                if x != y:
                    n = abs(y - x)
                    expected.append(f"{names[q]} {'gains' if y > x else 'loses'} {n:g} "
                                    f"point{'s' if n != 1 else ''} (now {y:g})")
            assert entry.after == expected[len(expected) - len(entry.after):]

        def policy(st, p, rng, chronicle=chronicle, expected=expected):
            if p == 0 and chronicle.entries:
                told = [Text.from_markup(x).plain for x in chronicle.since(st, 0, limit=999)]
                assert told == expected, (told, expected)
                assert not any("toppled" in t for t in told)
                falls = sum("the tower falls" in t for t in told)
                assert falls == sum("the tower falls" in t for t in expected)
            return rng.choice(st.legal_actions(p))

        meeple.play_out(state, random.Random(seed), policy=policy, on_move=on_move)
        falls_told += fell
        if falls_told >= 2:
            return
    pytest.fail("Player 1 never toppled the tower")


def test_the_terminal_says_a_fall_once(tmp_path):
    """Each move of a watched Kozo game is one line, its sentence: a fall is said there once
    ("the tower falls"), never again below it; the lines below a move say only the points
    won or lost, with the new total."""
    if "kozo" not in GAMES:
        pytest.skip("no Kozo")
    for seed in range(1, 12):
        path = tmp_path / f"kozo-{seed}.json"
        r = run_here("play", "kozo", "--players", "2", "--seats", "random,random", "--seed",
                str(seed), "--save", str(path))
        assert r.returncode == 0, r.stderr
        record = json.loads(path.read_text())
        moves = record["moves"]
        said = []
        state = meeple.replay(record, upto=0)
        for player, text in moves:
            action = state.string_to_action(text, player)
            said.append((player, state.describe(player, action), text))
            state.apply(action, player)
        falls = [x for x in said if "the tower falls" in x[1]]
        if not falls:
            continue
        played = r.stdout.split("\nKozo  ")[0]  # the moves, before the final board
        flat = " ".join(played.split())  # the terminal wraps a long line
        assert flat.count("the tower falls") == len(falls)
        assert "toppled" not in played and "fell" not in played
        for player, sentence, text in said:
            if player >= 0:
                assert f"{sentence} ({text})" in flat
        follow = [line for line in played.splitlines() if line.startswith("  ")]
        assert follow and all(re.fullmatch(
            r"  Player [12] \(Beginner bot\) (gains|loses) \d+ points? \(now \d+\)", line)
            for line in follow), follow
        return
    pytest.fail("no tower fell in the games watched")


def test_the_options_are_listed_in_player_words_with_the_names_to_type():
    """``meeple games`` and ``meeple rules``: each option by its title with its default in
    words, and the name (and the values) to type after --option."""
    from meeple.cli import option_summary, shown

    r = run_here("games")
    assert r.returncode == 0
    flat = " ".join(r.stdout.split())
    for name in GAMES:
        for o in game_class(name).option_schema:
            summary = " ".join(plain_text(option_summary(o)).split())
            assert summary == f"{o.title}: {shown(o, o.default)}" + (
                " *" if o.reconstructed else "") + f" ({o.name})"
            assert summary in flat, summary
    assert "=False" not in r.stdout and "[R]" not in r.stdout and "'" + "static" not in flat
    assert "Change an option with --option name=value" in flat
    if "kozo" in GAMES:
        r = run_here("rules", "kozo")
        assert r.returncode == 0
        flat = " ".join(r.stdout.split())
        part = flat.split("Options", 1)[1].split("The full rules", 1)[0]
        assert ("Random sizes: The scoring tiles lie face down; a tile drawn at random says "
                "which size to play. As it comes: off. To change it: --option "
                "random_size=VALUE, with VALUE on or off.") in part
        assert ("Who decides a fall *: How the program decides whether the tower falls. As it "
                "comes: balance worked out exactly (fast). To change it: --option "
                "stability=VALUE, with VALUE one of: static: balance worked out exactly (fast) "
                "mujoco: a physics simulation (slower)") in part
        assert ("Shaky hands *: Each block lands a little off where it was aimed, by up to this "
                "many cube edges; 0 for a steady hand. As it comes: none. To change it: "
                "--option tremor=VALUE, with VALUE a number from 0 to 0.2 (0 for none).") in part
        assert "Rounds: How many rounds are played. As it comes: 3. To change it: --option " \
            "rounds=VALUE, with VALUE a whole number from 1 to 9." in part
        assert "* no source says how the printed game does this; this is our reading." in part
        for o in game_class("kozo").option_schema:
            assert f"--option {o.name}=VALUE" in part
    if "kontor" in GAMES:
        r = run_here("rules", "kontor")
        flat = " ".join(r.stdout.split())
        assert ("To change it: --option special_cards=VALUE, with VALUE on (with special cards)"
                " or off (without special cards).") in flat
    one = run_here("play", "kozo", "--colour", "red")
    assert one.returncode != 0
    assert ("its options are: Random sizes (random_size), Your neighbour chooses "
            "(opponent_choice), Shaky hands (tremor)") in one.stderr


def plain_text(markup: str) -> str:
    from rich.text import Text

    return Text.from_markup(markup).plain


def test_a_forced_move_is_played_with_a_note_instead_of_asking():
    """Exactly one legal move: it is played for the person, with a note, and nothing asked."""
    import random

    from rich.console import Console

    from meeple import cli

    class NoQuestions(cli.MovePrompt):
        def ask(self, markup: str, words: list[str]) -> str:
            raise AssertionError("a forced move was asked for")

    for name in GAMES:
        game = meeple.load(name)
        for seed in range(10):
            state = game.new_initial_state()
            rng = random.Random(seed)
            while not state.is_terminal():
                p = state.current_player
                players = [p] if p >= 0 else state.pending_players() if p != -1 else []
                forced = [q for q in players if len(state.legal_actions(q)) == 1]
                if forced:
                    q = forced[0]
                    saved = cli.console
                    cli.console = Console(width=200, color_system=None, highlight=False)
                    try:
                        with cli.console.capture() as out:
                            action = cli.ask_human(state, q, [], NoQuestions())
                    finally:
                        cli.console = saved
                    assert action == state.legal_actions(q)[0]
                    assert "Only one move is possible" in out.get()
                    assert "it is played for you" in out.get()
                    return
                meeple.play_out(state, rng, max_actions=1)
    pytest.skip("no game reached a forced move")


def test_serve_takes_the_allowed_origins_of_the_live_socket(tmp_path, processes):
    """``meeple serve --allowed-origin`` reaches the server: a page of that origin may open a
    table's socket, another origin may not; ``--trusted-proxy`` is accepted."""
    import socket
    import time
    import urllib.request

    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = processes(  # ended with the test, however it goes
        [*MEEPLE, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'm.db'}",
         "--allowed-origin", "https://good.example", "--trusted-proxy", "127.0.0.2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV,
    )
    try:
        deadline = time.monotonic() + 120  # the server imports every game first
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.2)
        url = f"ws://127.0.0.1:{port}/ws/tables/nosuchtable"
        with connect(url, origin="https://good.example", open_timeout=10) as ws:  # type: ignore[arg-type]
            assert json.loads(ws.recv(timeout=10))["type"] == "error"  # no such table, but open
        with pytest.raises(InvalidStatus):
            connect(url, origin="https://evil.example", open_timeout=10)  # type: ignore[arg-type]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
