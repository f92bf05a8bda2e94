"""Each game's rulebook, the page the site's rules page and ``meeple rules`` show: in player words
only (no specification vocabulary), in every language, with every section a printed rulebook
has, a drawn scoring example and a legend of the board's symbols."""

from __future__ import annotations

import re

import pytest

import meeple
from meeple.engine import game_class, i18n
from meeple.engine.lessons import picture_names
from meeple.engine.registry import game_lessons

LANGS = ("en", *i18n.TRANSLATED)

SECTIONS = {
    "en": ["Components", "Set-up", ("Playing a round", "Playing a turn"), "Scoring",
           "End of the game and ties", "Variants and options",
           "Where the original rules are silent", "Symbols on the board"],
    "de": ["Spielmaterial", "Spielvorbereitung", "Spielablauf", "Wertung",
           "Spielende und Gleichstand", "Varianten und Optionen",
           "Wo die Originalregeln schweigen", "Symbole auf dem Spielplan"],
    "es": ["Componentes", "Preparación", "Desarrollo de la partida", "Puntuación",
           "Fin de la partida y empates", "Variantes y opciones",
           "Donde las reglas originales no dicen nada", "Símbolos del tablero"],
    "nl": ["Spelmateriaal", "Voorbereiding", "Spelverloop", "Puntentelling",
           "Einde van het spel en gelijkspel", "Varianten en opties",
           "Waar de originele regels zwijgen", "Symbolen op het bord"],
}
"""The level-2 headings of a rulebook in each language, in order (a tuple: any of them)."""

CHOICE = {"en": "meeple's choice", "de": "Wahl von meeple", "es": "elección de meeple",
          "nl": "keuze van meeple"}
"""How a rulebook marks a rule meeple chose where the original rules are silent."""

SPEC = {
    "a binding keyword in capitals": r"\b(MUST|SHALL|SHOULD|MAY|REQUIRED|RECOMMENDED)\b",
    "a reconstruction id": r"\[R\d*\]|\bR\d+\b",
    "code": r"`|^\s*```",
    "a program name": r"\b[a-z]+_[a-z0-9_]+\b",
    "a version number": r"\b\d+\.\d+\.\d+\b",
    "a file path": r"\b[\w/]+\.(py|md|js|json|so)\b|\btests/|\bmeeple/",
    "notation": r"@-?\d|\b[A-Z]-[A-Z]{2}\d?\b|§|·\s*index|\bint\b",
    "an id": r"\bids?\b",
    "a library": r"MuJoCo|\bRNG\b|\bseed\b|tensor",
}
"""What a specification says and a player's rulebook never does."""


def pages() -> list[tuple[str, str]]:
    return [(game, lang) for game in meeple.games() for lang in LANGS]


def sections(text: str) -> dict[str, str]:
    """The rulebook's level-2 sections: heading -> body."""
    parts = re.split(r"^## +(.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def rulebook(game: str, lang: str) -> str:
    return game_class(game).rules_markdown(lang)


@pytest.mark.parametrize(("game", "lang"), pages())
def test_rulebook_speaks_player_words(game: str, lang: str) -> None:
    """No binding keywords, ids, notation, code, program names, versions or file paths."""
    text = rulebook(game, lang)
    prose = re.sub(r"\(picture:[a-z0-9_]+\)", "", text)
    found = [f"{what}: {m.group(0)!r} in {line.strip()!r}"
             for line in prose.splitlines()
             for what, pattern in SPEC.items() for m in re.finditer(pattern, line)]
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize(("game", "lang"), pages())
def test_rulebook_has_every_section(game: str, lang: str) -> None:
    """Components, set-up, a turn, scoring with a drawn example, the end and ties, variants
    and options, the rules meeple chose, and a legend of the symbols; short enough to print."""
    text = rulebook(game, lang)
    assert text.startswith("# ")
    found = sections(text)
    want = SECTIONS[lang]
    assert len(found) == len(want), list(found)
    for heading, expected in zip(found, want, strict=True):
        assert heading in ((expected,) if isinstance(expected, str) else expected), heading
    body = list(found.values())
    positions = {p.name for p in game_lessons(game).LESSON.positions}
    assert set(picture_names(text)) <= positions
    assert picture_names(body[3]), "the scoring section has no picture"
    choices = [line for line in body[6].splitlines() if line.startswith("- ")]
    mark = f"- **{CHOICE[lang]}:**".lower()
    assert choices and all(line.lower().startswith(mark) for line in choices), choices
    legend = [line for line in body[7].splitlines() if line.startswith("|")]
    assert len(legend) >= 4, "the symbols section has no legend table"
    words = len(re.findall(r"\w+", text))
    assert 700 <= words <= 3000, words
