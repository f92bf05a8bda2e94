"""The engine's own words in German, Spanish and Dutch, and a game's declared words (lesson
steps, aid, option labels, presets, pitch) said through the game's catalog by the engine."""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import meeple
from meeple.engine import i18n, svg
from meeple.engine.errors import IllegalAction
from meeple.engine.i18n import Words, speaking
from meeple.engine.lessons import (
    OTHERWISE,
    Aid,
    Lesson,
    Position,
    Step,
    TaughtLessons,
    Tutorial,
    judge,
)
from meeple.engine.look import PALETTE, colour_name, seat_name
from meeple.engine.options import Option, OptionSchema, Preset, reconstructed
from meeple.engine.scores import ScoreLine, score_table_text
from meeple.engine.words import number_word, of_them, place_from, yours

from .tinygame import SealedBids, register_tiny


@pytest.fixture(autouse=True)
def _registered():
    register_tiny()
    yield
    meeple.engine.registry._GAMES.pop("sealed_bids", None)


def test_a_place_is_one_whole_phrase_in_each_language() -> None:
    assert place_from(-2, 1, "the anchor") == "two to the left and one below the anchor"
    with speaking("de"):
        assert place_from(-2, 1, "der eigenen Quelle") == \
            "von der eigenen Quelle aus zwei nach links und eins nach unten"
        assert place_from(0, -1, "dem Anker") == "direkt über dem Anker"
        assert place_from(1, 0, "dem Anker") == "rechts neben dem Anker"
    with speaking("es"):
        assert place_from(3, 0, "tu loseta inicial") == \
            "tres a la derecha de tu loseta inicial"
        assert place_from(0, 0, "el ancla") == "sobre el ancla"
    with speaking("nl"):
        assert place_from(-1, -2, "je Bron") == "één naar links en twee naar boven vanaf je Bron"
        assert place_from(0, 2, "je Bron") == "twee naar beneden vanaf je Bron"
    assert number_word(7) == "seven" and number_word(12) == "12"


def test_the_movers_own_things_said_to_them_or_of_them() -> None:
    assert yours("your start tile", "their start tile") == "your start tile"
    with of_them():
        assert yours("your start tile", "their start tile") == "their start tile"
    assert yours("deine", "seine") == "deine"


def test_an_option_error_in_spanish_and_english() -> None:
    with speaking("es"), pytest.raises(meeple.OptionError) as e:
        meeple.load("sealed_bids", rounds=9)
    assert "la opción 'rounds' de sealed_bids no puede ser 9; se permite: 1, 2, 3" in str(e.value)
    with pytest.raises(meeple.OptionError, match="cannot be 9; allowed: 1, 2, 3"):
        meeple.load("sealed_bids", rounds=9)
    o = Option("size", int, 5, minimum=3, maximum=1200)
    with speaking("de"):
        assert o.allowed() == "eine ganze Zahl von 3 bis 1.200"
        assert Option("x", bool, False).words(True) == "an"
        assert "so lesen wir es" in reconstructed()


def test_colours_seats_and_the_score_table_in_dutch() -> None:
    blue = PALETTE[0]
    assert colour_name(blue) == "blue" and blue.to_json()["name"] == "blue"
    with speaking("nl"):
        assert colour_name(blue) == "blauw"
        assert blue.to_json() == {"name": "blue", "label": "blauw", "fill": blue.fill,
                                  "symbol": blue.symbol, "ink": blue.ink}
        assert seat_name(1) == "Speler 2" and seat_name(0, ["Ann"]) == "Ann"
        table = score_table_text([ScoreLine(0, (("Tegels", 3),), 3),
                                  ScoreLine(1, (("Tegels", 2.5),), 2.5)], None, [1, 2])
        head = table.splitlines()[0].split()
        assert head == ["Plaats", "Speler", "Tegels", "Totaal"]
        assert "2,5" in table
        assert svg.game_over([0, 1], None) == "Einde van het spel: Speler 1 en Speler 2 winnen " \
            "samen"
        assert svg.player_name(0, ["Ann"], viewer=0) == "Ann (jij)"
        assert svg.points(1) == "1 punt" and svg.points(12) == "12 punten"


def test_a_refusal_in_german() -> None:
    state = meeple.load("sealed_bids").new_initial_state()
    with speaking("de"), pytest.raises(IllegalAction) as e:
        state.apply(0, 1)  # chance is to act
    assert str(e.value) == \
        "unerlaubte Aktion 0 von Spieler 1: jetzt entscheidet der Zufall, nicht Spieler 1"
    with pytest.raises(IllegalAction, match="it is chance's turn, not player 1's"):
        state.apply(0, 1)
    with speaking("nl"):
        assert state.describe_unseen(0) == "maakt in het geheim een keuze."


# -- a game's declared words, said by the engine through its catalog -----------------------


def _catalog(folder: Path, lang: str, texts: dict[str, str]) -> Words:
    """A catalog folder with one language's translations of ``texts``."""
    folder.mkdir(exist_ok=True)
    cat = Catalog(locale=lang, project="meeple", charset="utf-8")
    for english, said in texts.items():
        cat.add(english, said)
    with (folder / f"{lang}.po").open("wb") as f:
        write_po(f, cat)
    return Words(folder)


