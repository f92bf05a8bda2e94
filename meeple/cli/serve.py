"""``meeple serve``: the web platform."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from meeple.cli import common
from meeple.cli.common import fail, handled
from meeple.engine.i18n import N_, words

_, _n = words(__file__)
commands = typer.Typer()
"""The commands of this module (``meeple.cli`` adds them to ``meeple``)."""


@commands.command(help=N_("Start the web platform."))
@handled
def serve(
    host: str | None = typer.Option(None, help=N_("address to listen on (default: 127.0.0.1)")),
    port: int | None = typer.Option(None, help=N_("port to listen on (default: 8000)")),
    db: str | None = typer.Option(
        None, help=N_("database URL (default: SQLite in ./meeple-data); "
                      "postgresql+psycopg://...")
    ),
    redis: str | None = typer.Option(
        None, help=N_("Redis URL to fan out updates between servers")),
    trusted_proxy: list[str] = typer.Option(  # noqa: B006 - typer reads the default
        [], "--trusted-proxy",
        help=N_("address of a proxy in front of the server whose X-Forwarded-For is believed "
                "(repeatable; default: none, the connecting address counts)"),
    ),
    allowed_origin: list[str] = typer.Option(  # noqa: B006
        [], "--allowed-origin",
        help=N_("a page origin (https://example.org) whose pages may open the live socket "
                "(repeatable; default: the server's own origin only)"),
    ),
    smtp: str | None = typer.Option(
        None, "--smtp",
        help=N_("the SMTP server that sends turn e-mails, as a URL: "
                "smtp://[user:password@]host[:port]?from=address&site=https://your.site "
                "(default: none, no e-mail is sent)"),
    ),
    metrics: str | None = typer.Option(
        None, "--metrics", metavar="HOST:PORT",
        help=N_("serve Prometheus metrics at /metrics on this address, such as "
                "127.0.0.1:9464 (default: none)")),
    log_format: str | None = typer.Option(
        None, "--log-format", help=N_("the log's lines as text or json (default: text)")),
    config: Path | None = typer.Option(
        None, "--config",
        help=N_("a TOML file with these settings (default: the file named by MEEPLE_CONFIG); "
                "MEEPLE_* variables override it, the options here override both")),
    check_config: bool = typer.Option(
        False, "--check-config",
        help=N_("say what is wrong or missing in the settings and whether the database and "
                "Redis answer, then stop")),
) -> None:
    """Start the web platform."""
    try:
        from meeple.server import serve as run_server
        from meeple.server import settings
    except ImportError as e:
        fail(_("the web platform needs the web extra: pip install 'meeple[web]' ({reason})",
               reason=str(e)))
        return

    site = settings.load(config, host=host, port=port, db=db, redis=redis, smtp=smtp,
                         trusted_proxies=trusted_proxy, allowed_origins=allowed_origin,
                         metrics=metrics, log_format=log_format)
    if check_config:
        for key, value in settings.described(site):
            common.console.print(escape(f"{key} = {value}"))
        found = settings.check(site)
        for problem in found:
            common.errors.print(escape(_("problem: {problem}", problem=problem)))
        if found:
            raise typer.Exit(1)
        common.console.print(escape(_("the settings are fine; the database and Redis answer")))
        return
    found = settings.problems(site)
    if found:
        fail("; ".join(found))
    address = f"http://{site.host}:{site.port}/"
    common.console.print(escape(_("meeple serving on {address}", address=address)))
    run_server(host=site.host, port=site.port, db=site.db, redis=site.redis,
               trusted_proxies=site.trusted_proxies,
               allowed_origins=site.allowed_origins or None, smtp=site.smtp,
               secure_cookies=site.secure_cookies, metrics=site.metrics_address,
               log_format=site.log_format)
