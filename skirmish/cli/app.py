"""The `skirmish` Typer app, its root options and its sub-command groups (`odds`, `troupe`).

The commands themselves are declared in `cli.commands` and registered, in help order, by `cli.main`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from skirmish.bots.registry import DEFAULT, NAMED

POLICY_HELP = ", ".join(NAMED) + f" (default {DEFAULT}), an installed plugin's name, or module:Class"
POLICY_METAVAR = "[" + "|".join(NAMED) + "|MODULE:CLASS]"
"""`--bots` takes a name of `skirmish.bots.registry` or an import path, so it is a string checked by the
registry (exit 2 naming the flag), not a click Choice; its metavar still lists the named choices."""

app = typer.Typer(
    name="skirmish",
    help="Avatar: Battles in the Four Kingdoms — play, replay, validate and test troupes.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        from skirmish import DISTRIBUTION, __version__

        print(f"skirmish {__version__} ({DISTRIBUTION})")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Avatar: Battles in the Four Kingdoms — play, replay, validate and test troupes.

    Files the program writes without being given a path (saves, end-of-game replays, board
    pictures, the campaign save) go to the per-user data folder: `skirmish list folders` shows it.
    """


odds_app = typer.Typer(
    help="Exact odds of a shot or a melee exchange (computed, never sampled).", no_args_is_help=True
)
app.add_typer(odds_app, name="odds")
troupe_app = typer.Typer(help="Troupe building: points breakdowns.", no_args_is_help=True)
app.add_typer(troupe_app, name="troupe")
