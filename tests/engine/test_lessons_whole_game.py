"""Each game's guided game teaches the whole game: 10 to 25 steps that play every kind of move
and end at the end of the game, whose final scoring shows every part of the breakdown and is
said by the last step; every step checked against the engine in English, German, Spanish and
Dutch (the browser tests play them on a page, ``tests/e2e/test_learn.py``)."""

from __future__ import annotations

import re

import pytest

import meeple
from meeple.engine import i18n
from meeple.engine.lessons import OTHERWISE, Tutorial, check_lesson, ending, judge
from meeple.engine.registry import game_lessons

GAMES = ["botanik", "kontor", "kozo", "mops_royal"]
LANGUAGES = ["en", "de", "es", "nl"]
KINDS = {
    "botanik": {"own", "pile", "add", "swap"},
    "kontor": {"choose", "place"},
    "koplus": {"U", "X", "pass"},
    "kozo": {"P", "B"},
    "mops_royal": {"place", "score", "noscore"},
}
"""Every kind of move a player makes in each game, by the first word of its notation (KoPlus:
the shape; Kozo: a piece or a balance cube)."""


def kind(notation: str) -> str:
    """The kind of a move: the first word of its notation, or the letter before its place."""
    return re.split(r"[ @0-9.]", notation, maxsplit=1)[0]


def lesson_game(name: str) -> meeple.Game:
    lesson = game_lessons(name).LESSON
    return meeple.load(name, players=lesson.players, **dict(lesson.options))


@pytest.mark.parametrize("name", GAMES)
def test_a_guided_game_plays_every_kind_of_move_to_the_end(name):
    lesson = game_lessons(name).raw.LESSON
    assert 10 <= len(lesson.steps) <= 25
    played = {kind(s.expect[0]) for s in lesson.steps}
    assert KINDS[name] <= played, KINDS[name] - played
    end = ending(lesson)
    assert end.is_terminal()
    breakdown = end.observation(None)["final_breakdown"]
    labels = {part["label"] for line in breakdown for part in line["parts"]}
    assert labels
    for label in labels:  # every part of the final scoring counts for someone
        assert any(part["label"] == label and part["value"]
                   for line in breakdown for part in line["parts"]), label
    said = lesson.steps[-1].good
    for line in breakdown:  # the last step says how the game was scored
        assert re.search(rf"\b{int(line['total'])}\b", said), (line, said)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", GAMES)
def test_every_step_against_the_engine_in_every_language(name, lang):
    game = lesson_game(name)
    english = game_lessons(name).raw.LESSON
    with i18n.speaking(lang):
        lesson = game_lessons(name).LESSON
        assert check_lesson(game, lesson) == []
        otherwise = i18n.words(meeple.engine.lessons.__file__)[0](OTHERWISE)
        tutorial = Tutorial(game, lesson)
        while not tutorial.finished:
            step, was = tutorial.step, english.steps[tutorial.index]
            texts = [step.title, step.text, step.good, *step.wrong.values()]
            assert all(texts)
            if lang != "en":  # said in the language, not left in English
                assert step.text != was.text and step.good != was.good, (lang, was.title)
            state = tutorial.state
            other = next((a for a in state.legal_actions(step.player)
                          if state.action_to_string(a, step.player) not in step.expect
                          and state.action_to_string(a, step.player) not in step.wrong), None)
            if other is not None:
                verdict = judge(state, step, other)
                assert not verdict.ok and verdict.message == (step.otherwise or otherwise)
            verdict = tutorial.try_move(step.expect[0])
            assert verdict.ok and verdict.message == step.good
        assert tutorial.state.is_terminal()
