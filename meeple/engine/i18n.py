"""The four languages meeple speaks: the language in use, and the words of every package.

A package whose texts a person reads keeps them in a ``locale`` folder of gettext catalogs,
one ``<lang>.po`` per language besides English (the texts in the code are the English ones):
``meeple/locale`` (the terminal), ``meeple/engine/locale``, each game's
``meeple/games/<game>/locale``, ``meeple/bots/locale``, ``meeple/server/locale`` and
``meeple/web/locale`` (the browser). A module speaks through the catalog of the nearest
package above it that has one::

    from meeple.engine.i18n import N_, words

    _, _n = words(__file__)
    _("catches {count} aliens", count=3)           # a text said now
    _n("{n} tile in hand", "{n} tiles in hand", 2)  # one of its plural forms
    LABEL = N_("Largest group")                      # marked here, said later: _(LABEL)

Placeholders are ``{name}``; numbers put into them are written as the language writes
numbers. The language in use belongs to the running context (a request, a socket, the
terminal), see :func:`speaking`; what is stored (records, notation) never depends on it.
``python -m meeple.engine.catalogs`` extracts the texts and keeps the catalogs in step.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache, wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "es": "Español",
                             "nl": "Nederlands"}
"""The languages, each named in itself; English, the language of the code, first."""
DEFAULT = "en"
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != DEFAULT)
"""The languages with catalogs (English is the code's own)."""
ROOT = Path(__file__).resolve().parent.parent
"""The ``meeple`` package folder, the top of every catalog lookup."""

_P = ParamSpec("_P")
_T = TypeVar("_T")

_language: ContextVar[str] = ContextVar("meeple_language", default=DEFAULT)


def language() -> str:
    """The language in use here ("en", "de", "es" or "nl")."""
    return _language.get()


def known(lang: str | None) -> str | None:
    """``lang`` as one of :data:`LANGUAGES` ("de_DE.UTF-8" and "de-AT" give "de"), or
    ``None``."""
    if not lang:
        return None
    code = lang.strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def set_language(lang: str | None) -> str:
    """Speak ``lang`` from now on in this context (English for an unknown one); returns the
    language set."""
    code = known(lang) or DEFAULT
    _language.set(code)
    return code


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Speak ``lang`` inside the block (English for an unknown one)."""
    token = _language.set(known(lang) or DEFAULT)
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def negotiate(accept_language: str | None) -> str | None:
    """The best of :data:`LANGUAGES` for a browser's ``Accept-Language`` header, or ``None``
    when it names none of them."""
    if not accept_language:
        return None
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")[:32]):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = known(tag)
        if code is not None and q > 0:
            wanted.append((-q, i, code))
    return min(wanted)[2] if wanted else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``
    (the first set wins, as gettext reads them), else English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            for choice in value.split(":"):
                code = known(choice)
                if code is not None:
                    return code
            return DEFAULT
    return DEFAULT


# ------------------------------------------------------------------ catalogs

def catalog_folder(path: str | os.PathLike[str]) -> Path:
    """The ``locale`` folder that speaks for the module or folder at ``path``: the nearest
    one above it inside the ``meeple`` package (``meeple/locale`` at the top)."""
    p = Path(path).resolve()
    folder = p if p.is_dir() else p.parent
    while True:
        if (folder / "locale").is_dir():
            return folder / "locale"
        if folder == ROOT or folder.parent == folder:
            return ROOT / "locale"
        folder = folder.parent


@cache
def _translations(folder: Path, lang: str) -> gettext.NullTranslations:
    po = folder / f"{lang}.po"
    if lang == DEFAULT or not po.is_file():
        return gettext.NullTranslations()
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    for message in list(catalog):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.id and (message.fuzzy or not all(strings)):
            catalog.delete(message.id, message.context)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@cache
def _texts(folder: Path, lang: str) -> tuple[tuple[str, str | list[str]], ...]:
    po = folder / f"{lang}.po"
    if lang == DEFAULT or not po.is_file():
        return ()
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    out: list[tuple[str, str | list[str]]] = []
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, str):
            if m.string:
                out.append((m.id, str(m.string)))
        elif isinstance(m.string, tuple | list) and all(m.string):
            out.append((m.id[0], [str(s) for s in m.string]))
    return tuple(out)


@lru_cache(maxsize=8192)
def _decimal(value: float, lang: str) -> str:
    return str(format_decimal(value, locale=lang))


def _number(value: Any, lang: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    if type(value) is int and -1000 < value < 1000:  # no language groups these digits
        return str(value)
    return _decimal(value, lang)


def _fill(text: str, params: dict[str, Any], lang: str, english: str) -> str:
    if not params:
        return text
    values = {k: _number(v, lang) if type(v) in (int, float) else v for k, v in params.items()}
    try:
        return text.format_map(values)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English text
        return english.format_map(values)


class Words:
    """The texts of one catalog in the language in use: :meth:`say` and :meth:`plural`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._by_lang: dict[str, gettext.NullTranslations] = {}

    def translations(self, lang: str | None = None) -> gettext.NullTranslations:
        """The catalog of ``lang`` (the language in use by default)."""
        return self._of(known(lang) or language())

    def _of(self, lang: str) -> gettext.NullTranslations:
        """The catalog of the known language ``lang`` (kept here: a text is said often)."""
        t = self._by_lang.get(lang)
        if t is None:
            t = self._by_lang[lang] = _translations(self.folder, lang)
        return t

    def say(self, text: str, /, **params: Any) -> str:
        """``text`` in the language in use, its ``{placeholders}`` filled from ``params``."""
        lang = _language.get()
        said = text if lang == DEFAULT else self._of(lang).gettext(text)
        return _fill(said, params, lang, text) if params else said

    def plural(self, singular: str, plural: str, n: float, /, **params: Any) -> str:
        """The form of ``singular``/``plural`` for the count ``n`` (also placeholder
        ``{n}``) in the language in use; a count with a fraction (2.5 points) takes the
        form of many."""
        lang = _language.get()
        count = n if type(n) is int else int(n) if float(n).is_integer() else 2
        return _fill(self._of(lang).ngettext(singular, plural, count),
                     {"n": n, **params}, lang, singular if count == 1 else plural)

    def texts(self, lang: str) -> dict[str, str | list[str]]:
        """Every translated text of ``lang``: the English text (the singular for a text
        with plural forms) with its translation or its list of plural forms."""
        return dict(_texts(self.folder, lang))

    def has(self, text: str, lang: str | None = None) -> bool:
        """Whether ``text`` is in the catalog of ``lang`` (English always has it)."""
        code = known(lang) or language()
        return code == DEFAULT or self.translations(code).gettext(text) is not text


@cache
def _words(folder: Path) -> Words:
    return Words(folder)


def words(path: str | os.PathLike[str]) -> tuple[Callable[..., str], Callable[..., str]]:
    """The pair ``_``, ``_n`` a module at ``path`` (its ``__file__``) speaks with: a text,
    and a text with plural forms."""
    w = _words(catalog_folder(path))
    return w.say, w.plural


def words_of(path: str | os.PathLike[str]) -> Words:
    """The :class:`Words` of the catalog that speaks for ``path``."""
    return _words(catalog_folder(path))


def memo(maxsize: int = 4096) -> Callable[[Callable[_P, _T]], Callable[_P, _T]]:
    """Keep what a pure function says, per language in use: a piece of a picture drawn at the
    same place with the same arguments (an alien on cell 3,4), or the label of the same move,
    is worked out once and then taken from the cache, for every table. The arguments must be
    hashable, and the result must depend on nothing else but the language (and must not be
    changed by its callers)."""

    def wrap(fn: Callable[_P, _T]) -> Callable[_P, _T]:
        @lru_cache(maxsize=maxsize)
        def said(lang: str, *args: Any, **kwargs: Any) -> _T:
            return fn(*args, **kwargs)

        @wraps(fn)
        def call(*args: _P.args, **kwargs: _P.kwargs) -> _T:
            return said(_language.get(), *args, **kwargs)  # type: ignore[arg-type]

        return call

    return wrap


def N_(text: str) -> str:  # noqa: N802 - the gettext name for a text marked, said later
    """Mark ``text`` for the catalog where it is written; it is said later with ``_``."""
    return text


def number(value: float, lang: str | None = None) -> str:
    """``value`` written as ``lang`` (the language in use) writes numbers."""
    return str(_number(value, known(lang) or language()))


def plural_categories(lang: str) -> list[str]:
    """The plural categories (CLDR: "one", "many", "other", ...) in the order of the
    catalog's plural forms for ``lang``, for the browser's ``Intl.PluralRules``."""
    from babel.messages.plurals import get_plural

    rule = Locale.parse(lang).plural_form
    forms = get_plural(lang)
    expr = gettext.c2py(forms.plural_expr)
    cats = ["other"] * forms.num_plurals
    for n in (0, 1, 2, 3, 5, 11, 21, 100, 1_000_000, 2_000_000):
        cats[expr(n)] = rule(n)
    return cats


def page(package: str, name: str, lang: str | None = None) -> str:
    """The Markdown page ``name`` (e.g. ``"rules.md"``) of ``package`` in ``lang`` (the
    language in use): ``rules.de.md`` beside ``rules.md``, the English page where a language
    has none."""
    import importlib.resources

    files = importlib.resources.files(package)
    code = known(lang) or language()
    stem, dot, ext = name.rpartition(".")
    if code != DEFAULT and dot:
        local = files.joinpath(f"{stem}.{code}.{ext}")
        if local.is_file():
            return local.read_text(encoding="utf-8")
    return files.joinpath(name).read_text(encoding="utf-8")
