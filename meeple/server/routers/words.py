"""The languages: the browser's words in each language, and a person's choice of language."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Response

from meeple.engine import i18n

from ..deps import ServicesDep, SettingsDep, UserId
from ..language import remember
from ..schemas import LanguageChoice

router = APIRouter(tags=["languages"])
_, _n = i18n.words(__file__)
WEB_WORDS = i18n.words_of(i18n.ROOT / "web" / "app.js")


@router.get("/api/words/{lang}")
def web_words(lang: str, response: Response) -> dict[str, Any]:
    """The web client's texts in ``lang``: each English text with its translation (a list of
    plural forms for a text with them), the plural categories of those forms, and the
    languages there are, each named in itself."""
    code = i18n.known(lang)
    if code is None or code != lang:
        raise HTTPException(404, _("There is no language {lang}; there are {languages}.",
                                   lang=repr(lang)[:40], languages=", ".join(i18n.LANGUAGES)))
    response.headers["Cache-Control"] = "no-cache"
    return {"lang": code, "languages": i18n.LANGUAGES,
            "plural": i18n.plural_categories(code), "texts": WEB_WORDS.texts(code)}


@router.put("/api/language")
def choose_language(body: LanguageChoice, response: Response, settings: SettingsDep,
                    s: ServicesDep, uid: UserId) -> dict[str, str]:
    """Speak ``lang`` to this browser from now on (kept in the ``lang`` cookie) and, for a
    signed-in player, wherever they sign in and in their e-mails (kept in their account)."""
    remember(response, body.lang, settings.secure_cookies)
    if uid is not None:
        s.store.set_language(uid, body.lang)
    return {"lang": body.lang}
