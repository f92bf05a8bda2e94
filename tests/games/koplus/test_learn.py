"""KoPlus's guided game teaches the whole game, checked as the other games' are
(``tests/engine/test_lessons_whole_game.py``): 10 to 25 steps with a U, a plus and a pass, to the
end of the game, whose final scoring has every part and is said by the last step; every step
against the engine in English, German, Spanish and Dutch. It also earns a bonus turn at exactly
20 and chains a second one."""

from __future__ import annotations

import pytest

from meeple.engine.lessons import step_state
from meeple.engine.registry import game_lessons
from tests.engine import test_lessons_whole_game as whole


def test_the_guided_game_plays_every_kind_of_move_to_the_end() -> None:
    whole.test_a_guided_game_plays_every_kind_of_move_to_the_end("koplus")


@pytest.mark.parametrize("lang", whole.LANGUAGES)
def test_every_step_against_the_engine(lang: str) -> None:
    whole.test_every_step_against_the_engine_in_every_language("koplus", lang)


def test_the_guided_game_takes_bonus_turns() -> None:
    """Two steps in a row are the learner's own turns with no reply between: a bonus turn at
    exactly 20 points, then one more after a tile that catches nothing."""
    lesson = game_lessons("koplus").LESSON
    bonus = [i for i in range(1, len(lesson.steps))
             if step_state(lesson, i).observation(0)["bonus_turn"]]
    assert len(bonus) >= 2, bonus
    assert all(not lesson.steps[i - 1].replies for i in bonus)
