"""Turn e-mails: when it has been a person's turn at a turn-based table for a while and they
have not come to the table, one e-mail says so, with a link to the table and a link that
unsubscribes them (a signed token, no sign-in needed). That link does one thing, once: it
turns off the turn e-mails of the subscription it was sent for (turning them on again makes
every older link void), and only for ``LINK_DAYS`` days.

Mail goes through the SMTP server given by URL (``meeple serve --smtp URL``; none by default:
then nobody is mailed): ``smtp://[user:password@]host[:port]`` (``smtps://`` for TLS from
the start, ``?starttls=1`` to upgrade), with ``?from=address`` (the sender, default
``meeple@<host>``) and ``?site=https://...`` (the site's address, for the links; default
``http://localhost:8000``). Sending happens in a thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import smtplib
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from meeple.engine import i18n
from meeple.engine.i18n import words

from ..domain import Code, Refused, SeatKind, TableStatus
from ..live import LiveTable
from ..views import shown_name
from .store import CommunityStore

_, _n = words(__file__)

log = logging.getLogger("meeple.server.mail")
AWAY_AFTER = 15 * 60.0
"""How long it must have been someone's turn, with them away from the table, before they are
mailed (seconds)."""
MAIL_GAP = 60 * 60.0
"""The least time between two turn e-mails to one person (seconds)."""
EMAIL = re.compile(r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$")
SALT = "meeple-unsubscribe"
PURPOSE = "turn_mail"
"""What an unsubscribe link turns off (the only thing it can)."""
LINK_DAYS = 30
"""How long an unsubscribe link works (days)."""


def check_email(value: Any) -> str:
    """An e-mail address as stored (a refusal if it does not look like one)."""
    if not isinstance(value, str) or not EMAIL.match(value.strip()):
        raise Refused(Code.INVALID, _("that does not look like an e-mail address"))
    return value.strip()


@dataclass(frozen=True)
class SmtpTarget:
    """Where and how to send mail, read from an ``smtp://`` URL."""

    host: str
    port: int
    tls: bool
    starttls: bool
    user: str | None
    password: str | None
    sender: str
    site: str

    @classmethod
    def parse(cls, url: str) -> SmtpTarget:
        u = urlsplit(url)
        if u.scheme not in ("smtp", "smtps") or not u.hostname:
            raise ValueError(_("the SMTP URL reads "
                               "smtp://[user:password@]host[:port][?from=address&site=https://...]"))
        q = {k: v[-1] for k, v in parse_qs(u.query).items()}
        tls = u.scheme == "smtps"
        return cls(host=u.hostname, port=u.port or (465 if tls else 25), tls=tls,
                   starttls=q.get("starttls", "") in ("1", "true", "yes"),
                   user=unquote(u.username) if u.username else None,
                   password=unquote(u.password) if u.password else None,
                   sender=q.get("from") or f"meeple@{u.hostname}",
                   site=(q.get("site") or "http://localhost:8000").rstrip("/"))


