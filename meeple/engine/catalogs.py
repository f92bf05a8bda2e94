"""Keeping the catalogs in step with the code: find every catalog and the files it speaks for,
extract their texts, update the ``.po`` files and list what is missing or stale.

    python -m meeple.engine.catalogs update [FOLDER ...]   # add new texts, drop stale ones
    python -m meeple.engine.catalogs check                 # what the tests refuse, listed

Texts are found in Python (``_``, ``_n``, ``N_``), in the browser's JavaScript (``t``,
``tn``) and in HTML pages (``{{ text }}``, filled in by the server).
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from .i18n import ROOT, TRANSLATED, catalog_folder

PY_KEYWORDS = {"_": None, "_n": (1, 2), "N_": None}
JS_KEYWORDS = {"t": None, "tn": (1, 2)}
JS_OPTIONS = {"template_string": True, "parse_template_string": True}
COMMENT_TAGS = ("TRANSLATORS:",)
SKIP = ("node_modules", "__pycache__", "migrations")
HTML_TEXT = re.compile(r"\{\{\s*(.+?)\s*\}\}", re.S)


@dataclass(frozen=True)
class Text:
    """One text of a catalog: its id (a tuple for a text with plural forms) and where it
    is written."""

    id: str | tuple[str, str]
    where: str
    comments: tuple[str, ...] = ()


def folders() -> list[Path]:
    """Every catalog folder of the package."""
    return sorted(p for p in ROOT.rglob("locale") if p.is_dir()
                  and not any(part in SKIP for part in p.parts))


def sources(folder: Path) -> list[Path]:
    """The files ``folder`` speaks for: the Python, JavaScript and HTML below its package
    that no nearer catalog speaks for."""
    base = folder.parent
    out = []
    for path in sorted(base.rglob("*")):
        if path.suffix not in (".py", ".js", ".html") or not path.is_file():
            continue
        if any(part in SKIP for part in path.relative_to(ROOT).parts):
            continue
        if catalog_folder(path) == folder:
            out.append(path)
    return out


def _html(path: Path) -> Iterator[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    for m in HTML_TEXT.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, " ".join(m.group(1).split())


def extract(folder: Path) -> list[Text]:
    """The texts the files of ``folder`` say, in the order they are written."""
    out: list[Text] = []
    for path in sources(folder):
        rel = path.relative_to(ROOT.parent).as_posix()
        if path.suffix == ".html":
            out += [Text(s, f"{rel}:{line}") for line, s in _html(path)]
            continue
        method = "python" if path.suffix == ".py" else "javascript"
        keywords = PY_KEYWORDS if method == "python" else JS_KEYWORDS
        for line, msg, comments, _ctx in extract_from_file(
                method, str(path), keywords=keywords, comment_tags=COMMENT_TAGS,
                strip_comment_tags=True, options=JS_OPTIONS if method != "python" else None):
            if isinstance(msg, tuple):
                if len(msg) != 2 or not all(msg):
                    continue
                out.append(Text((msg[0], msg[1]), f"{rel}:{line}", tuple(comments)))
            elif msg:
                out.append(Text(msg, f"{rel}:{line}", tuple(comments)))
    return out


def template(folder: Path) -> Catalog:
    """The catalog template of ``folder``: every text, with where it is written."""
    cat = Catalog(project="meeple", charset="utf-8")
    for text in extract(folder):
        path, line = text.where.rsplit(":", 1)
        old = cat.get(text.id)
        if old is not None:
            old.locations.append((path, int(line)))
            old.auto_comments += [c for c in text.comments if c not in old.auto_comments]
            continue
        cat.add(text.id, locations=[(path, int(line))], auto_comments=list(text.comments))
    return cat


def read(folder: Path, lang: str) -> Catalog:
    """The ``lang`` catalog of ``folder`` (an empty one when there is none yet)."""
    po = folder / f"{lang}.po"
    if not po.is_file():
        return Catalog(locale=lang, project="meeple", charset="utf-8")
    with po.open("rb") as f:
        return read_po(f, locale=lang)


def update(folder: Path) -> None:
    """Bring every language's ``.po`` of ``folder`` in step with the code: new texts added
    untranslated, stale ones dropped, translations kept."""
    tmpl = template(folder)
    for lang in TRANSLATED:
        cat = read(folder, lang)
        cat.update(tmpl, no_fuzzy_matching=True, update_header_comment=False)
        cat.obsolete.clear()
        with (folder / f"{lang}.po").open("wb") as f:
            write_po(f, cat, width=100, include_lineno=False, sort_output=False)


def _fields(text: str) -> set[str]:
    try:
        return {name for _lit, name, _spec, _conv in string.Formatter().parse(text)
                if name is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def problems(folder: Path) -> Iterator[str]:
    """What is wrong with ``folder``'s catalogs: a text with no translation (or a fuzzy
    one), a translation of a text the code no longer says, a translation whose
    placeholders differ from the text's, a wrong number of plural forms."""
    texts = {t.id: t.where for t in extract(folder)}
    rel = folder.relative_to(ROOT.parent).as_posix()
    for lang in TRANSLATED:
        po = f"{rel}/{lang}.po"
        if not (folder / f"{lang}.po").is_file():
            if texts:
                yield f"{po}: missing ({len(texts)} texts to translate)"
            continue
        cat = read(folder, lang)
        have: dict[Any, Any] = {}
        for message in cat:
            if message.id:
                have[message.id if isinstance(message.id, str) else tuple(message.id)] = message
        for tid, where in texts.items():
            m = have.get(tid)
            shown = tid if isinstance(tid, str) else tid[0]
            if m is None:
                yield f"{po}: no translation of {shown!r} ({where})"
                continue
            strings: tuple[str, ...] = tuple(m.string) if isinstance(m.string, tuple | list) \
                else (m.string or "",)
            if m.fuzzy or not all(strings):
                yield f"{po}: untranslated or fuzzy {shown!r} ({where})"
                continue
            if isinstance(tid, tuple) and len(strings) != cat.num_plurals:
                yield f"{po}: {shown!r} needs {cat.num_plurals} plural forms"
            want = set().union(*(_fields(s) for s in (tid if isinstance(tid, tuple) else (tid,))))
            for s in strings:
                if _fields(s) - want - {"n"} or (_fields(s) != want and not isinstance(tid, tuple)):
                    yield f"{po}: placeholders of {shown!r} differ: {s!r}"
                    break
        for key in have:
            if key not in texts:
                shown = key if isinstance(key, str) else key[0]
                yield f"{po}: stale translation of {shown!r} (the code no longer says it)"
        for old in cat.obsolete.values():
            yield f"{po}: stale translation of {old.id!r}"


def main(argv: Iterable[str]) -> int:
    args = list(argv)
    if not args or args[0] not in ("update", "check"):
        print(__doc__)
        return 2
    chosen = [Path(a).resolve() for a in args[1:]] or folders()
    chosen = [f if f.name == "locale" else f / "locale" for f in chosen]
    if args[0] == "update":
        for folder in chosen:
            folder.mkdir(exist_ok=True)
            update(folder)
            print(f"{folder.relative_to(ROOT.parent)}: {len(extract(folder))} texts")
        return 0
    found = [p for folder in chosen for p in problems(folder)]
    print("\n".join(found) or "every catalog is complete")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
