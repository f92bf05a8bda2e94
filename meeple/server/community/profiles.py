"""Profiles: a person's games per title (played, won, rating), their recent games with links
to replays and reviews, their rating history, who they follow, and a generated avatar.

A private table is not there for those who did not sit at it: its games are left out of the
games counted, the recent games and the rating history others are shown (the person
themself sees them all)."""

from __future__ import annotations

import colorsys
import hashlib
from typing import Any
from urllib.parse import quote

from meeple.engine import MeepleError
from meeple.engine.i18n import words
from meeple.engine.registry import game_class
from meeple.engine.svg import esc

from ..domain import SeatKind, StoredTable, TableStatus, UserRecord, Visibility
from ..store import Store
from ..views import table_summary
from .ratings import MU, SIGMA, Ratings, shown
from .store import CommunityStore

_, _n = words(__file__)

RECENT = 20
SCANNED = 500
"""Finished tables read to count a person's games."""
AVATAR_CELLS = 5


def avatar_url(name: str) -> str:
    return f"/api/users/{quote(name, safe='')}/avatar.svg"


def avatar_svg(name: str, size: int = 64) -> str:
    """A picture made from a name: a mirrored five-by-five pattern in one colour of the
    name's own (the same name always gives the same picture; no text in it)."""
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    hue = digest[0] / 255
    r, g, b = colorsys.hls_to_rgb(hue, 0.42, 0.55)
    fill = f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
    cells = []
    half = (AVATAR_CELLS + 1) // 2
    bit = 0
    for row in range(AVATAR_CELLS):
        for col in range(half):
            on = digest[1 + bit // 8] >> (bit % 8) & 1
            bit += 1
            if not on:
                continue
            for c in {col, AVATAR_CELLS - 1 - col}:
                cells.append(f'<rect x="{c + 1}" y="{row + 1}" width="1" height="1"/>')
    label = esc(_("Picture of {name}", name=name))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 7 7" width="{size}" '
            f'height="{size}" role="img" aria-label="{label}"><title>{label}</title>'
            f'<rect width="7" height="7" fill="#f1efe8"/><g fill="{fill}">{"".join(cells)}</g>'
            "</svg>")


def game_title(game: str) -> str:
    """A game's title (its name if it is not installed)."""
    try:
        return str(game_class(game).title)
    except MeepleError:
        return game


def nearest_bot(ratings: Ratings, game: str, rating: float) -> dict[str, Any] | None:
    """The bot level of ``game`` whose rating is nearest to ``rating`` (the weaker one of
    two as near), as ``{"spec", "name", "rating"}``; ``None`` when the game has no levels."""
    best = None
    for row in ratings.bot_board(game):
        key = (abs(row["rating"] - rating), row["rating"])
        if best is None or key < best[0]:
            best = (key, {"spec": row["spec"], "name": row["name"], "rating": row["rating"]})
    return None if best is None else best[1]


def hidden_from(table: StoredTable | None, viewer: int | None) -> bool:
    """Whether ``viewer`` may not see ``table``: a private table they did not sit at (a
    table no longer stored shows nothing of itself)."""
    if table is None:
        return False
    return table.meta.visibility == Visibility.PRIVATE and not (
        viewer is not None and any(s.user_id == viewer for s in table.seats))


def profile(users: Store, community: CommunityStore, ratings: Ratings, user: UserRecord,
            viewer: int | None) -> dict[str, Any]:
    """Everything a profile page shows of ``user`` to ``viewer`` (a user id or nobody)."""
    finished = users.tables_of(user.id, [TableStatus.FINISHED], newest="finished",
                               limit=SCANNED)
    own = viewer == user.id
    if not own:
        finished = [(t, seats) for t, seats in finished if not hidden_from(t, viewer)]
    read = {t.meta.id: t for t, _ in finished}
    rated_ids = community.rated_tables([t.meta.id for t, _ in finished])
    per_game: dict[str, dict[str, Any]] = {}
    recent: list[dict[str, Any]] = []
    for table, seats in finished:
        m = table.meta
        ranks = (m.result or {}).get("ranks") or []
        seat = seats[0]
        rank = ranks[seat] if seat < len(ranks) else None
        g = per_game.setdefault(m.game, {"game": m.game, "title": game_title(m.game),
                                         "played": 0, "won": 0})
        g["played"] += 1
        g["won"] += 1 if rank == 1 else 0
        if len(recent) < RECENT:
            item = table_summary(table)
            item.update(seat=seat, rank=rank, rated=m.id in rated_ids,
                        replay=f"/replay/{quote(m.id)}", review=f"/review/{quote(m.id)}")
            recent.append(item)
    for r in community.ratings_of(user.id):
        g = per_game.setdefault(r.game, {"game": r.game, "title": game_title(r.game),
                                         "played": 0, "won": 0})
        g.update(rating=shown(r.mu, r.sigma), mu=round(r.mu, 2), sigma=round(r.sigma, 2),
                 rated_games=r.played,
                 # every rated game is a finished one (beyond the tables read, too)
                 played=max(g["played"], r.played), won=max(g["won"], r.won))
    for g in per_game.values():
        g.setdefault("rating", shown(MU, SIGMA))
        g.setdefault("rated_games", 0)
        near = nearest_bot(ratings, g["game"], g["rating"]) if g["rated_games"] else None
        if near is not None:
            g["nearest_bot"] = near
    history: dict[str, list[dict[str, Any]]] = {}
    for p in community.history(user.id):
        if not own and p.table_id not in read and hidden_from(users.table(p.table_id), viewer):
            continue
        history.setdefault(p.game, []).append({"table": p.table_id, "time": p.created,
                                               "rank": p.rank, "rating": shown(p.mu, p.sigma)})
    following = []
    for uid in community.following(user.id):
        other = users.user(uid)
        if other is not None and other.deleted is None:
            following.append({"name": other.name, "avatar": avatar_url(other.name)})
    out: dict[str, Any] = {
        "name": user.name, "guest": user.guest, "created": user.created,
        "avatar": avatar_url(user.name),
        "games": sorted(per_game.values(), key=lambda g: (-g["played"], g["title"])),
        "recent": recent, "history": history, "following": following,
        "followers": community.followers(user.id), "me": viewer == user.id,
        "you_follow": viewer is not None and user.id in community.following(viewer),
        "muted": viewer is not None and user.id in community.mutes(viewer),
        "blocked": viewer is not None and user.id in community.blocks(viewer),
    }
    if viewer == user.id:
        n = community.notify(user.id)
        out["notify"] = {"email": n.email, "turn_mail": n.turn_mail}
        invitations = []
        muted = community.mutes(user.id) | community.blocked_with(user.id)
        for inv in community.invitations(user.id):
            if inv.from_id in muted:
                continue  # a mute silences invitations too, a block either way
            sender = users.user(inv.from_id)
            stored = users.table(inv.table_id)
            if sender is None or sender.barred or stored is None \
                    or stored.meta.status != TableStatus.WAITING \
                    or all(s.kind != SeatKind.OPEN for s in stored.seats):
                continue  # the table began, or has no seat left
            link = (f"/invite/{quote(inv.table_id)}/{quote(stored.meta.invite_code)}"
                    if stored.meta.visibility == Visibility.PRIVATE
                    else f"/table/{quote(inv.table_id)}")
            invitations.append({"from": sender.name, "table": inv.table_id,
                                "title": game_title(stored.meta.game), "link": link,
                                "time": inv.created})
        out["invitations"] = invitations
    return out
