"""`skirmish play`, `replay` and `board`: games at the table or headless, replays, table pictures."""

from __future__ import annotations

from typing import Annotated

import typer

from skirmish.bots.registry import DEFAULT
from skirmish.cli.app import POLICY_HELP, POLICY_METAVAR


def play_cmd(
    scenario: Annotated[
        str | None, typer.Argument(help="Scenario name (skirmish list scenarios) or file.")
    ] = None,
    troupe: Annotated[
        list[str] | None, typer.Option("--troupe", help="Troupe name or file, one per side in order.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the game's dice stream.")] = 1,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar=POLICY_METAVAR,
            help=f"Bots play every side: {POLICY_HELP}; `--bots` alone means {DEFAULT}; a,b gives one "
            "per side.",
        ),
    ] = None,
    headless: Annotated[
        bool, typer.Option("--headless", help="No window: play and print the result.")
    ] = False,
    turns: Annotated[int | None, typer.Option("--turns", help="Override the scenario's turn limit.")] = None,
    replay_out: Annotated[
        str | None, typer.Option("--replay", help="Write the game's replay (JSON) here.")
    ] = None,
    screenshot: Annotated[
        str | None, typer.Option("--screenshot", help="Save the final board as a PNG.")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Rule option KEY=VALUE, e.g. premeasure=true.")
    ] = None,
    seats: Annotated[
        int | None, typer.Option("--seats", help="The Pursuit: 1-4 people share the heroes (hotseat).")
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="With --headless: print the result as one JSON object.")
    ] = False,
) -> None:
    """Play a game: the window by default, or a headless bot game with --headless."""
    from skirmish.cli.play_cmds import play

    play(
        scenario,
        troupe or [],
        seed,
        bots,
        headless,
        turns,
        replay_out,
        screenshot,
        option or [],
        json_out,
        seats=seats,
    )


def replay_cmd(
    file: Annotated[str, typer.Argument(help="A replay or save file (JSON).")],
    verify: Annotated[
        bool, typer.Option("--verify", help="Re-simulate; exit 0 only if it reaches the recorded hash.")
    ] = False,
    headless: Annotated[bool, typer.Option("--headless", help="No window: print the game's log.")] = False,
    screenshot: Annotated[
        str | None, typer.Option("--screenshot", help="Save the final board as a PNG.")
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="With --verify: print the verdict as one JSON object.")
    ] = False,
) -> None:
    """View a replay (step forward and back), or verify that it re-simulates exactly."""
    from skirmish.cli.play_cmds import replay

    replay(file, verify, headless, screenshot, json_out)


def board_cmd(
    scenario: Annotated[str, typer.Argument(help="Scenario name or file.")] = "open_battle",
    png: Annotated[
        str | None,
        typer.Option(
            "--png",
            help="Where to save the PNG (default: screenshots/board-SCENARIO.png in the data folder).",
        ),
    ] = None,
    sight: Annotated[bool, typer.Option("--sight/--no-sight", help="Sample bases and sight lines.")] = True,
) -> None:
    """Draw a scenario's table to a PNG: terrain by cover, zones, sample bases and sight lines."""
    from skirmish.cli.board_cmd import board

    board(scenario, png, sight)
