"""Chat: a chat at every table and one in the lobby, stored, delivered live, with limits on
length and rate, mutes, and system lines (joined, left, resigned, timed out...) in the same
stream.

At a rated table what spectators say is not shown to the players until the game is over. A
line reaches a WebSocket as ``{"type": "chat", ...}`` (see :func:`line_json`); text is kept as
typed and escaped wherever it is shown. A system line is stored without words (what happened
and to whom, as JSON: ``{"say": "joined", "name": "Ann"}``) and said when it is read, in the
reader's language.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from meeple.engine import i18n
from meeple.engine.i18n import N_, words

from ..deps import Limiter
from ..domain import DELETED_NAME, Code, Refused, SeatKind, TableStatus, UserRecord
from ..live import Holder, LiveTable
from ..views import PLAYER_N, deleted_player, player_n, shown_name
from .store import ChatLine, CommunityStore

_, _n = words(__file__)

log = logging.getLogger("meeple.server.community")
MAX_TEXT = 500
"""The longest chat line (characters)."""
HISTORY = 100
"""Lines a room shows when it is opened."""
MUTES_KEPT = 10.0
"""How long a person's mutes are kept in memory before they are read again (seconds: a mute
made through another server process counts after this long at most)."""
LOBBY = "lobby"
SAY, SYSTEM = "say", "system"

SYSTEM_TEXTS = {
    "joined": N_("{name} sat down."),
    "left": N_("{name} left the table."),
    "started": N_("The game has begun."),
    "resigned": N_("{name} resigned."),
    "timed_out": N_("{name} ran out of time."),
    "claimed": N_("The game was claimed."),
    "aborted": N_("The game was called off."),
    "closed": N_("An operator closed the table."),
    "finished": N_("The game is over."),
    "ratings": N_("New ratings: {ratings}."),
    "unrated": N_("This game changes no rating: it was given up in its first moves."),
}
"""The system lines, by what happened (the ``say`` of a stored line)."""


def system_text(say: str, **params: Any) -> str:
    """A system line as it is stored: what happened (a key of :data:`SYSTEM_TEXTS`) and its
    details, no words."""
    return json.dumps({"say": say, **params}, separators=(",", ":"))


def _name(params: dict[str, Any]) -> str:
    name = params.get("name")
    if name == DELETED_NAME:
        return deleted_player()
    if isinstance(name, str) and name:
        m = PLAYER_N.fullmatch(name)
        return player_n(int(m.group(1))) if m else name
    seat = params.get("seat")
    return player_n(seat + 1 if isinstance(seat, int) else 1)


def said(line: ChatLine) -> str:
    """The text of a line in the language in use: a system line said now (one stored in
    words before system lines were kept without them reads as it was stored)."""
    if line.kind != SYSTEM or not line.text.startswith("{"):
        return line.text
    try:
        data = json.loads(line.text)
    except ValueError:
        return line.text
    text = SYSTEM_TEXTS.get(str(data.get("say"))) if isinstance(data, dict) else None
    if text is None:
        return line.text
    if data["say"] == "ratings":
        # TRANSLATORS: one player's new rating in the line "New ratings: ..."
        parts = [_("{name} {rating}", name=_name({"name": name}) if name else _("a player"),
                   rating=rating)
                 for name, rating in data.get("ratings", ())]
        return _(text, ratings=", ".join(parts))
    return _(text, name=_name(data)) if "{name}" in text else _(text)


def table_room(table_id: str) -> str:
    return f"table:{table_id}"


def clean_text(text: Any) -> str:
    """A chat line as it is stored: one line of printable text, 1 to ``MAX_TEXT`` characters
    (a refusal otherwise)."""
    if not isinstance(text, str):
        raise Refused(Code.BAD_REQUEST, _("a chat line is text"))
    text = " ".join(text.split())
    if not text:
        raise Refused(Code.INVALID, _("say something first"))
    if len(text) > MAX_TEXT:
        raise Refused(Code.INVALID, _("a chat line is at most {most} characters",
                                      most=MAX_TEXT))
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co") for ch in text):
        raise Refused(Code.INVALID, _("a chat line cannot hold control characters"))
    return text


def line_json(line: ChatLine) -> dict[str, Any]:
    """A chat line as the API and the sockets send it."""
    out = {"type": "chat", "id": line.id, "name": line.name, "text": said(line),
           "system": line.kind == SYSTEM, "spectator": line.spectator, "time": line.created}
    if line.name == DELETED_NAME and line.user_id:  # said by a deleted account
        out.update(name=deleted_player(), deleted=True)
    return out


def is_rated(lt: LiveTable) -> bool:
    return bool(getattr(lt.meta, "rated", False))


def is_player(lt: LiveTable, who: Holder) -> bool:
    """Whether ``who`` sits (or sat) at the table, by session or seat token."""
    if lt.held_by(who):
        return True
    return who.user_id is not None and any(s.user_id == who.user_id for s in lt.seats)


def hides_spectators(lt: LiveTable) -> bool:
    """Whether spectators' lines are kept from the players now (a rated game not over)."""
    return is_rated(lt) and lt.meta.status != TableStatus.FINISHED


