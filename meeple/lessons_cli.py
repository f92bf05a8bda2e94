"""``meeple learn GAME`` and the how-to-play part of ``meeple rules GAME``: the same steps and
texts as the browser's tutorial (``meeple/engine/lessons.py``), in the terminal. The command
line (``meeple/cli``) hands in its console, its move prompt and its way of naming a player,
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
from meeple.cli_words import COMMAND_WORDS, command_of, move_prompt, moves_heading, typed_commands
from meeple.engine import Game, i18n
from meeple.engine.i18n import words
from meeple.engine.lessons import PICTURE, Lesson, Tutorial, howto_markdown, picture_text
from meeple.engine.look import seat_names
from meeple.engine.registry import game_class, game_lessons
from meeple.engine.scores import score_lines, score_table_text

_, _n = words(__file__)
Ask = Callable[[str, list[str]], str]
"""Shows a prompt (rich markup) and reads one line, offering ``words`` to complete."""
Who = Callable[[Game, int, list[str]], str]
"""A player as rich markup."""
COMMANDS = ("moves", "board", "help", "skip", "quit")


def learn_help() -> str:
    """What a learner can type at a step's prompt, as rich markup."""
    return _("Type the move the step asks for in the game's notation (the step names it), or "
             "the number of a listed move. [bold]?[/] lists the moves, [bold]{board}[/] "
             "redraws, [bold]{skip}[/] goes on to the game, [bold]{quit}[/] ends.",
             **{key: escape(_(COMMAND_WORDS[key])) for key in ("board", "skip", "quit")})


def print_howto(name: str, console: Console) -> None:
    """The game's "How to play" page, each picture drawn by the game's own terminal renderer."""
    print_illustrated(name, howto_markdown(game_class(name), i18n.language()), console)


def print_illustrated(name: str, text: str, console: Console) -> None:
    """A page of the game's (Markdown, its pictures named as the lessons name them), each
    picture drawn by the game's own terminal renderer."""
    lesson = game_lessons(name).LESSON
    game = game_class(name)(lesson.players, **dict(lesson.options))
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
    console.print(Rule(escape(_("Step {number} of {count}: {title}", number=tutorial.index + 1,
                                count=count, title=step.title))))
    state = tutorial.state
    console.print(Text.from_markup(state.game.renderer.text(state.observation(step.player),
                                                            names)))
    console.print(escape(step.text))
    hint = step.expect[0]
    label = state.describe_action(state.string_to_action(hint, step.player), step.player)
    console.print("[dim]" + _("That is: {move} — type [bold]{notation}[/]",
                              move=escape(str(label.get("label") or hint)),
                              notation=escape(hint)) + "[/]")


def _final_screen(console: Console, tutorial: Tutorial, names: list[str]) -> None:
    """The board where the guided game ended and its final scoring, as the table shows it."""
    state = tutorial.state
    console.print(Rule(escape(_("Final scoring"))))
    console.print(Text.from_markup(state.game.renderer.text(state.observation(0), names)))
    console.print(escape(score_table_text(score_lines(state.observation(None)), names,
                                          state.ranks())))


def _list_moves(console: Console, moves: list[tuple[int, str, str]]) -> None:
    console.print(moves_heading(len(moves)))
    width = len(str(len(moves)))
    for i, (_a, text, label) in enumerate(moves, 1):
        note = f"  [dim]{escape(label)}[/]" if label and label != text else ""
        console.print(f"  {i:>{width}}. {escape(text)}{note}")


def walk(name: str, console: Console, ask: Ask, who: Who) -> bool:
    """Introduce the tutorial of ``name`` and walk its steps at the prompt; whether the
    learner goes on to the game (True) or quits (False)."""
    lesson = game_lessons(name).LESSON
    game = closing_game(name)
    names = seat_names(lesson.players)
    weakest = bot_choices()[0]
    title = escape(_("Learn to play {game}", game=game.title or name))
    console.print(f"[bold]{title}[/]: " + escape(_n(
        "{n} short step on the board, then a whole game against the {bot} bot.",
        "{n} short steps on the board, then a whole game against the {bot} bot.",
        len(lesson.steps), bot=str(weakest.get("name") or weakest["spec"]))))
    console.print(learn_help())
    if not _walk(game, lesson, names, console, ask, who):
        console.print(escape(_("Come back any time: {command}", command="meeple learn " + name)))
        return False
    console.print(Rule(escape(_("Your first game"))))
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
        typed_words = [text for _a, text, _b in moves] + typed_commands(COMMANDS)
        while True:
            try:
                typed = ask(move_prompt(who(game, step.player, names)), typed_words).strip()
            except EOFError:
                return False
            low = typed.lower()
            command = command_of(typed)
            if not typed:
                continue
            if low in ("?", "m") or command == "moves":
                _list_moves(console, moves)
                continue
            if low == "b" or command == "board":
                _step_screen(console, tutorial, names)
                continue
            if low == "h" or command == "help":
                console.print(learn_help())
                continue
            if low in ("q", "exit") or command == "quit":
                return False
            if command == "skip":
                return True
            move: str | int = typed
            if typed.isdigit() and 1 <= int(typed) <= len(moves):
                move = moves[int(typed) - 1][0]
            replies = tutorial.replies()
            verdict = tutorial.try_move(move)
            if verdict.ok:
                yes = _("Yes.")
                console.print(f"[bold green]{escape(yes)}[/] {escape(verdict.message)}")
                for player, label in replies:
                    console.print(f"{who(game, player, names)}: {escape(label)}")
                if tutorial.finished and tutorial.state.is_terminal():
                    _final_screen(console, tutorial, names)
                break
            no = _("Not this one.")
            console.print(f"[yellow]{escape(no)}[/] {escape(verdict.message)}")
    return True