class Mailer:
    """Sends turn e-mails through one SMTP server."""

    def __init__(self, url: str, store: CommunityStore, secret: str, *,
                 away_after: float = AWAY_AFTER, mail_gap: float = MAIL_GAP,
                 name_of: Callable[[int], str | None] | None = None,
                 lang_of: Callable[[int], str | None] | None = None):
        self.target = SmtpTarget.parse(url)
        self.store = store
        self.signer = URLSafeTimedSerializer(secret, salt=SALT)
        self.away_after = away_after
        self.mail_gap = mail_gap
        self.name_of = name_of or (lambda _uid: None)
        self.lang_of = lang_of or (lambda _uid: None)
        """The language a person chose (their e-mails are written in it; else English)."""
        self.waits: dict[tuple[str, int], asyncio.Task[None]] = {}
        self.sent = 0

    # ------------------------------------------------------------------ links
    def unsubscribe_token(self, user_id: int, subscription: int = 0) -> str:
        """The signed, dated token of an unsubscribe link: who, from what, which time."""
        return str(self.signer.dumps({"u": user_id, "p": PURPOSE, "s": subscription}))

    def unsubscribe_link(self, user_id: int, subscription: int = 0) -> str:
        token = quote(self.unsubscribe_token(user_id, subscription))
        return f"{self.target.site}/api/unsubscribe?token={token}"

    def unsubscribe(self, token: str) -> tuple[int, str, str]:
        """Follow an unsubscribe link: the page's status, heading and sentence in words (it
        turns turn e-mails off if the link is one of ours, recent, and not used or replaced
        by a new subscription)."""
        elsewhere = _("You can turn turn e-mails on and off on your profile page.")
        try:
            data = self.signer.loads(token, max_age=LINK_DAYS * 24 * 3600)
        except SignatureExpired:
            return 410, _("This link has expired"), _n(
                "An unsubscribe link works for {n} day.", "An unsubscribe link works for {n} "
                "days.", LINK_DAYS) + " " + elsewhere
        except BadSignature:
            data = None
        if not (isinstance(data, dict) and data.get("p") == PURPOSE
                and isinstance(data.get("u"), int) and isinstance(data.get("s"), int)):
            return 403, _("This link is not valid"), _(
                "It is not one of our unsubscribe links, or it was cut short.") + " " + elsewhere
        if not self.store.unsubscribe(int(data["u"]), int(data["s"])):
            return 410, _("This link was used already"), _(
                "Turn e-mails were turned off already, or turned on again since: the link in "
                "the newest turn e-mail turns them off.") + " " + elsewhere
        return 200, _("Unsubscribed"), _("You will get no more turn e-mails. You can turn "
                                         "them on again on your profile page.")

    # ------------------------------------------------------------------ sending
    def message(self, to: str, user_id: int, name: str | None, lt: LiveTable,
                subscription: int = 0) -> EmailMessage:
        """The turn e-mail in the language in use (plain text: names are never markup
        here); its unsubscribe link ends ``subscription``."""
        title = lt.game.title if hasattr(lt.game, "title") else lt.meta.game
        others = [shown_name(s, lt.seats) or "" for s in lt.seats
                  if s.kind != SeatKind.OPEN and s.user_id != user_id and s.name]
        link = f"{self.target.site}/table/{quote(lt.id)}"
        unsubscribe = self.unsubscribe_link(user_id, subscription)
        msg = EmailMessage()
        msg["From"] = self.target.sender
        msg["To"] = to
        msg["Subject"] = _("Your turn in {title}", title=title)
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        hello = _("Hello {name},", name=name) if name else _("Hello,")
        turn = (_("It is your turn in {title} with {others}.", title=title,
                  others=", ".join(others)) if others
                else _("It is your turn in {title}.", title=title))
        lines = [hello, "", turn, _("Play your move here: {link}", link=link), "",
                 _("You get this e-mail because you asked to hear of your turn when you are "
                   "away."),
                 _("To get no more of them, open: {link}", link=unsubscribe)]
        msg.set_content("\n".join(lines) + "\n")
        msg["Content-Language"] = i18n.language()
        return msg

    def _send(self, msg: EmailMessage) -> None:
        t = self.target
        smtp: smtplib.SMTP
        if t.tls:
            smtp = smtplib.SMTP_SSL(t.host, t.port, timeout=20)
        else:
            smtp = smtplib.SMTP(t.host, t.port, timeout=20)
        with smtp:
            if t.starttls:
                smtp.starttls()
            if t.user:
                smtp.login(t.user, t.password or "")
            smtp.send_message(msg)

    async def send(self, msg: EmailMessage) -> None:
        """Send one message, in a thread."""
        await asyncio.to_thread(self._send, msg)
        self.sent += 1

    # ------------------------------------------------------------------ turns
    async def on_event(self, lt: LiveTable, event: str, data: dict[str, Any]) -> None:
        """On a ``turn`` event, wait ``away_after`` for each person to move (``finished`` or
        ``aborted``: stop waiting)."""
        if event in ("finished", "aborted"):
            for key in [k for k in self.waits if k[0] == lt.id]:
                self.waits.pop(key).cancel()
            return
        if event != "turn":
            return
        if lt.meta.clock and lt.meta.clock.get("kind") == "fischer":
            return  # a live game on a running clock: no e-mail would arrive in time
        now_to_move = {int(u) for u in data.get("user_ids") or [] if u is not None}
        for key in [k for k in self.waits if k[0] == lt.id and k[1] not in now_to_move]:
            self.waits.pop(key).cancel()
        for uid in now_to_move:
            key = (lt.id, uid)
            if key in self.waits and not self.waits[key].done():
                continue
            self.waits[key] = asyncio.create_task(self._wait(lt, uid, lt.state.move_number()))

    def _still_waited_for(self, lt: LiveTable, user_id: int) -> bool:
        if lt.meta.status != TableStatus.RUNNING:
            return False
        pending = set(lt.state.pending_players())
        return any(s.user_id == user_id and s.kind == SeatKind.HUMAN and s.seat in pending
                   for s in lt.seats)

    def _present(self, lt: LiveTable, user_id: int) -> bool:
        return any(c.user_id == user_id or (lt.held_by(c) & {
            s.seat for s in lt.seats if s.user_id == user_id}) for c in lt.conns)

    async def _wait(self, lt: LiveTable, user_id: int, since: int) -> None:
        try:
            await asyncio.sleep(self.away_after)
            await self.mail_turn(lt, user_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn e-mail to user %s failed", user_id)
        finally:
            with contextlib.suppress(KeyError):
                if self.waits.get((lt.id, user_id)) is asyncio.current_task():
                    del self.waits[(lt.id, user_id)]

    async def mail_turn(self, lt: LiveTable, user_id: int) -> bool:
        """Mail ``user_id`` that it is their turn at ``lt``, if it still is, they are not at
        the table, they asked for turn e-mails and were not mailed a moment ago."""
        if not self._still_waited_for(lt, user_id) or self._present(lt, user_id):
            return False
        prefs = await asyncio.to_thread(self.store.notify, user_id)
        now = time.time()
        if not prefs.turn_mail or not prefs.email:
            return False
        if prefs.last_mailed is not None and now - prefs.last_mailed < self.mail_gap:
            return False
        name = self.name_of(user_id)
        lang = await asyncio.to_thread(self.lang_of, user_id)
        await asyncio.to_thread(self.store.set_notify, user_id, last_mailed=now)
        with i18n.speaking(lang):  # the person's own language, else English
            msg = self.message(prefs.email, user_id, name, lt, prefs.subscription)
        await self.send(msg)
        return True

    def stop(self) -> None:
        for t in self.waits.values():
            t.cancel()
        self.waits.clear()
