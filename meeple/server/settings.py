"""How a server is set up: one :class:`Config`, read from a TOML file (``--config``, or the
file named by ``MEEPLE_CONFIG``), then ``MEEPLE_*`` environment variables, then the command
line, each overriding the one before. :func:`problems` says what is wrong, in words;
:func:`check` also what a public site lacks and whether the database and Redis answer
(``meeple serve --check-config``).

The keys (file / environment): ``host`` / ``MEEPLE_HOST``, ``port`` / ``MEEPLE_PORT``, ``db`` /
``MEEPLE_DB``, ``redis`` / ``MEEPLE_REDIS``, ``smtp`` / ``MEEPLE_SMTP``, ``trusted_proxies`` /
``MEEPLE_TRUSTED_PROXIES`` and ``allowed_origins`` / ``MEEPLE_ALLOWED_ORIGINS`` (lists; commas
in the environment), ``secure_cookies`` / ``MEEPLE_SECURE_COOKIES`` (true behind HTTPS),
``metrics`` / ``MEEPLE_METRICS`` (the address of ``/metrics``, none by default), ``log_format``
/ ``MEEPLE_LOG_FORMAT`` (``text`` or ``json``). The cookie signing secret is not among them:
it is made once and kept in the database, where every process finds it (and backups keep it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from meeple.engine.i18n import words

_, _n = words(__file__)
WAIT = 3.0
"""Seconds the database and Redis have to answer a readiness check."""
LISTS = ("trusted_proxies", "allowed_origins")
LOG_FORMATS = ("text", "json")


@dataclass
class Config:
    """Everything a server process is told."""

    host: str = "127.0.0.1"
    port: int = 8000
    db: str | None = None
    """The database URL (``None``: SQLite in ./meeple-data)."""
    redis: str | None = None
    smtp: str | None = None
    trusted_proxies: list[str] = field(default_factory=list)
    allowed_origins: list[str] = field(default_factory=list)
    secure_cookies: bool = False
    metrics: str | None = None
    """``host:port`` where ``/metrics`` is served (``None``: no metrics)."""
    log_format: str = "text"
    wrong: list[str] = field(default_factory=list, repr=False, compare=False)
    """What could not be read, in words."""

    @property
    def metrics_address(self) -> tuple[str, int] | None:
        """``metrics`` as a host and a port (``None``: off or not of that form)."""
        if not self.metrics:
            return None
        host, _, port = self.metrics.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            return None
        return host.strip("[]"), int(port)


KEYS = {f.name: f for f in dataclasses.fields(Config) if f.name != "wrong"}


def load(path: Path | None = None, environ: Mapping[str, str] | None = None,
         **given: Any) -> Config:
    """The configuration of a server: the file ``path`` (or ``MEEPLE_CONFIG``'s), the
    ``MEEPLE_*`` variables of ``environ``, then ``given`` (the command line; ``None`` and empty
    lists are not given). What cannot be read is in ``.wrong``."""
    import os

    env = os.environ if environ is None else environ
    config = Config()
    path = path or (Path(env["MEEPLE_CONFIG"]) if env.get("MEEPLE_CONFIG") else None)
    if path is not None:
        try:
            with open(path, "rb") as f:
                values = tomllib.load(f)
        except OSError as e:
            config.wrong.append(_("cannot read the configuration file {file}: {reason}",
                                  file=str(path), reason=e.strerror or str(e)))
            values = {}
        except tomllib.TOMLDecodeError as e:
            config.wrong.append(_("the configuration file {file} is not TOML: {reason}",
                                  file=str(path), reason=str(e)))
            values = {}
        for key, value in values.items():
            _set(config, key, value, _("{key} in {file}", key=key, file=str(path)))
    for key in KEYS:
        raw = env.get("MEEPLE_" + key.upper())
        if raw is not None and raw != "":
            read: Any = [x.strip() for x in raw.split(",") if x.strip()] if key in LISTS \
                else raw
            _set(config, key, read, "MEEPLE_" + key.upper())
    for key, value in given.items():
        if value is not None and value != [] and value != ():
            _set(config, key, value, "--" + key.replace("_", "-"))
    return config


def _set(config: Config, key: str, value: Any, where: str) -> None:
    if key not in KEYS:
        config.wrong.append(_("{where}: there is no setting {key}; the settings are {keys}",
                              where=where, key=key, keys=", ".join(KEYS)))
        return
    kind = type(getattr(Config(), key))
    try:
        if key in LISTS:
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ValueError
            value = list(value)
        elif kind is bool:
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                value = value.lower() in ("true", "1", "yes")
            elif not isinstance(value, bool):
                raise ValueError
        elif key == "port":
            value = int(value)
            if not 0 < value < 65536:
                raise ValueError
        elif not isinstance(value, str):
            raise ValueError
    except (TypeError, ValueError):
        config.wrong.append(_("{where}: {value} is not a valid {key}", where=where,
                              value=repr(value), key=key))
        return
    setattr(config, key, value)


def problems(config: Config) -> list[str]:
    """What is wrong with ``config``, in words (none: a server can start with it)."""
    found = list(config.wrong)
    if config.db is not None and not config.db.startswith(("sqlite", "postgresql")):
        found.append(_("db: {url} is neither SQLite (sqlite:///path) nor PostgreSQL "
                       "(postgresql+psycopg://user:password@host/name)", url=_shown(config.db)))
    if config.redis is not None and urlsplit(config.redis).scheme not in ("redis", "rediss"):
        found.append(_("redis: {url} is not a Redis URL (redis://host:port/0)",
                       url=_shown(config.redis)))
    if config.smtp is not None:
        from .community.mail import SmtpTarget

        try:
            target = SmtpTarget.parse(config.smtp)
        except ValueError as e:
            found.append(_("smtp: {reason}", reason=str(e)))
        else:
            if "site=" not in config.smtp:
                found.append(_("smtp: add site=https://your.site to the URL, so that the "
                               "links in turn e-mails lead to this site (now {site})",
                               site=target.site))
    for proxy in config.trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            found.append(_("trusted_proxies: {value} is not an address or a network "
                           "(127.0.0.1, 10.0.0.0/8)", value=proxy))
    for origin in config.allowed_origins:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.path:
            found.append(_("allowed_origins: {value} is not an origin (https://example.org)",
                           value=origin))
    if config.metrics and config.metrics_address is None:
        found.append(_("metrics: {value} is not an address and a port (127.0.0.1:9464)",
                       value=config.metrics))
    if config.log_format not in LOG_FORMATS:
        found.append(_("log_format: {value} is neither text nor json", value=config.log_format))
    return found


def check(config: Config) -> list[str]:
    """What is wrong with ``config`` or missing for a public site, and whether its database
    and Redis answer, in words (none: all is well; ``meeple serve --check-config``)."""
    found = problems(config)
    if config.trusted_proxies and not config.secure_cookies:
        found.append(_("secure_cookies: behind a proxy that speaks HTTPS, set it to true so "
                       "that browsers send the session cookie over HTTPS only"))
    if config.trusted_proxies and config.db is None:
        found.append(_("db: a public site needs its database named (PostgreSQL, so that "
                       "several server processes share it)"))
    if config.db is not None and config.db.startswith("sqlite") and config.redis:
        found.append(_("redis: several server processes need PostgreSQL, not SQLite"))
    if not found:
        found += _unreachable(config)
    return found


def _unreachable(config: Config) -> list[str]:
    """The database and Redis of ``config`` that do not answer, in words."""
    from sqlalchemy import create_engine, text

    out = []
    if config.db is not None:
        engine = create_engine(config.db)
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception as e:
            out.append(_("db: the database does not answer: {reason}",
                         reason=str(e).splitlines()[0]))
        finally:
            engine.dispose()
    if config.redis is not None:
        if not asyncio.run(redis_answers(config.redis)):
            out.append(_("redis: Redis does not answer at {url}", url=_shown(config.redis)))
    return out


def _shown(url: str) -> str:
    """A URL without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(":" + parts.password + "@", ":***@")
    return parts._replace(netloc=netloc).geturl()


def described(config: Config) -> list[tuple[str, str]]:
    """Each setting and its value as an operator reads it (passwords hidden)."""
    out = []
    for key in KEYS:
        value = getattr(config, key)
        if isinstance(value, list):
            value = ", ".join(value)
        elif isinstance(value, str) and key in ("db", "redis", "smtp"):
            value = _shown(value)
        out.append((key, "" if value is None else str(value)))
    return out


async def redis_answers(url: str, wait: float = WAIT) -> bool:
    """Whether the Redis at ``url`` answers a ping within ``wait`` seconds."""
    import redis.asyncio as aioredis

    client = aioredis.from_url(url, socket_connect_timeout=wait, socket_timeout=wait)
    try:
        return bool(await asyncio.wait_for(client.ping(), wait))
    except Exception:
        return False
    finally:
        await client.aclose()
