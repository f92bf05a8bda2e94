"""One word per thing: every ``glossary.toml`` beside a catalog names, for each English term,
the word German, Spanish and Dutch players read for it, and the variants they must not read.

A game's glossary speaks for its catalogs, how-to pages and rulebooks; the one in
``meeple/locale`` for every catalog outside the games (command line, server, web pages, engine,
bots).

A glossary entry::

    ["balance cube"]
    de = "Balancewürfel"
    es = ["cubo de equilibrio", "cubos de equilibrio"]   # the forms the word may take
    nl = "balansblokje"
    avoid = { es = ["cubo de balance"] }                # never written, anywhere
    except = ["an English text that names the term but needs no word for it"]

Every catalog entry whose English text names the term (longer terms first: "warehouse keeper"
is not a "warehouse") has one of the word's forms in its translation; no catalog of the folder
and no how-to page or rulebook of the game (``howto.<lang>.md``, ``rulebook.<lang>.md`` beside
the ``locale`` folder) has a variant to avoid.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from meeple.engine import catalogs, i18n

GLOSSARIES = sorted(i18n.ROOT.rglob("locale/glossary.toml"))


def _folders(glossary: Path) -> list[Path]:
    """The catalog folders ``glossary`` speaks for."""
    if glossary.parent != i18n.ROOT / "locale":
        return [glossary.parent]
    games = i18n.ROOT / "games"
    return [f for f in catalogs.folders() if games not in f.parents]


def _forms(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _english(term: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?!\w)|(?<![\w-]){re.escape(term)}s\b",
                      re.I)


def _texts(value: object) -> str:
    return " ".join(value) if isinstance(value, (tuple, list)) else str(value or "")


CODE = re.compile(r"\{[^}]*\}|'[^']*'|`[^`]*`")
"""Placeholders and quoted notation, which name no thing in player words."""


def mistakes(glossary: Path, lang: str) -> Iterator[str]:
    """What in the catalogs and pages of ``glossary``'s folder breaks it for ``lang``."""
    terms = tomllib.loads(glossary.read_text(encoding="utf-8"))
    longest_first = sorted(terms, key=len, reverse=True)
    messages = []
    for folder in _folders(glossary):
        with (folder / f"{lang}.po").open("rb") as f:
            messages += [m for m in read_po(f) if m.id]
    for message in messages:
        if not _texts(message.string).strip():
            continue  # untranslated: the catalog test says so
        english = CODE.sub(" ", _texts(message.id))
        said = _texts(message.string).casefold()
        for term in longest_first:
            found = _english(term)
            if not found.search(english):
                continue
            english = found.sub(" ", english)
            first = message.id if isinstance(message.id, str) else message.id[0]
            if first in terms[term].get("except", []):
                continue
            forms = _forms(terms[term][lang])
            if not any(w.casefold() in said for w in forms):
                yield f"{lang}.po: {term!r} is {forms[0]!r}, not in {_texts(message.string)!r}"
    pages = {f"{lang}.po": " ".join(_texts(m.string) for m in messages)}
    for page in (glossary.parent.parent / f"{name}.{lang}.md" for name in ("howto", "rulebook")):
        if page.is_file():
            pages[page.name] = page.read_text(encoding="utf-8")
    for term, entry in terms.items():
        for bad in (entry.get("avoid") or {}).get(lang, []):
            wrong = re.compile(rf"(?<!\w){re.escape(bad)}(?!\w)", re.I)
            for name, text in pages.items():
                if wrong.search(text):
                    yield f"{name}: {bad!r} where {term!r} is {_forms(entry[lang])[0]!r}"


@pytest.mark.parametrize("lang", i18n.TRANSLATED)
@pytest.mark.parametrize("glossary", GLOSSARIES,
                         ids=lambda p: p.parent.relative_to(i18n.ROOT).as_posix())
def test_a_term_is_always_said_the_same_way(glossary: Path, lang: str) -> None:
    found = list(mistakes(glossary, lang))
    assert not found, f"{len(found)} glossary breaks:\n" + "\n".join(found[:40])


def test_every_game_has_a_glossary() -> None:
    games = {p.parent.name for p in (i18n.ROOT / "games").glob("*/locale")}
    assert games <= {p.parent.parent.name for p in GLOSSARIES}
