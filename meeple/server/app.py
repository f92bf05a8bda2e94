"""The FastAPI application: pages, players, lobby and tables (REST) and live play (WebSocket).

The routes are described in ``docs/api.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import secrets
import time
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Body, FastAPI, HTTPException, Query, Request, Response, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker
from starlette.websockets import WebSocketDisconnect

import meeple
from meeple.bots import bot_names, make_bot
from meeple.engine import MeepleError, game_class

from . import auth
from .db import SeatRow, Setting, TableRow, User, checkpoint, open_database
from .live import CLOCK_PROFILES, FRAME_DUE, Conn, Hub, LiveTable, Refused, safe_svg

log = logging.getLogger("meeple.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
PAGES = ("/", "/login", "/signup", "/lobby", "/new", "/games")
PAGE_PREFIXES = ("table", "replay", "rules", "profile", "invite", "watch")


# ---------------------------------------------------------------------- request bodies
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Strict):
    name: str = Field(max_length=64)
    password: str = Field(max_length=400)


class GuestBody(Strict):
    name: str = Field(max_length=64)


class SeatSpec(Strict):
    kind: Literal["me", "bot", "open"] = "open"
    bot: str | None = Field(default=None, max_length=40)


class ClockSpec(Strict):
    kind: Literal["fischer", "per_move"]
    initial: float | None = Field(default=None, gt=0, le=30 * 86400)
    increment: float = Field(default=0, ge=0, le=86400)
    seconds: float | None = Field(default=None, gt=0, le=60 * 86400)
    on_timeout: Literal["bot", "forfeit"] = "bot"
    bot: str = Field(default="greedy", max_length=40)


class NewTable(Strict):
    game: str = Field(max_length=40)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = Field(default=None, max_length=16)
    visibility: Literal["public", "private"] = "public"
    clock: str | ClockSpec | None = None
    start: bool = True


class JoinBody(Strict):
    seat: int | None = Field(default=None, ge=0, le=15)
    code: str | None = Field(default=None, max_length=100)


class LeaveBody(Strict):
    seat: int = Field(ge=0, le=15)
    token: str | None = Field(default=None, max_length=100)


class SeatChange(Strict):
    kind: Literal["bot", "open"]
    bot: str | None = Field(default=None, max_length=40)


class ActBody(Strict):
    seat: int
    action: int
    move_number: int
    token: str | None = Field(default=None, max_length=100)


# ---------------------------------------------------------------------- helpers
def _secret(sessions: sessionmaker) -> str:
    """The cookie signing secret, shared by every process on this database."""
    with sessions() as db:
        row = db.get(Setting, "session_secret")
        if row is not None:
            return row.value
        db.add(Setting(key="session_secret", value=secrets.token_urlsafe(48)))
        try:
            db.commit()
        except IntegrityError:
            db.rollback()
        return db.get(Setting, "session_secret").value  # type: ignore[union-attr]


def _clock(spec: str | ClockSpec | None) -> dict[str, Any] | None:
    if spec is None:
        return None
    if isinstance(spec, str):
        if spec not in CLOCK_PROFILES:
            raise HTTPException(
                422, f"no clock profile {spec!r}; known: {', '.join(CLOCK_PROFILES)}"
            )
        return {"profile": spec, **CLOCK_PROFILES[spec], "on_timeout": "bot", "bot": "greedy"}
    out: dict[str, Any] = {"profile": None, "kind": spec.kind, "on_timeout": spec.on_timeout,
                           "bot": spec.bot}
    if spec.kind == "fischer":
        if spec.initial is None:
            raise HTTPException(422, "a fischer clock needs 'initial' seconds")
        out.update(initial=spec.initial, increment=spec.increment)
    else:
        if spec.seconds is None:
            raise HTTPException(422, "a per_move clock needs 'seconds'")
        out.update(seconds=spec.seconds)
    return out


def _check_bot(spec: str | None, game: meeple.Game) -> str:
    if not spec:
        raise HTTPException(422, f"a bot seat needs 'bot'; known: {', '.join(bot_names())}")
    try:
        make_bot(spec, game, seed=0)
    except MeepleError as e:
        raise HTTPException(422, str(e)) from None
    except Exception as e:
        raise HTTPException(422, f"bot {spec!r} cannot play {game.name}: {e}") from None
    return spec


def _game_json(name: str) -> dict[str, Any]:
    cls = game_class(name)
    out = cls.describe()
    out["rules"] = f"/rules/{name}"
    out["configurations"] = [[n, opts] for n, opts in cls.configurations()]
    return out


def summary(lt: LiveTable, viewer: int | None) -> dict[str, Any]:
    """A table as the lobby and the table page see it."""
    m = lt.meta
    conn = lt.connected()
    out = {
        "id": lt.id,
        "game": m["game"],
        "title": game_class(m["game"]).title,
        "players": m["players"],
        "options": m["options"],
        "status": m["status"],
        "visibility": m["visibility"],
        "owner": lt.owner_name,
        "seats": [
            {
                "seat": s["seat"],
                "kind": s["kind"],
                "name": s["name"],
                "bot": s["bot"],
                "connected": s["kind"] == "bot" or s["seat"] in conn,
                "mine": viewer is not None and s["user_id"] == viewer,
            }
            for s in lt.seats
        ],
        "clock": m["clock"],
        "move_number": m["move_count"],
        "to_move": m["to_move"] if m["status"] == "running" else [],
        "created": m["created"],
        "started": m["started"],
        "finished": m["finished"],
        "result": m["result"],
        "rematch": m["rematch_id"],
        "start_when_full": m["autostart"],
    }
    if viewer is not None and viewer == m["owner_id"]:
        out["invite"] = f"/invite/{lt.id}/{m['invite_code']}"
    return out


def row_summary(row: TableRow, seats: list[SeatRow], owner: str | None) -> dict[str, Any]:
    """A table summary straight from the database (lists need no live state)."""
    try:
        title = game_class(row.game).title
    except MeepleError:  # a game no longer installed
        title = row.game
    return {
        "id": row.id,
        "game": row.game,
        "title": title,
        "players": row.players,
        "options": row.options,
        "status": row.status,
        "visibility": row.visibility,
        "owner": owner,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot} for s in seats
        ],
        "clock": row.clock,
        "move_number": row.move_count,
        "to_move": row.to_move if row.status == "running" else [],
        "created": row.created,
        "started": row.started,
        "finished": row.finished,
        "result": row.result,
        "rematch": row.rematch_id,
    }


# ---------------------------------------------------------------------- the app
def owner_before_start(lt: LiveTable, user: Any, what: str) -> None:
    """Refuse unless ``user`` owns the table and it has not started (``what``: the deed)."""
    if user.id != lt.meta["owner_id"]:
        raise HTTPException(403, f"only the table's owner may {what}")
    if lt.meta["status"] != "waiting":
        raise HTTPException(409, "the game has already started")


async def seats_changed(lt: LiveTable) -> None:
    """After a seat changed hands: start a table that autostarts once full, else tell everyone."""
    if lt.meta["autostart"] and all(s["kind"] != "open" for s in lt.seats):
        with contextlib.suppress(Refused):
            await lt.start()
    else:
        await lt.changed()


def create_app(
    db_url: str,
    redis_url: str | None = None,
    *,
    web_dir: Path | None = None,
    bot_delay: float = 0.0,
    secure_cookies: bool = False,
    login_limit: tuple[int, int, float] = (5, 20, 60.0),
) -> FastAPI:
    """The web platform on the database ``db_url`` (migrations applied now).

    ``redis_url`` fans table updates out to other processes on the same database; ``bot_delay``
    is how long a bot waits before it moves (so people can follow).
    """
    engine = open_database(db_url)
    meeple.games()  # import every game now, not during the first request
    sessions = sessionmaker(engine, expire_on_commit=False)
    secret = _secret(sessions)
    cookies = auth.Sessions(secret)
    limiter = auth.RateLimit(*login_limit)
    hub = Hub(sessions, bot_delay=bot_delay)
    web = Path(web_dir) if web_dir is not None else WEB_DIR
    motions: dict[tuple[str, int], Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        fanout = None
        if redis_url:
            from .fanout import RedisFanout

            fanout = RedisFanout(redis_url, hub.on_remote_change)
            await fanout.start()
            hub.fanout = fanout
        hub.resume()
        # Everything loaded so far (modules, the app, resumed tables) lives as long as the
        # process: keep it out of the garbage collector's full collections, which stop the
        # event loop for as long as they take. Building a frame allocates thousands of short-
        # lived objects; collecting the youngest generation less often lets them die first
        # instead of being promoted towards a full collection.
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 10, 10)
        keeper = asyncio.create_task(_checkpoints())
        try:
            yield
        finally:
            keeper.cancel()
            hub.stop()
            if fanout is not None:
                await fanout.stop()
            hub.tables.clear()
            with contextlib.suppress(Exception):
                checkpoint(engine, "TRUNCATE")
            engine.dispose()

    async def _checkpoints() -> None:
        """SQLite: fold the write-ahead log into the database every few seconds, off the loop."""
        if engine.dialect.name != "sqlite":
            return
        while True:
            await asyncio.sleep(2.0)
            try:
                await asyncio.to_thread(checkpoint, engine)
            except Exception:
                log.exception("WAL checkpoint failed")

    app = FastAPI(title="meeple", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub
    app.state.engine = engine

    @app.exception_handler(MeepleError)
    async def _meeple_error(request: Request, exc: MeepleError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    # ------------------------------------------------------------------ sessions
    def user_id_of(request: Request | WebSocket) -> int | None:
        return cookies.load(request.cookies.get(auth.COOKIE))

    def current_user(request: Request) -> User | None:
        uid = user_id_of(request)
        if uid is None:
            return None
        with sessions() as db:
            return db.get(User, uid)

    def need_user(request: Request) -> User:
        user = current_user(request)
        if user is None:
            raise HTTPException(401, "sign in or play as a guest first")
        return user

    def sign_in(request: Request, response: Response, user: User) -> dict[str, Any]:
        response.set_cookie(
            auth.COOKIE,
            cookies.dump(user.id),
            max_age=auth.SESSION_MAX_AGE,
            httponly=True,
            samesite="lax",
            secure=secure_cookies or request.url.scheme == "https",
        )
        return {"name": user.name, "guest": user.guest}

    @app.post("/api/signup")
    def signup(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        try:
            name = auth.check_name(body.name)
            auth.check_password(body.password)
        except ValueError as e:
            raise HTTPException(422, str(e)) from None
        with sessions() as db:
            user = User(
                name=name,
                name_key=auth.name_key(name),
                password_hash=auth.hash_password(body.password),
                guest=False,
                created=time.time(),
            )
            db.add(user)
            try:
                db.commit()
            except IntegrityError:
                raise HTTPException(409, f"the name {name!r} is taken") from None
            return sign_in(request, response, user)

    @app.post("/api/login")
    def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        key = auth.name_key(body.name.strip())
        address = request.client.host if request.client else "?"
        wait = limiter.retry_after(key, address)
        if wait > 0:
            raise HTTPException(
                429,
                f"too many failed log-ins; try again in {int(wait) + 1} s",
                headers={"Retry-After": str(int(wait) + 1)},
            )
        with sessions() as db:
            user = db.scalar(select(User).where(User.name_key == key, User.guest.is_(False)))
            if user is None or not auth.verify_password(user.password_hash, body.password):
                limiter.failed(key, address)
                raise HTTPException(401, "wrong name or password")
            limiter.succeeded(key)
            return sign_in(request, response, user)

    @app.post("/api/guest")
    def guest(body: GuestBody, request: Request, response: Response) -> dict[str, Any]:
        try:
            base = auth.check_name(body.name)
        except ValueError as e:
            raise HTTPException(422, str(e)) from None
        with sessions() as db:
            taken = db.scalar(select(User).where(User.name_key == auth.name_key(base)))
            if taken is not None and not taken.guest:
                raise HTTPException(409, f"{base!r} is a registered player's name")
            for i in range(1, 1000):
                name = base if i == 1 else f"{base} ({i})"
                user = User(name=name, name_key=auth.name_key(name), password_hash=None,
                            guest=True, created=time.time())
                db.add(user)
                try:
                    db.commit()
                    return sign_in(request, response, user)
                except IntegrityError:
                    db.rollback()
        raise HTTPException(409, "no free guest name; choose another")

    @app.post("/api/logout")
    def logout(response: Response) -> dict[str, Any]:
        response.delete_cookie(auth.COOKIE)
        return {"ok": True}

    @app.get("/api/me")
    def me(request: Request) -> dict[str, Any]:
        user = current_user(request)
        if user is None:
            return {"name": None, "guest": None}
        return {"name": user.name, "guest": user.guest}

    @app.get("/api/users/{name}")
    def profile(name: str) -> dict[str, Any]:
        with sessions() as db:
            user = db.scalar(select(User).where(User.name_key == auth.name_key(name)))
            if user is None:
                raise HTTPException(404, f"no player named {name!r}")
            seats = db.scalars(select(SeatRow).where(SeatRow.user_id == user.id)).all()
            by_table: dict[str, list[int]] = {}
            for s in seats:
                by_table.setdefault(s.table_id, []).append(s.seat)
            games = []
            if by_table:
                rows = db.scalars(
                    select(TableRow)
                    .where(TableRow.id.in_(list(by_table)), TableRow.status == "finished")
                    .order_by(TableRow.finished.desc())
                    .limit(200)
                ).all()
                for row in rows:
                    item = _list_item(db, row)
                    item["seat"] = min(by_table[row.id])
                    ranks = (row.result or {}).get("ranks")
                    item["rank"] = ranks[item["seat"]] if ranks else None
                    games.append(item)
            return {"name": user.name, "guest": user.guest, "created": user.created,
                    "games": games}

    def _list_item(db: Any, row: TableRow) -> dict[str, Any]:
        seats = db.scalars(
            select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)
        ).all()
        owner = db.get(User, row.owner_id) if row.owner_id is not None else None
        return row_summary(row, list(seats), owner.name if owner else None)

    def _my_tables(request: Request, turns: bool) -> dict[str, Any]:
        user = need_user(request)
        with sessions() as db:
            seats = db.scalars(select(SeatRow).where(SeatRow.user_id == user.id)).all()
            mine: dict[str, set[int]] = {}
            for s in seats:
                mine.setdefault(s.table_id, set()).add(s.seat)
            if not mine:
                return {"tables": []}
            wanted = ["running"] if turns else ["running", "waiting"]
            rows = db.scalars(
                select(TableRow)
                .where(TableRow.id.in_(list(mine)), TableRow.status.in_(wanted))
                .order_by(TableRow.created.desc())
            ).all()
            out = []
            for row in rows:
                if turns and not (set(row.to_move or []) & mine[row.id]):
                    continue
                item = _list_item(db, row)
                item["my_seats"] = sorted(mine[row.id])
                out.append(item)
            return {"tables": out}

    @app.get("/api/my/turns")
    def my_turns(request: Request) -> dict[str, Any]:
        return _my_tables(request, turns=True)

    @app.get("/api/my/tables")
    def my_tables(request: Request) -> dict[str, Any]:
        return _my_tables(request, turns=False)

    # ------------------------------------------------------------------ lobby
    @app.get("/api/games")
    def list_games() -> dict[str, Any]:
        return {"games": [_game_json(n) for n in meeple.games()]}

    @app.get("/api/games/{name}")
    def one_game(name: str) -> dict[str, Any]:
        _known_game(name)
        return _game_json(name)

    def _known_game(name: str) -> None:
        if name not in meeple.games():
            raise HTTPException(404, f"no game named {name!r}; known: {', '.join(meeple.games())}")

    @app.get("/api/games/{name}/rules")
    def rules(name: str) -> dict[str, Any]:
        _known_game(name)
        cls = game_class(name)
        try:
            text = cls.rules_markdown()
        except (FileNotFoundError, ModuleNotFoundError):
            raise HTTPException(404, f"{name} has no rules page yet") from None
        return {"name": name, "title": cls.title, "markdown": text}

    @app.get("/api/bots")
    def bots() -> dict[str, Any]:
        return {"bots": bot_names()}

    @app.get("/api/clocks")
    def clocks() -> dict[str, Any]:
        return {"profiles": CLOCK_PROFILES}

    # ------------------------------------------------------------------ tables
    def live(table_id: str) -> LiveTable:
        if len(table_id) > 16:
            raise HTTPException(404, "no such table")
        lt = hub.get(table_id)
        if lt is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return lt

    def _new_tokens(db: Any, table_id: str, seats: list[int]) -> list[dict[str, Any]]:
        out = []
        for seat in seats:
            token = auth.new_token()
            db.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(token_hash=auth.token_hash(token))
            )
            out.append({"seat": seat, "token": token})
        return out

    def _insert_table(
        user: User,
        game: meeple.Game,
        seats: list[tuple[str, int | None, str | None, str | None]],
        visibility: str,
        clock: dict[str, Any] | None,
    ) -> tuple[str, list[dict[str, Any]], bool]:
        """Store a new table; ``seats`` holds (kind, user id, name, bot). Returns the id, the
        tokens of the creator's seats and whether every seat is filled."""
        with sessions() as db:
            for _ in range(10):
                tid = secrets.token_urlsafe(6)
                if db.get(TableRow, tid) is None:
                    break
            row = TableRow(
                id=tid, game=game.name, players=game.num_players, options=dict(game.options),
                status="waiting", visibility=visibility, owner_id=user.id,
                invite_code=secrets.token_urlsafe(9), clock=clock, created=time.time(),
                move_count=0, to_move=[], result=None, rematch_id=None, autostart=False,
            )
            db.add(row)
            db.flush()
            mine = []
            for i, (kind, uid, name, bot) in enumerate(seats):
                db.add(SeatRow(table_id=tid, seat=i, kind=kind, user_id=uid, name=name, bot=bot))
                if uid == user.id:
                    mine.append(i)
            db.flush()
            tokens = _new_tokens(db, tid, mine)
            db.commit()
        return tid, tokens, all(k != "open" for k, *_ in seats)

    @app.post("/api/tables", status_code=201)
    async def create_table(body: NewTable, request: Request) -> dict[str, Any]:
        user = need_user(request)
        _known_game(body.game)
        try:
            game = meeple.load(body.game, body.players, **body.options)
        except MeepleError as e:
            raise HTTPException(422, str(e)) from None
        specs = body.seats or [SeatSpec(kind="me")] + [
            SeatSpec(kind="open") for _ in range(game.num_players - 1)
        ]
        if len(specs) != game.num_players:
            raise HTTPException(
                422, f"seats lists {len(specs)} seats for {game.num_players} players"
            )
        seats: list[tuple[str, int | None, str | None, str | None]] = []
        for spec in specs:
            if spec.kind == "me":
                seats.append(("human", user.id, user.name, None))
            elif spec.kind == "bot":
                bot = _check_bot(spec.bot, game)
                seats.append(("bot", None, f"Bot ({bot})", bot))
            else:
                seats.append(("open", None, None, None))
        clock = _clock(body.clock)
        if clock and clock["on_timeout"] == "bot":
            _check_bot(clock["bot"], game)
        tid, tokens, full = _insert_table(user, game, seats, body.visibility, clock)
        with sessions() as db:
            db.execute(update(TableRow).where(TableRow.id == tid).values(autostart=body.start))
            db.commit()
        lt = live(tid)
        if body.start and full:
            await lt.start()
        return {"table": summary(lt, user.id), "tokens": tokens}

    @app.get("/api/tables")
    def list_tables(
        status: Literal["waiting", "running", "finished"] | None = None,
        game: str | None = Query(default=None, max_length=40),
    ) -> dict[str, Any]:
        with sessions() as db:
            q = select(TableRow).where(TableRow.visibility == "public")
            if status:
                q = q.where(TableRow.status == status)
            if game:
                q = q.where(TableRow.game == game)
            rows = db.scalars(q.order_by(TableRow.created.desc()).limit(100)).all()
            return {"tables": [_list_item(db, r) for r in rows]}

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        return {"table": summary(live(table_id), user_id_of(request))}

    async def _reload(lt: LiveTable) -> None:
        async with lt.lock:
            lt.refresh()
        await lt.changed()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request,
                   body: Annotated[JoinBody | None, Body()] = None) -> dict[str, Any]:
        user = need_user(request)
        body = body or JoinBody()
        lt = live(table_id)
        async with lt.lock:
            lt.refresh()
            m = lt.meta
            if m["status"] != "waiting":
                raise HTTPException(409, "the game has already started")
            if m["visibility"] == "private" and body.code != m["invite_code"] and (
                user.id != m["owner_id"]
            ):
                raise HTTPException(403, "this table is private: join with its invite link")
            if body.code is not None and body.code != m["invite_code"]:
                raise HTTPException(403, "this invite link is not valid")
            open_seats = [s["seat"] for s in lt.seats if s["kind"] == "open"]
            seat = body.seat if body.seat is not None else (open_seats or [None])[0]
            if seat is None:
                raise HTTPException(409, "every seat is taken")
            if seat >= len(lt.seats):
                raise HTTPException(422, f"no seat {seat}; seats are 0..{len(lt.seats) - 1}")
            if seat not in open_seats:
                raise HTTPException(409, f"seat {seat} is taken")
            with sessions() as db:
                res = db.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == lt.id, SeatRow.seat == seat,
                           SeatRow.kind == "open")
                    .values(kind="human", user_id=user.id, name=user.name)
                )
                if res.rowcount != 1:
                    db.rollback()
                    raise HTTPException(409, f"seat {seat} is taken")
                tokens = _new_tokens(db, lt.id, [seat])
                db.commit()
            lt.refresh()
        await seats_changed(lt)
        return {"table": summary(lt, user.id), "tokens": tokens}

    def _holds(lt: LiveTable, seat: int, user_id: int | None, token: str | None) -> bool:
        if not 0 <= seat < len(lt.seats):
            return False
        s = lt.seats[seat]
        if s["kind"] != "human":
            return False
        if user_id is not None and s["user_id"] == user_id:
            return True
        return bool(token) and s["token_hash"] == auth.token_hash(token or "")

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, body: LeaveBody, request: Request) -> dict[str, Any]:
        uid = user_id_of(request)
        lt = live(table_id)
        async with lt.lock:
            lt.refresh()
            if lt.meta["status"] != "waiting":
                raise HTTPException(409, "the game has started: seats cannot be left now")
            if not _holds(lt, body.seat, uid, body.token):
                raise HTTPException(403, f"you do not hold seat {body.seat}")
            with sessions() as db:
                db.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == lt.id, SeatRow.seat == body.seat)
                    .values(kind="open", user_id=None, name=None, bot=None, token_hash=None)
                )
                db.commit()
            lt.refresh()
        await lt.changed()
        return {"table": summary(lt, uid)}

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def change_seat(table_id: str, seat: int, body: SeatChange,
                          request: Request) -> dict[str, Any]:
        user = need_user(request)
        lt = live(table_id)
        async with lt.lock:
            lt.refresh()
            owner_before_start(lt, user, "change seats")
            if not 0 <= seat < len(lt.seats):
                raise HTTPException(422, f"no seat {seat}; seats are 0..{len(lt.seats) - 1}")
            if lt.seats[seat]["kind"] == "human" and lt.seats[seat]["user_id"] != user.id:
                raise HTTPException(409, f"seat {seat} is taken by {lt.seats[seat]['name']}")
            assert lt.game is not None
            if body.kind == "bot":
                bot = _check_bot(body.bot, lt.game)
                values = {"kind": "bot", "user_id": None, "name": f"Bot ({bot})", "bot": bot,
                          "token_hash": None}
            else:
                values = {"kind": "open", "user_id": None, "name": None, "bot": None,
                          "token_hash": None}
            with sessions() as db:
                db.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == lt.id, SeatRow.seat == seat)
                    .values(**values)
                )
                db.commit()
            lt.refresh()
        await seats_changed(lt)
        return {"table": summary(lt, user.id)}

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, request: Request) -> dict[str, Any]:
        user = need_user(request)
        lt = live(table_id)
        async with lt.lock:
            lt.refresh()
        owner_before_start(lt, user, "start it")
        if any(s["kind"] == "open" for s in lt.seats):
            raise HTTPException(409, "every seat must be taken first")
        try:
            await lt.start()
        except Refused as e:
            raise HTTPException(409, e.reason) from None
        return {"table": summary(lt, user.id)}

    @app.post("/api/tables/{table_id}/rematch", status_code=201)
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        user = need_user(request)
        lt = live(table_id)
        if lt.meta["status"] != "finished":
            raise HTTPException(409, "a rematch follows a finished game")
        mine = [s["seat"] for s in lt.seats if s["user_id"] == user.id]
        if not mine:
            raise HTTPException(403, "only the players of this table may ask for a rematch")
        async with lt.lock:
            lt.refresh()
            new_id = lt.meta["rematch_id"]
            if new_id is None:
                assert lt.game is not None
                seats = [  # people sit again (also where a bot took over on time); bots stay
                    ("human", s["user_id"], s["name"], None) if s["user_id"] is not None
                    else (s["kind"], None, s["name"], s["bot"]) if s["kind"] == "bot"
                    else ("open", None, None, None)
                    for s in lt.seats
                ]
                new_id, tokens, full = _insert_table(
                    user, lt.game, seats, lt.meta["visibility"], lt.meta["clock"]
                )
                with sessions() as db:
                    db.execute(update(TableRow).where(TableRow.id == new_id)
                               .values(autostart=True))
                    db.execute(update(TableRow).where(TableRow.id == lt.id)
                               .values(rematch_id=new_id))
                    db.commit()
                lt.refresh()
                created = True
            else:
                with sessions() as db:
                    tokens = _new_tokens(db, new_id, mine)
                    db.commit()
                created = False
        if created:
            await lt.changed()
        new = live(new_id)
        if created and all(s["kind"] != "open" for s in new.seats):
            with contextlib.suppress(Refused):
                await new.start()
        return {"table": summary(new, user.id), "tokens": tokens}

    @app.post("/api/tables/{table_id}/act")
    async def act(table_id: str, body: ActBody, request: Request) -> dict[str, Any]:
        lt = live(table_id)
        if not _holds(lt, body.seat, user_id_of(request), body.token):
            raise HTTPException(403, f"you do not hold seat {body.seat}")
        try:
            n = await lt.act(body.seat, body.action, body.move_number)
        except Refused as e:
            raise HTTPException(409, e.reason) from None
        return {"ok": True, "move_number": n}

    @app.get("/api/tables/{table_id}/frame")
    async def frame(table_id: str, request: Request, seat: int | None = None,
              token: str | None = Query(default=None, max_length=100)) -> Response:
        lt = live(table_id)
        held: set[int] = set()
        if seat is not None:
            if not _holds(lt, seat, user_id_of(request), token):
                raise HTTPException(403, f"you do not hold seat {seat}")
            held = {seat}
        conn = Conn(user_id=None, held=held, view_seat=seat)
        return Response(lt.frame_text(conn), media_type="application/json")

    def _finished(lt: LiveTable) -> None:
        if lt.meta["status"] != "finished":
            raise HTTPException(409, "records and replays are open once the game is over")

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        lt = live(table_id)
        _finished(lt)
        assert lt.game is not None and lt.state is not None
        return lt.game.record(
            lt.state, table=lt.id, seats=[s["name"] for s in lt.seats],
            result=lt.meta["result"],
        )

    @app.get("/api/tables/{table_id}/replay")
    async def replay(
        table_id: str, move: int | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        lt = live(table_id)
        _finished(lt)
        assert lt.game is not None
        total = len(lt.log)
        n = total if move is None else move
        if not 0 <= n <= total:
            raise HTTPException(422, f"move must be 0..{total}")
        if seat is not None and not 0 <= seat < lt.game.num_players:
            raise HTTPException(422, f"seat must be 0..{lt.game.num_players - 1}")
        state = lt.game.new_initial_state()
        for e in lt.log[:n]:
            state.apply(e.action, e.player)
        obs = state.observation(seat)
        return {
            "type": "replay",
            "table": lt.id,
            "game": lt.game.name,
            "move_number": n,
            "total": total,
            "seat": seat,
            "observation": obs,
            "svg": safe_svg(lt.game, obs),
            "log": lt.log_for(seat, upto=n),
            "players": lt.players_json(),
            "result": lt.meta["result"] if n == total else None,
            "final_result": lt.meta["result"],
        }

    @app.get("/api/tables/{table_id}/motion")
    async def motion(table_id: str, move: int | None = None) -> dict[str, Any]:
        """The simulated motion of the last stability check in the public view after ``move``
        moves, for games with a ``physics.motion`` (Kozo's tower): public information."""
        lt = live(table_id)
        if lt.game is None:
            raise HTTPException(404, "the table has not started")
        physics = lt.game.motion
        if physics is None:
            raise HTTPException(404, f"{lt.game.name} has no recorded motion")
        total = len(lt.log)
        n = total if move is None else move
        if not 0 <= n <= total:
            raise HTTPException(422, f"move must be 0..{total}")
        state = lt.game.new_initial_state()
        for e in lt.log[:n]:
            state.apply(e.action, e.player)
        check = state.observation(None).get("last_check")
        if not check or "scene" not in check:
            raise HTTPException(404, "no stability check to show at this move")
        key = (lt.id, n)
        cached = motions.get(key)
        if cached is None:  # a physics simulation: off the event loop, kept for the next viewer
            cached = await asyncio.to_thread(physics.motion, check["scene"])
            motions[key] = cached
            while len(motions) > 256:
                motions.pop(next(iter(motions)))
        return cached

    # ------------------------------------------------------------------ live play
    @app.websocket("/ws/tables/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        lt = hub.get(table_id) if len(table_id) <= 16 else None
        if lt is None:
            await ws.send_text(json.dumps({"type": "error", "code": "not_found",
                                           "reason": f"no table {table_id!r}"}))
            await ws.close(code=4404)
            return
        uid = user_id_of(ws)
        held = {s["seat"] for s in lt.seats if uid is not None and s["user_id"] == uid
                and s["kind"] == "human"}
        bad = 0
        for token in ws.query_params.getlist("token")[:16]:
            h = auth.token_hash(token)
            found = [s["seat"] for s in lt.seats if s["token_hash"] == h and s["kind"] == "human"]
            held.update(found)
            bad += not found
        conn = Conn(user_id=uid, held=held)
        lt.conns.add(conn)
        writer = asyncio.create_task(_writer(ws, lt, conn))
        if bad:
            conn.queue.put_nowait(json.dumps({"type": "error", "code": "forbidden",
                                              "reason": f"{bad} seat token(s) not valid here"}))
        lt.broadcast()
        try:
            while True:
                text = await ws.receive_text()
                reply = await _handle(lt, conn, text)
                if reply is not None:
                    conn.queue.put_nowait(json.dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            lt.conns.discard(conn)
            conn.queue.put_nowait(None)
            with contextlib.suppress(BaseException):
                await writer
            lt.broadcast()
            hub.evict(lt)

    async def _writer(ws: WebSocket, lt: LiveTable, conn: Conn) -> None:
        """Send the connection's queue in order; a due frame is built when it is sent."""
        while True:
            item = await conn.queue.get()
            if item is None:
                return
            if item == FRAME_DUE:
                if not conn.dirty:
                    continue
                conn.dirty = False
                item = lt.frame_text(conn)
            try:
                await ws.send_text(item)
            except Exception:
                return

    async def _handle(lt: LiveTable, conn: Conn, text: str) -> dict[str, Any] | None:
        if len(text) > 10000:
            return {"type": "error", "code": "bad_request", "reason": "message too long"}
        try:
            msg = json.loads(text)
        except ValueError:
            return {"type": "error", "code": "bad_request", "reason": "messages are JSON objects"}
        if not isinstance(msg, dict):
            return {"type": "error", "code": "bad_request", "reason": "messages are JSON objects"}
        kind = msg.get("type")
        if kind == "ping":
            return {"type": "pong"}
        if kind == "view":
            seat = msg.get("seat")
            if seat not in conn.held:
                return {"type": "error", "code": "forbidden",
                        "reason": f"this connection does not hold seat {seat!r}"}
            conn.view_seat = seat
            conn.dirty = True
            conn.queue.put_nowait(FRAME_DUE)
            return None
        if kind == "act":
            seat = msg.get("seat")
            if isinstance(seat, bool) or not isinstance(seat, int):
                return {"type": "error", "code": "bad_request", "reason": "seat must be an int"}
            if seat not in conn.held:
                return {"type": "error", "code": "forbidden",
                        "reason": f"this connection does not hold seat {seat}"}
            try:
                await lt.act(seat, msg.get("action"), msg.get("move_number"))
            except Refused as e:
                return {"type": "error", "code": e.code, "reason": e.reason}
            return None
        return {"type": "error", "code": "bad_request",
                "reason": "unknown message type; expected act, view or ping"}

    # ------------------------------------------------------------------ pages and files
    @app.get("/healthz")
    def health() -> dict[str, Any]:
        return {"ok": True}

    def index() -> Response:
        page = web / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse("<!doctype html><title>meeple</title><p>meeple: no web client "
                            "installed; the API is at <a href=/api/docs>/api/docs</a>.</p>")

    for path in PAGES:
        app.add_api_route(path, index, methods=["GET"], include_in_schema=False)
    for prefix in PAGE_PREFIXES:
        app.add_api_route(f"/{prefix}/{{rest:path}}", index, methods=["GET"],
                          include_in_schema=False)
    if web.is_dir():
        app.mount("/static", StaticFiles(directory=web), name="static")
        if (web / "node_modules").is_dir():
            app.mount("/vendor", StaticFiles(directory=web / "node_modules"), name="vendor")
    return app