@dataclass(eq=False)
class LobbyConn:
    """One connection to the lobby chat."""

    user_id: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    ended: bool = False
    """Whether the session it was opened under ended (it closes, and says nothing more)."""


class ChatService:
    """Every chat of this server process: checks, stores and delivers lines."""

    def __init__(self, store: CommunityStore):
        self.store = store
        self.lobby: set[LobbyConn] = set()
        self.limiter: Limiter | None = None
        """The app's rate limits, which count the lines said (its own if not set)."""
        self._mutes: dict[int, tuple[float, set[int]]] = {}
        self.publish: Callable[[ChatLine], Awaitable[None]] | None = None
        """Tells other server processes of a new line (set when Redis is configured)."""
        self.find_table: Callable[[str], LiveTable | None] = lambda _tid: None
        """The table of this process a line of another process belongs to."""

    async def _share(self, line: ChatLine) -> None:
        if self.publish is not None:
            try:
                await self.publish(line)
            except Exception:
                log.exception("a chat line could not be told to the other processes")

    async def from_elsewhere(self, line: ChatLine) -> None:
        """A line another process stored: deliver it to this process's connections."""
        if line.room == LOBBY:
            self.deliver_lobby(line)
        elif line.room.startswith("table:"):
            lt = self.find_table(line.room[len("table:"):])
            if lt is not None:
                self.deliver_table(lt, line)

    # ------------------------------------------------------------------ mutes
    def mutes_of(self, user_id: int | None) -> set[int]:
        """The people whose lines ``user_id`` is not shown: those they muted, and those they
        blocked or who blocked them (kept in memory once read)."""
        if user_id is None:
            return set()
        now = time.monotonic()
        have = self._mutes.get(user_id)
        if have is None or now - have[0] > MUTES_KEPT:
            hidden = self.store.mutes(user_id) | self.store.blocked_with(user_id)
            have = self._mutes[user_id] = (now, hidden)
        return have[1]

    def mute(self, user_id: int, muted_id: int, block: bool = False) -> None:
        """Mute a person for ``user_id`` (``block``: block them, which also keeps the two
        apart at tables and in invitations, and hides each one's lines from the other)."""
        if user_id == muted_id:
            raise Refused(Code.INVALID, _("you cannot block yourself") if block
                          else _("you cannot mute yourself"))
        self.store.mute(user_id, muted_id, block)
        self._mutes.pop(user_id, None)
        self._mutes.pop(muted_id, None)

    def unmute(self, user_id: int, muted_id: int, block: bool = False) -> None:
        self.store.unmute(user_id, muted_id, block)
        self._mutes.pop(user_id, None)
        self._mutes.pop(muted_id, None)

    def forget(self, user_id: int) -> None:
        """Read ``user_id``'s mutes and blocks again when next asked."""
        self._mutes.pop(user_id, None)

    async def delete_line(self, line_id: int) -> ChatLine | None:
        """An operator deletes a line: gone from storage, and from the pages of this process
        that show it (``{"type": "chat_deleted", "id"}``; the others' on their next
        reading); the line it was, if any."""
        line = await asyncio.to_thread(self.store.delete_chat, line_id)
        if line is None:
            return None
        text = json.dumps({"type": "chat_deleted", "id": line.id})
        if line.room == LOBBY:
            for c in list(self.lobby):
                c.queue.put_nowait(text)
        elif line.room.startswith("table:"):
            lt = self.find_table(line.room[len("table:"):])
            for conn in list(lt.conns) if lt is not None else []:
                conn.queue.put_nowait(text)
        return line

    # ------------------------------------------------------------------ limits
    async def _check_rate(self, user_id: int) -> None:
        """Refuse a line beyond the person's chat limit (the app's rate limits, kind
        ``"chat"``)."""
        if self.limiter is None:
            self.limiter = Limiter()
        await self.limiter.check("chat", user_id, None)

    # ------------------------------------------------------------------ tables
    def may_read(self, lt: LiveTable, line: ChatLine, who: Holder) -> bool:
        """Whether ``who`` is shown ``line`` of this table's chat now. While a rated game is
        played, spectators' lines are for signed-in spectators only: a reader who signs in
        nowhere could be a player who left the cookie out."""
        if line.user_id is not None and line.user_id in self.mutes_of(who.user_id):
            return False
        if line.spectator and line.user_id != who.user_id and hides_spectators(lt) and (
                who.user_id is None or is_player(lt, who)):
            return False
        return True

    def table_history(self, lt: LiveTable, who: Holder) -> list[dict[str, Any]]:
        lines = self.store.chat(table_room(lt.id), HISTORY)
        return [line_json(x) for x in lines if self.may_read(lt, x, who)]

    async def say_at_table(self, lt: LiveTable, user: UserRecord | None, who: Holder,
                           text: Any) -> ChatLine:
        """``user`` says ``text`` at the table (a spectator unless they sit there)."""
        if user is None:
            raise Refused(Code.UNAUTHORIZED, _("sign in or play as a guest to chat"))
        clean = clean_text(text)
        await self._check_rate(user.id)
        spectator = not is_player(lt, Holder(user.id, who.token_hashes))
        line = await asyncio.to_thread(self.store.add_chat, table_room(lt.id), user.id,
                                       user.name, clean, SAY, spectator)
        self.deliver_table(lt, line)
        await self._share(line)
        return line

    def deliver_table(self, lt: LiveTable, line: ChatLine) -> None:
        texts: dict[str, str] = {}  # the line in each reader's language
        for c in list(lt.conns):
            if self.may_read(lt, line, c):
                text = texts.get(c.lang)
                if text is None:
                    with i18n.speaking(c.lang):
                        text = texts[c.lang] = json.dumps(line_json(line))
                c.queue.put_nowait(text)

    async def system(self, lt: LiveTable, say: str, **params: Any) -> ChatLine:
        """A system line in a table's chat: ``say``, a key of :data:`SYSTEM_TEXTS`, with its
        ``params`` (stored so, and said in each reader's language)."""
        line = await asyncio.to_thread(self.store.add_chat, table_room(lt.id), None, "",
                                       system_text(say, **params), SYSTEM, False)
        self.deliver_table(lt, line)
        await self._share(line)
        return line

    async def on_event(self, lt: LiveTable, event: str, data: dict[str, Any]) -> None:
        """A table event as a system line (events without words of their own say nothing)."""
        if event == "aborted" and data.get("closed"):
            event = "closed"  # an operator closed it
        text = SYSTEM_TEXTS.get(event)
        if text is None or event == "ratings":
            return
        if "{name}" not in text:
            await self.system(lt, event)
            return
        name = data.get("name")
        seat = data.get("seat")
        if name is None and isinstance(seat, int) and 0 <= seat < len(lt.seats):
            s = lt.seats[seat]
            if s.kind == SeatKind.BOT:
                with i18n.speaking(i18n.DEFAULT):
                    name = shown_name(s, lt.seats)
            elif s.kind != SeatKind.OPEN:
                name = s.name
        await self.system(lt, event, name=name or None,
                          seat=int(seat) if isinstance(seat, int) else 0)

    # ------------------------------------------------------------------ lobby
    def lobby_history(self, user_id: int | None) -> list[dict[str, Any]]:
        muted = self.mutes_of(user_id)
        return [line_json(x) for x in self.store.chat(LOBBY, HISTORY)
                if x.user_id is None or x.user_id not in muted]

    async def say_in_lobby(self, user: UserRecord | None, text: Any) -> ChatLine:
        if user is None:
            raise Refused(Code.UNAUTHORIZED, _("sign in or play as a guest to chat"))
        clean = clean_text(text)
        await self._check_rate(user.id)
        line = await asyncio.to_thread(self.store.add_chat, LOBBY, user.id, user.name, clean,
                                       SAY, False)
        self.deliver_lobby(line)
        await self._share(line)
        return line

    def deliver_lobby(self, line: ChatLine, to: Iterable[LobbyConn] | None = None) -> None:
        text = json.dumps(line_json(line))
        for c in list(self.lobby if to is None else to):
            if line.user_id is None or line.user_id not in self.mutes_of(c.user_id):
                c.queue.put_nowait(text)

    def tell(self, user_id: int, message: dict[str, Any]) -> int:
        """Send a message to every lobby connection of one person; how many got it."""
        text = json.dumps(message)
        sent = 0
        for c in list(self.lobby):
            if c.user_id == user_id:
                c.queue.put_nowait(text)
                sent += 1
        return sent
