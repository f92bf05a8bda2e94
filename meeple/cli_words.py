"""The words typer (and the click inside it) writes for the ``meeple`` command (usage lines,
panel titles, error messages), said in the language in use from the terminal's catalog
(``meeple/locale``), and the command line's own help texts said at the moment it shows them.

Typer says some of its words through the standard ``gettext`` function it imports once, and
writes the others (the usage line, the ``--help`` option, its error messages) in English;
:func:`install` hands it ours instead and says the others again, so they read
``meeple/locale``. The texts are listed here (:data:`CLICK_TEXTS`, :data:`ERRORS`) so the
catalog keeps them. The move prompt's own words, shared by ``meeple play`` and
``meeple learn``, are here too.
"""

from __future__ import annotations

import re
from typing import Any

import typer.rich_utils as rich_utils
from rich.markup import escape

from meeple.engine.i18n import N_, words_of

WORDS = words_of(__file__)
_, _n = WORDS.say, WORDS.plural


CLICK_TEXTS = (
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("Error"),
    N_("Aborted."),
    N_("Aborted!"),
    N_("Show this message and exit."),
    N_("[default: {}]"),
    N_("[env var: {}]"),
    N_("[required]"),
    N_("(deprecated) "),
    N_("(dynamic)"),
    N_("default: {default}"),
    N_("env var: {var}"),
    N_("required"),
    # TRANSLATORS: {command_path} {help_option} are a command such as "meeple play --help".
    N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    N_("Missing command."),
    N_("No such command {name!r}."),
)
"""Typer's own texts (it says them through ``gettext``)."""

USAGE = N_("Usage:")
USAGE_METAVARS = {"options_metavar": N_("[OPTIONS]"), "subcommand_metavar": N_("COMMAND [ARGS]...")}
"""The placeholders of the usage line, by the command's attribute that holds them."""
# TRANSLATORS: the kinds of value an option of the command line takes, as its help shows them.
TYPES = (N_("<str>"), N_("<int>"), N_("<float>"), N_("<bool>"), N_("<path>"), N_("<list[str]>"),
         N_("<int range>"))
"""Typer's names of the kinds of value (Python's names, said in the language in use)."""
HELP_OPTION = N_("Show this message and exit.")
ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), text) for
                                                        pattern, text in (
    (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)",
     N_("Got unexpected extra arguments ({args})")),
    (r"Invalid value for (?P<param_hint>.+?): (?P<message>.*)",
     N_("Invalid value for {param_hint}: {message}")),
    (r"Invalid value: (?P<message>.*)", N_("Invalid value: {message}")),
    (r"Missing argument (?P<name>.+?)\.", N_("Missing argument {name}.")),
    (r"Missing option (?P<name>.+?)\.", N_("Missing option {name}.")),
    (r"Missing parameter: (?P<name>.+)", N_("Missing parameter: {name}")),
    (r"No such option: (?P<name>\S+) \(Possible options: (?P<options>.*)\)",
     N_("No such option: {name} (did you mean one of: {options}?)")),
    (r"No such option: (?P<name>\S+)", N_("No such option: {name}")),
    (r"Option (?P<name>.+) requires an argument\.", N_("Option {name} needs a value.")),
    (r"Option (?P<name>.+) requires (?P<count>\d+) arguments\.",
     N_("Option {name} needs {count} values.")),
    (r"Option (?P<name>.+) does not take a value\.", N_("Option {name} takes no value.")),
    (r"Input should be a valid integer.*", N_("a whole number is needed")),
    (r"Input should be a valid number.*", N_("a number is needed")),
    (r"Input should be a valid boolean.*", N_("on or off is needed (true or false)")),
    (r"Input should be greater than or equal to (?P<limit>\S+)",
     N_("it must be at least {limit}")),
    (r"Input should be less than or equal to (?P<limit>\S+)",
     N_("it must be at most {limit}")),
    (r"Input should be greater than (?P<limit>\S+)", N_("it must be more than {limit}")),
    (r"Input should be less than (?P<limit>\S+)", N_("it must be less than {limit}")),
))
"""Typer's error messages (written in English only), each read back and said again."""

RICH_CONSTANTS = {
    "DEPRECATED_STRING": "(deprecated) ",
    "DEFAULT_STRING": "[default: {}]",
    "ENVVAR_STRING": "[env var: {}]",
    "REQUIRED_LONG_STRING": "[required]",
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "ERRORS_PANEL_TITLE": "Error",
    "ABORTED_TEXT": "Aborted.",
    "RICH_HELP": "Try [blue]'{command_path} {help_option}'[/] for help.",
}
"""Typer's texts said once when it is imported: said again for each run of the command."""


