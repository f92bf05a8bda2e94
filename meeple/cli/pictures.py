"""``meeple render`` and ``meeple gallery``: a record's board, and sample positions of every
game, as pictures."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

import meeple
from meeple.cli import common
from meeple.cli.common import fail, handled, reason, writable
from meeple.cli.replay import load_record, parse_viewer, record_names
from meeple.engine.i18n import N_, words
from meeple.engine.records import moves_made, position_of

_, _n = words(__file__)
commands = typer.Typer()
"""The commands of this module (``meeple.cli`` adds them to ``meeple``)."""


@commands.command(help=N_("Draw the board of a record after a given move as SVG."))
@handled
def render(
    file: Path = typer.Argument(..., metavar=N_("FILE"), help=N_("a game record")),
    move: int | None = typer.Option(None, "--move", "-m", help=N_("after this many moves")),
    out: Path = typer.Option(Path("board.svg"), "-o", "--out", help=N_("SVG file to write")),
    viewer: str | None = typer.Option(
        None, "--viewer", help=N_("draw as this seat sees it (0 is Player 1), or public")),
) -> None:
    """Draw the board of a record after a given move as SVG."""
    record = load_record(file)
    total = moves_made(record["moves"])  # moves as the log numbers them
    if move is not None and not 0 <= move <= total:
        fail(_("--move must be between 0 and {total}", total=total))
    writable(out)
    # after move ``move`` (0: the set-up done), the chance that follows it resolved
    state = meeple.replay(record, upto=None if move is None else
                          position_of(record["moves"], move))
    seat = parse_viewer(viewer, state.game.num_players, allow_all=False)
    names = record_names(record, state.game.num_players) or None
    picture = state.game.renderer.svg(state.observation(seat), names)  # type: ignore[arg-type]
    try:
        out.write_text(picture)
    except OSError as e:
        fail(_("cannot write {file}: {reason}", file=str(out), reason=reason(e)))
    common.console.print(escape(_("wrote {file}", file=str(out))))


@commands.command(help=N_("Draw sample positions (start, middle, end) of every configuration as "
                     "SVG and PNG."))
def gallery(
    which: str = typer.Argument(..., metavar=N_("GAME|all"), help=N_("a game's name, or all")),
    out: Path = typer.Option(Path("gallery"), "-o", "--out",
                             help=N_("folder for the pictures")),
    png: bool = typer.Option(True, "--png/--no-png", help=N_("also write PNG (cairosvg)")),
    docs: Path | None = typer.Option(None, "--docs", help=N_("also write a page showing them")),
) -> None:
    """Draw sample positions (start, middle, end) of every configuration as SVG and PNG."""
    from meeple.gallery import write_docs, write_gallery

    try:
        pics = write_gallery(which, out, with_png=png)
    except meeple.OptionError as e:
        fail(str(e))
        return
    common.console.print(escape(_n("wrote {n} picture to {folder}",
                                   "wrote {n} pictures to {folder}", len(pics), folder=str(out))))
    if docs is not None:
        common.console.print(escape(_("wrote {file}", file=str(write_docs(pics, docs, out)))))
