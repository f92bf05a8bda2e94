"""Every game's lessons against its engine: each tutorial step's position builds, its intended
move is legal and accepted, each wrong move gets its explanation, the step after follows; the
how-to-play pages name pictures that exist and render, in player words; the aid's sentence
for the current step reads every position of a played game."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

import meeple
from meeple.engine import registry
from meeple.engine.lessons import (
    OTHERWISE,
    Aid,
    Lesson,
    Position,
    Step,
    Tutorial,
    check_lesson,
    howto_markdown,
    judge,
    picture_names,
    picture_svg,
    picture_text,
    step_state,
)
from meeple.engine.registry import game_lessons

GAMES = ["botanik", "kontor", "koplus", "kozo", "mops_royal"]
SVG = "{http://www.w3.org/2000/svg}svg"
CODES = re.compile(r"\bMUST\b|\bSHALL\b|\bP\d+\.\d+|[A-Z]\d?@|\b[RYGBK]-[A-Z]{2}\d?\b|"
                   r"\b(red|black|water|green|purple)-\d+\b|\bS\d\d\b|\(-?\d+,-?\d+\)|\[R\d+\]|_")
"""What a learner must not read: spec words, notation, card and tile ids, reconstructed-rule
marks, Python names."""


def lesson_of(name: str) -> tuple[meeple.Game, Lesson]:
    lesson = game_lessons(name).LESSON
    return meeple.load(name, players=lesson.players, **dict(lesson.options)), lesson


def steps() -> list[tuple[str, int]]:
    return [(name, i) for name in GAMES for i in range(len(game_lessons(name).LESSON.steps))]


def test_every_game_declares_lessons():
    assert meeple.games() == GAMES
    for name in GAMES:
        lessons = game_lessons(name)
        assert isinstance(lessons.LESSON, Lesson) and isinstance(lessons.AID, Aid)
        assert len(lessons.LESSON.steps) >= 3


def test_lessons_are_checked_when_a_game_registers():
    class NoLessons:
        pass

    cls = registry.game_class("koplus")
    with pytest.raises(TypeError, match="lessons"):
        registry.register(cls, renderer=cls.renderer, heuristics=cls.heuristics,
                          lessons=NoLessons())
    assert game_lessons("koplus").LESSON.steps  # the registration still stands
    with pytest.raises(meeple.OptionError, match="no game named"):
        game_lessons("chess")


@pytest.mark.parametrize("name", GAMES)
def test_the_checker_finds_nothing_wrong(name):
    game, lesson = lesson_of(name)
    assert check_lesson(game, lesson) == []


def test_the_checker_finds_what_is_wrong():
    game, lesson = lesson_of("koplus")
    first = lesson.steps[0]
    def fails() -> meeple.State:
        raise ValueError("no such deal")

    broken = Lesson(players=2, positions=(*lesson.positions, Position("broken", fails)), steps=(
        Step(title=first.title, text=first.text, expect=("U1@4,7",), good=first.good,
             position="start", wrong={"U1@4,7": "no"}, highlight=("cell-99-99",)),
        Step(title="later", text="later", expect=("X@7,5",), good="", position="first_tile"),
        Step(title="last", text="last", expect=("X@7,5",), good="", position="broken"),
    ), closing="")
    problems = check_lesson(game, broken)
    assert any("U1@4,7 is not legal" in p for p in problems)
    assert any("both intended and wrong" in p for p in problems)
    assert any("no element cell-99-99" in p for p in problems)
    assert any("step 2 (later): player 0 is not to move" in p for p in problems)
    assert any("position broken: no such deal" in p for p in problems)
    assert any("step 3 (last): its position does not build" in p for p in problems)


@pytest.mark.parametrize(("name", "index"), steps())
def test_each_step_against_the_engine(name, index):
    game, lesson = lesson_of(name)
    step = lesson.steps[index]
    state = step_state(lesson, index)
    before = (state.history(), state.observation(step.player))
    legal = {state.action_to_string(a, step.player) for a in state.legal_actions(step.player)}
    assert set(step.expect) <= legal
    for text in step.expect:
        assert judge(state, step, text).ok
        assert judge(state, step, text).message == step.good
    for text, why in step.wrong.items():
        verdict = judge(state, step, text)
        assert not verdict.ok and verdict.message == why
    others = sorted(legal - set(step.expect) - set(step.wrong))
    # a step offers other moves, so a wrong one is explained (unless its move is forced, as
    # the last card of a full field is)
    assert others or step.wrong or legal == set(step.expect)
    for text in others[:5]:
        verdict = judge(state, step, text)
        assert not verdict.ok and verdict.message == (step.otherwise or OTHERWISE)
    assert (state.history(), state.observation(step.player)) == before  # judging changes nothing
    # the step after follows from the intended move and the replies
    tutorial = Tutorial(game, lesson)
    tutorial.index, tutorial.state = index, state
    assert tutorial.try_move(step.expect[0]).ok
    if index + 1 < len(lesson.steps):
        assert tutorial.index == index + 1
        after = step_state(lesson, index + 1)
        assert tutorial.state.history() == after.history()
        if lesson.steps[index + 1].position is None:
            played = step_state(lesson, index)
            meeple.engine.lessons.play(played, [(step.player, step.expect[0]), *step.replies])
            assert played.history() == after.history()
            assert played.observation(None) == after.observation(None)
    else:
        assert tutorial.finished


@pytest.mark.parametrize("name", GAMES)
def test_a_tutorial_runs_from_its_first_step_to_its_last(name):
    game, lesson = lesson_of(name)
    tutorial = Tutorial(game, lesson)
    wrongs = 0
    while not tutorial.finished:
        step = tutorial.step
        legal = [a for a in tutorial.state.legal_actions(step.player)
                 if tutorial.state.action_to_string(a, step.player) not in step.expect]
        if legal:
            assert not tutorial.try_move(legal[0]).ok
            wrongs += 1
        assert tutorial.try_move(step.expect[-1] if tutorial.index == len(lesson.steps) - 1
                                 else step.expect[0]).ok
    assert tutorial.index == len(lesson.steps) and wrongs >= 1


@pytest.mark.parametrize("name", GAMES)
def test_step_words_are_player_words(name):
    _, lesson = lesson_of(name)
    for step in lesson.steps:
        for words in (step.title, step.text, step.good, step.otherwise, *step.wrong.values()):
            assert not CODES.search(words), (step.title, words, CODES.search(words))
    assert lesson.closing and not CODES.search(lesson.closing)


@pytest.mark.parametrize("name", GAMES)
def test_the_howto_page_is_one_page_in_player_words(name):
    cls = registry.game_class(name)
    text = howto_markdown(cls)
    assert text.startswith(f"# How to play {cls.title}")
    for part in ("goal", "oints", "end"):
        assert part in text, part
    assert "turn" in text or "round" in text
    prose = re.sub(r"\]\(picture:[a-z0-9_]+\)", "]", text)
    assert not CODES.search(prose), CODES.search(prose)
    assert len(text) < 4000, "one page"


@pytest.mark.parametrize("name", GAMES)
def test_every_picture_named_exists_and_renders(name):
    game, lesson = lesson_of(name)
    names = picture_names(howto_markdown(type(game)))
    assert len(names) >= 3 and len(set(names)) == len(names)
    known = {p.name for p in lesson.positions}
    assert set(names) <= known
    for picture in names:
        svg = picture_svg(game, lesson, picture)
        assert ET.fromstring(svg).tag == SVG
        assert picture_text(game, lesson, picture).strip()
    with pytest.raises(KeyError, match="no position named"):
        picture_svg(game, lesson, "nowhere")


@pytest.mark.parametrize("name", GAMES)
def test_the_aid_and_the_current_step_sentence(name):
    game, lesson = lesson_of(name)
    lessons = game_lessons(name)
    aid = lessons.AID
    assert len(aid.scoring) >= 3 and len(aid.turn) >= 3
    for what, points in aid.scoring:
        assert what and points and not CODES.search(what + points)
    for line in aid.turn:
        assert not CODES.search(line)
    state = game.new_initial_state()
    said: set[str] = set()
    rng = random.Random(5)
    for _ in range(400):
        for viewer in [None, *range(game.num_players)]:
            sentence = lessons.ask(state.observation(viewer))
            assert sentence and sentence.endswith(".") and sentence[0].isupper(), sentence
            assert not CODES.search(sentence) and "{" not in sentence, sentence
            said.add(sentence)
        if state.is_terminal():
            break
        meeple.play_out(state, rng, max_actions=1)
    assert len(said) >= 3


@pytest.mark.parametrize("name", GAMES)
def test_the_others_replies_are_said_of_them(name: str) -> None:
    """A reply is shown to the learner with its mover's name before it: its words speak of
    that player ("their start tile"), never to them ("your start tile")."""
    game, lesson = lesson_of(name)
    tutorial = Tutorial(game, lesson)
    seen = 0
    while not tutorial.finished:
        for player, label in tutorial.replies():
            assert player != tutorial.step.player
            assert not re.search(r"\byour?s?\b", label, re.I), label
            seen += 1
        assert tutorial.try_move(tutorial.step.expect[0]).ok
    if name in ("botanik", "mops_royal"):  # their replies name the mover's own tiles
        assert seen


def test_said_of_them() -> None:
    from meeple.engine.lessons import said_of_them

    assert said_of_them("Place the blue bone next to your start tile") == \
        "Place the blue bone next to their start tile"
    assert said_of_them("Your Source, not yours") == "Their Source, not theirs"
    assert said_of_them("Lay a U: catches 9 points") == "Lay a U: catches 9 points"


def test_kontor_says_cards_are_dealt_while_chance_acts() -> None:
    state = meeple.load("kontor").new_initial_state()
    assert state.is_chance_node()
    for viewer in (None, 0, 1):
        assert game_lessons("kontor").ask(state.observation(viewer)) == (
            "Cards are being dealt and drawn.")
