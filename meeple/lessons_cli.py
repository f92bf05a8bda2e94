"""``meeple learn GAME`` and the how-to-play part of ``meeple rules GAME``: the same steps and
texts as the browser's tutorial (``meeple/engine/lessons.py``), in the terminal. The command
line (``meeple/cli.py``) hands in its console, its move prompt and its way of naming a player,
and plays the closing game against the weakest bot with its own play loop.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

import meeple
from meeple.bots import bot_choices
from meeple.engine import Game
from meeple.engine.lessons import PICTURE, Lesson, Tutorial, howto_markdown, picture_text
from meeple.engine.look import seat_names
from meeple.engine.registry import game_class, game_lessons

Ask = Callable[[str, list[str]], str]
"""Shows a prompt (rich markup) and reads one line, offering ``words`` to complete."""
Who = Callable[[Game, int, list[str]], str]
"""A player as rich markup."""
COMMANDS = ("moves", "board", "help", "skip", "quit")
LEARN_HELP = (
    "Type the move the step asks for in the game's notation (the step names it), or the "
    "number of a listed move. [bold]?[/] lists the moves, [bold]board[/] redraws, "
    "[bold]skip[/] goes on to the game, [bold]quit[/] ends."
)


def print_howto(name: str, console: Console) -> None:
    """The game's "How to play" page, each picture drawn by the game's own terminal renderer."""
    cls = game_class(name)
    lesson = game_lessons(name).LESSON
    game = cls(lesson.players, **dict(lesson.options))
    text = howto_markdown(cls)
    at = 0
    for m in PICTURE.finditer(text):
        console.print(Markdown(text[at:m.start()]))
        console.print(Text.from_markup(picture_text(game, lesson, m.group(2))))
        console.print(f"[italic]{escape(m.group(1))}[/]\n")
        at = m.end()
    console.print(Markdown(text[at:]))


def closing_seats(name: str) -> list[str]:
    """The seats of the game that ends the tutorial: the learner, then the weakest bot."""
    lesson = game_lessons(name).LESSON
    return ["human", *[str(bot_choices()[0]["spec"])] * (lesson.players - 1)]


def closing_game(name: str) -> Game:
    """The game that ends the tutorial (the tutorial's player count and options)."""
    lesson = game_lessons(name).LESSON
    return meeple.load(name, players=lesson.players, **dict(lesson.options))


def _step_screen(console: Console, tutorial: Tutorial, names: list[str]) -> None:
    step = tutorial.step
    count = len(tutorial.lesson.steps)
    console.print(Rule(f"Step {tutorial.index + 1} of {count}: {step.title}"))
    state = tutorial.state
    console.print(Text.from_markup(state.game.renderer.text(state.observation(step.player),
                                                            names)))
    console.print(escape(step.text))
    hint = step.expect[0]
    label = state.describe_action(state.string_to_action(hint, step.player), step.player)
    console.print(f"[dim]That is: {escape(str(label.get('label') or hint))} — type "
                  f"[bold]{escape(hint)}[/][/]")


def _list_moves(console: Console, moves: list[tuple[int, str, str]]) -> None:
    console.print(f"[bold]{len(moves)} legal move{'s' if len(moves) != 1 else ''}:[/] "
                  "[dim](type a move or its number)[/]")
    width = len(str(len(moves)))
    for i, (_, text, label) in enumerate(moves, 1):
        note = f"  [dim]{escape(label)}[/]" if label and label != text else ""
        console.print(f"  {i:>{width}}. {escape(text)}{note}")


def walk(name: str, console: Console, ask: Ask, who: Who) -> bool:
    """Introduce the tutorial of ``name`` and walk its steps at the prompt; whether the
    learner goes on to the game (True) or quits (False)."""
    lesson = game_lessons(name).LESSON
    game = closing_game(name)
    names = seat_names(lesson.players)
    weakest = bot_choices()[0]
    console.print(f"[bold]Learn to play {escape(game.title or name)}[/]: "
                  f"{len(lesson.steps)} short steps on the board, then a whole game against "
                  f"the {escape(str(weakest.get('name') or weakest['spec']))} bot.")
    console.print(LEARN_HELP)
    if not _walk(game, lesson, names, console, ask, who):
        console.print("Come back any time: meeple learn " + name)
        return False
    console.print(Rule("Your first game"))
    console.print(escape(lesson.closing))
    return True


def _walk(game: Game, lesson: Lesson, names: list[str], console: Console, ask: Ask,
          who: Who) -> bool:
    tutorial = Tutorial(game, lesson)
    while not tutorial.finished:
        _step_screen(console, tutorial, names)
        state, step = tutorial.state, tutorial.step
        moves = []
        for a in state.legal_actions(step.player):
            d = state.describe_action(a, step.player)
            moves.append((a, str(d["text"]), str(d.get("label") or "")))
        words = [text for _, text, _ in moves] + list(COMMANDS)
        while True:
            try:
                typed = ask(f"{who(game, step.player, names)} move (? for moves): ",
                            words).strip()
            except EOFError:
                return False
            low = typed.lower()
            if not typed:
                continue
            if low in ("?", "moves", "m"):
                _list_moves(console, moves)
                continue
            if low in ("board", "b"):
                _step_screen(console, tutorial, names)
                continue
            if low in ("help", "h"):
                console.print(LEARN_HELP)
                continue
            if low in ("quit", "q", "exit"):
                return False
            if low == "skip":
                return True
            move: str | int = typed
            if typed.isdigit() and 1 <= int(typed) <= len(moves):
                move = moves[int(typed) - 1][0]
            replies = tutorial.replies()
            verdict = tutorial.try_move(move)
            if verdict.ok:
                console.print(f"[bold green]Yes.[/] {escape(verdict.message)}")
                for player, label in replies:
                    console.print(f"{who(game, player, names)}: {escape(label)}")
                break
            console.print(f"[yellow]Not this one.[/] {escape(verdict.message)}")
    return True