def error_message(message: str) -> str:
    """One of typer's error messages in the language in use (as it is where unknown)."""
    for pattern, text in ERRORS:
        m = pattern.fullmatch(message.strip())
        if m is not None:
            found = {k: error_message(v) if k == "message" else v
                     for k, v in m.groupdict().items()}
            return WORDS.translations().gettext(text).format(**found)
    return message


def gettext(message: str) -> str:
    """``message`` in the language in use (click's and typer's ``_``)."""
    return WORDS.translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a text with plural forms for ``n`` in the language in use."""
    return WORDS.translations().ngettext(singular, plural, n)


def install() -> None:
    """Typer speaks through the terminal's catalog from now on: its own texts, the usage
    line, the ``--help`` option's text and its error messages."""
    import typer.core
    import typer.rich_utils
    from typer._click import core, formatting

    for module in (typer.core, typer.rich_utils):
        if hasattr(module, "_"):
            setattr(module, "_", gettext)  # noqa: B010 - a name mypy does not know
    if getattr(formatting.HelpFormatter.write_usage, "_meeple", False):
        return
    write_usage = formatting.HelpFormatter.write_usage

    def usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, gettext(USAGE) + " " if prefix is None else prefix)

    usage._meeple = True  # type: ignore[attr-defined]
    formatting.HelpFormatter.write_usage = usage  # type: ignore[method-assign]
    get_help_option = core.Command.get_help_option

    def help_option(self: Any, ctx: Any) -> Any:
        option = get_help_option(self, ctx)
        if option is not None:
            option.help = gettext(HELP_OPTION)
        return option

    core.Command.get_help_option = help_option  # type: ignore[method-assign]
    display_type = typer.core._TyperParameter.display_type

    def display(self: Any, ctx: Any) -> str:
        return gettext(display_type(self, ctx))

    typer.core._TyperParameter.display_type = display  # type: ignore[method-assign]
    format_error = typer.rich_utils.rich_format_error

    def rich_format_error(self: Any) -> None:
        said = error_message(self.format_message())
        self.format_message = lambda: said
        format_error(self)

    typer.rich_utils.rich_format_error = rich_format_error


# TRANSLATORS: the words a player types at the move prompt (besides a move); short, lower case.
COMMAND_WORDS = {"moves": N_("moves"), "board": N_("board"), "rules": N_("rules"),
                 "hint": N_("hint"), "help": N_("help"), "quit": N_("quit"), "skip": N_("skip")}
"""The commands of the move prompt, by their English names."""


def command_words() -> dict[str, str]:
    """The prompt's commands in the language in use, each with the English one it stands
    for (the English ones are always understood)."""
    return {_(text): key for key, text in COMMAND_WORDS.items()}


def command_of(typed: str) -> str | None:
    """The prompt's command (its English name) that a player typed, or ``None``."""
    low = typed.strip().lower()
    if low in COMMAND_WORDS:
        return low
    return command_words().get(low)


def typed_commands(names: tuple[str, ...]) -> list[str]:
    """The commands ``names`` as a player types them in the language in use (for Tab)."""
    return [_(COMMAND_WORDS[name]) for name in names]


def move_prompt(who_text: str) -> str:
    """The move prompt of a player (rich markup)."""
    # TRANSLATORS: the move prompt: {player} is the player's name ("Player 1").
    return _("{player} move (? for moves):", player=who_text) + " "


def moves_heading(count: int) -> str:
    """The line above a list of legal moves, as rich markup."""
    heading = _n("{n} legal move:", "{n} legal moves:", count)
    how = _("(type a move or its number)")
    return f"[bold]{escape(heading)}[/] [dim]{escape(how)}[/]"


def _english(obj: Any, attr: str) -> Any:
    """The English text of ``obj.attr`` as the code wrote it (kept on first use)."""
    key = f"_meeple_english_{attr}"
    if key not in vars(obj):
        setattr(obj, key, getattr(obj, attr))
    return getattr(obj, key)


def say_help(command: Any) -> None:
    """Say the help texts of ``command`` and everything under it in the language in use:
    typer's panel titles, each command's help, each parameter's help and metavar, and the
    ``--help`` option's own text (click keeps it once made)."""
    for attr, text in RICH_CONSTANTS.items():
        setattr(rich_utils, attr, gettext(text))
    stack: list[Any] = [command]
    while stack:
        cmd = stack.pop()
        for attr in ("help", "short_help", "epilog"):
            text = _english(cmd, attr)
            if text:
                setattr(cmd, attr, _(text))
        for attr, text in USAGE_METAVARS.items():
            if getattr(cmd, attr, None) == text or hasattr(cmd, f"_meeple_english_{attr}"):
                _english(cmd, attr)
                setattr(cmd, attr, _(text))
        for param in cmd.params:
            for attr in ("help", "metavar"):
                if hasattr(param, attr):
                    text = _english(param, attr)
                    if text:
                        setattr(param, attr, _(text))
        stack.extend(getattr(cmd, "commands", {}).values())
