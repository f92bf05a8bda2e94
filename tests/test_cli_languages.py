"""The ``meeple`` command in German, Spanish and Dutch: ``--lang`` or the terminal's language,
the command's own words, typer's help and errors, the play prompt and ``meeple learn``."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from meeple.cli import chosen_language
from meeple.cli_words import error_message
from meeple.engine import i18n

MEEPLE = [sys.executable, "-m", "meeple.cli"]
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def env(**extra: str) -> dict[str, str]:
    """The environment of a plain terminal (no language set), with ``extra``."""
    out = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    return {**out, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb", **extra}


def run(*args: str, input: str | None = None, **extra: str) -> subprocess.CompletedProcess:
    """``meeple ARGS`` as a real process in a plain terminal with ``extra`` set."""
    return subprocess.run([*MEEPLE, *args], input=input, capture_output=True, text=True,
                          timeout=300, env=env(**extra))


def run_here(*args: str, input: str | None = None, **extra: str) -> subprocess.CompletedProcess:
    """:func:`run` in this process (typer's runner): the same words, without a new process
    importing every game."""
    from tests.test_cli import run_here as here

    unset = {k: None for k in LOCALE_VARS if k not in extra}
    with pytest.MonkeyPatch.context() as mp:
        for k, v in {**unset, **extra}.items():
            if v is None:
                mp.delenv(k, raising=False)
            else:
                mp.setenv(k, v)
        return here(*args, input=input, language=None)


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-zäöüßñáéíóú]+", text.lower()))


def test_the_language_comes_from_lang_else_the_terminal():
    assert chosen_language(["--lang", "de", "games"]) == "de"
    assert chosen_language(["--lang=es", "games"]) == "es"
    # --lang is an option of meeple itself: after the command's name it is not read
    assert chosen_language(["games", "--lang", "nl"]) == i18n.from_environment()
    assert i18n.from_environment({"LANG": "nl_NL.UTF-8"}) == "nl"


def test_games_in_german():
    r = run_here("--lang", "de", "games")
    assert r.returncode == 0, r.stderr
    assert {"spiel", "spieler", "optionen"} <= words(r.stdout), r.stdout
    assert "meeple-Spiele" in r.stdout and "Eine Option änderst du mit" in r.stdout
    head = next(line for line in r.stdout.splitlines() if "Spieler" in line)
    assert "Spiel" in head and "Optionen" in head
    notes = r.stdout.split("┘")[-1]  # below the table: the command's own notes
    assert not {"players", "options", "change", "the", "source"} & words(head + notes), notes
    assert "keine Quelle sagt" in notes  # the engine's mark of a reconstructed default


def test_games_in_dutch_from_the_terminal_language():
    r = run("games", LANG="nl_NL.UTF-8")  # a real process: its terminal's language
    assert r.returncode == 0, r.stderr
    assert "meeple-spellen" in r.stdout and "Wijzig een optie met" in r.stdout
    notes = r.stdout.split("┘")[-1]
    assert not {"players", "options", "change", "the"} & words(notes), notes


def test_rules_in_spanish():
    r = run_here("--lang", "es", "rules", "kozo")
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "Opciones" in out and "Las reglas completas" in out
    assert "Para cambiarla: --option rounds=VALOR, donde VALOR es un número entero de 1 a 9" \
        in out
    assert "Por defecto:" in out
    for english in ("The full rules", "To change it", "As it comes", "Options"):
        assert english not in out
    from meeple.engine import game_class

    spanish = game_class("kozo").rules_markdown("es")
    if spanish != game_class("kozo").rules_markdown("en"):  # the Spanish page is shown
        heading = next(line for line in spanish.splitlines() if line.startswith("#"))
        assert heading.lstrip("# ").strip() in out


def test_help_in_german():
    r = run_here("--lang", "de", "--help")
    assert r.returncode == 0, r.stderr
    for german in ("Aufruf: ", "[OPTIONEN] BEFEHL [ARGUMENTE]...", "Optionen", "Befehle",
                   "Diese Hilfe zeigen und beenden.", "Spiele und lerne KoPlus",
                   "Eine beendete Partie analysieren"):
        assert german in r.stdout, r.stdout
    for english in ("Usage", "Options", "Commands", "Show this message", "Play a game",
                    "Review a finished game"):
        assert english not in r.stdout, r.stdout
    sub = run_here("--lang", "de", "play", "--help")
    assert "Zahl der Spieler" in sub.stdout and "<ganze Zahl>" in sub.stdout, sub.stdout
    assert "number of players" not in sub.stdout and "<int>" not in sub.stdout


def test_errors_in_german_and_spanish():
    r = run_here("--lang", "de", "play", "kozo", "--colour", "red")
    assert r.returncode == 2
    assert r.stderr.startswith("Fehler: Kozo hat keine Option namens 'colour'"), r.stderr
    r = run_here("--lang", "es", "play", "--players", "x", "kozo")
    assert r.returncode == 2
    assert "Valor no válido para '--players' / '-p': hace falta un número entero" in r.stderr
    assert "Uso: " in r.stderr and "play [OPCIONES] {JUEGO}" in r.stderr
    assert "Invalid" not in r.stderr and "Usage" not in r.stderr
    r = run_here("--lang", "nl", "nosuchcommand")
    assert "De opdracht 'nosuchcommand' bestaat niet." in r.stderr, r.stderr
    r = run_here("--lang", "fr", "games")
    assert r.returncode == 2 and "there is no language 'fr'" in r.stderr


def test_typer_messages_read_back():
    with i18n.speaking("de"):
        assert error_message("Missing argument 'GAME'.") == "Es fehlt das Argument 'GAME'."
        assert error_message("Got unexpected extra argument(s) (a b)") == \
            "Unerwartete zusätzliche Argumente (a b)"
        assert error_message("something else") == "something else"
    assert error_message("Missing argument 'GAME'.") == "Missing argument 'GAME'."


def test_a_refusal_at_the_play_prompt_in_spanish():
    r = run_here("--lang", "es", "play", "kozo", "--seats", "human,random", "--seed", "1",
            input="nonsense\nayuda\nsalir\n")
    assert r.returncode == 0, r.stderr
    assert "Jugador 1, tu jugada (? para ver jugadas):" in r.stdout
    assert "(escribe ? para ver las jugadas válidas)" in r.stdout
    assert "Órdenes: jugadas (o ?) lista las jugadas válidas" in " ".join(r.stdout.split())
    assert "Partida sin terminar." in r.stdout
    assert "type ? to list" not in r.stdout and "move (? for moves)" not in r.stdout


def test_a_learn_step_in_dutch():
    from meeple.engine.registry import game_lessons

    steps = len(game_lessons("koplus").LESSON.steps)
    r = run_here("--lang", "nl", "learn", "koplus", "--seed", "3", input="?\nstop\n")
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "Leer KoPlus spelen" in out and f"Stap 1 van {steps}:" in out
    assert "toegestane zetten:" in out and "Kom terug wanneer je wilt: meeple learn koplus" in out
    for english in ("Learn to play", "Step 1 of", "legal moves", "Come back any time"):
        assert english not in out


@pytest.mark.parametrize("lang", ["de", "es", "nl"])
def test_every_prompt_command_is_a_word_of_its_own(lang):
    """Each language's command words differ from each other (one word, one command)."""
    from meeple.cli_words import command_words

    with i18n.speaking(lang):
        said = command_words()
    assert len(said) == 7 and all(w == w.strip().lower() and " " not in w for w in said)


def test_games_writes_option_numbers_the_languages_way():
    from meeple.cli import option_summary, options_text
    from meeple.engine import game_class

    margin = game_class("kozo").option("static_margin")
    with i18n.speaking("nl"):
        line = option_summary(margin)
        assert "0,01" in line and "0.01" not in line, line
        said = "\n".join(options_text(game_class("kozo")))
        assert "Zoals het komt: 0,01." in said or ": 0,01." in said, said
    with i18n.speaking("en"):
        assert "0.01" in option_summary(margin)


def test_review_of_a_web_record_says_the_bot_seats_in_the_language():
    from meeple.cli import record_names

    web = {"meta": {"table": "t1", "seats": ["Joost", "Casual bot", "Casual bot 2"]}}
    from meeple.bots import bot_name

    with i18n.speaking("de"):
        names = record_names(web, 3)
        casual = bot_name("greedy")
    assert casual and casual != "Casual"
    assert names[0] == "Joost"  # a person's name as it is, not "Spieler 1 (...)"
    assert casual in names[1] and casual in names[2] and names[2].endswith(" 2"), names
    assert not any("Casual" in n or "Spieler 1" in n for n in names), names
    # a record of meeple play holds the bots' specs
    with i18n.speaking("de"):
        assert record_names({"meta": {"seats": ["human", "greedy"]}}, 2)[0] == "Spieler 1"
