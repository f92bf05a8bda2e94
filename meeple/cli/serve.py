"""``meeple serve``: the web platform."""

from __future__ import annotations

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
    host: str = typer.Option("127.0.0.1", help=N_("address to listen on")),
    port: int = typer.Option(8000, help=N_("port to listen on")),
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
) -> None:
    """Start the web platform."""
    try:
        from meeple.server import serve as run_server
    except ImportError as e:
        fail(_("the web platform needs the web extra: pip install 'meeple[web]' ({reason})",
               reason=str(e)))
        return

    address = f"http://{host}:{port}/"
    common.console.print(escape(_("meeple serving on {address}", address=address)))
    run_server(host=host, port=port, db=db, redis=redis, trusted_proxies=trusted_proxy,
               allowed_origins=allowed_origin or None, smtp=smtp)