GERMAN = {
    "Your first tile": "Dein erstes Plättchen",
    "Lay the tile on the star.": "Lege das Plättchen auf den Stern.",
    "Well done.": "Gut gemacht.",
    "Not that card.": "Nicht diese Karte.",
    "Now play against the bot.": "Jetzt spiel gegen den Bot.",
    "a prize": "ein Preis",
    "its value": "sein Wert",
    "Bid a card.": "Biete eine Karte.",
    "What is worth bidding?": "Was lohnt ein Gebot?",
    "Rounds": "Runden",
    "How many prizes are played for.": "Um wie viele Preise gespielt wird.",
    "one only": "nur einer",
    "Short game": "Kurzes Spiel",
    "One round only.": "Nur eine Runde.",
    "Bid for prizes in secret.": "Biete verdeckt um Preise.",
}


@pytest.fixture
def german(tmp_path: Path) -> Words:
    return _catalog(tmp_path / "locale", "de", GERMAN)


def _lessons() -> types.SimpleNamespace:
    game = meeple.load("sealed_bids")

    def start() -> meeple.State:
        state = game.new_initial_state()
        state.apply(0)  # the prize 1
        return state

    step = Step("Your first tile", "Lay the tile on the star.", ("bid 1",), "Well done.",
                position="start", wrong={"bid 2": "Not that card."})
    lesson = Lesson(2, (Position("start", start),), (step,), "Now play against the bot.")
    aid = Aid((("a prize", "its value"),), ("Bid a card.",))
    return types.SimpleNamespace(LESSON=lesson, AID=aid,
                                 ask=lambda obs: "What is worth bidding?")


def test_a_lesson_step_comes_said_through_the_games_catalog(german: Words) -> None:
    taught = TaughtLessons(_lessons(), german)
    game = meeple.load("sealed_bids")
    with speaking("de"):
        lesson = taught.LESSON
        step = lesson.steps[0]
        assert (step.title, step.text) == ("Dein erstes Plättchen",
                                           "Lege das Plättchen auf den Stern.")
        assert lesson.closing == "Jetzt spiel gegen den Bot."
        assert taught.AID.to_json() == {"scoring": [{"what": "ein Preis", "points": "sein Wert"}],
                                        "turn": ["Biete eine Karte."]}
        assert taught.ask({}) == "Was lohnt ein Gebot?"
        tutorial = Tutorial(game, lesson)
        assert judge(tutorial.state, tutorial.step, "bid 2").message == "Nicht diese Karte."
        assert judge(tutorial.state, tutorial.step, "bid 3").message == \
            "Dieser Zug ist erlaubt, aber um ihn geht es in diesem Schritt nicht."
        assert judge(tutorial.state, tutorial.step, "nonsense").message.startswith(
            "Das ist hier kein Zug: ")
        assert tutorial.try_move("bid 1").message == "Gut gemacht."
    assert taught.LESSON.steps[0].title == "Your first tile"  # English, as written
    assert judge(Tutorial(game, taught.LESSON).state, taught.LESSON.steps[0],
                 "bid 3").message == OTHERWISE
    with speaking("nl"):  # a language the game has not translated: its English words
        assert taught.LESSON.steps[0].title == "Your first tile"


def test_a_registered_games_lessons_say_their_words() -> None:
    lessons = meeple.engine.registry.game_lessons("koplus")
    assert isinstance(lessons, TaughtLessons)
    assert lessons.LESSON is lessons.LESSON  # worked out once per language


def test_describe_says_the_pitch_options_and_presets_through_the_games_catalog(
        german: Words, monkeypatch: pytest.MonkeyPatch) -> None:
    class Bids(SealedBids):
        pitch = "Bid for prizes in secret."
        option_schema = OptionSchema((Option(
            "rounds", int, 3, choices=(1, 2, 3), label="Rounds",
            help="How many prizes are played for.", labels=((1, "one only"), (2, "2"), (3, "3"))),))

        @classmethod
        def presets(cls) -> tuple[Preset, ...]:
            return (*super().presets(), Preset("Short game", "One round only.", {"rounds": 1}))

    monkeypatch.setattr(Bids, "words", classmethod(lambda cls: german))
    with speaking("de"):
        d = Bids.describe()
        assert d["pitch"] == "Biete verdeckt um Preise."
        o = d["options"][0]
        assert (o["label"], o["help"]) == ("Runden", "Um wie viele Preise gespielt wird.")
        assert o["labels"][0] == {"value": 1, "label": "nur einer"}
        assert [p["name"] for p in d["presets"]] == ["Standard", "Kurzes Spiel"]
        assert d["presets"][0]["description"].startswith("Das Spiel wie gedruckt")
        assert Bids.option("rounds").title == "Runden"
    assert Bids.describe()["options"][0]["label"] == "Rounds"
    assert i18n.language() == "en"
