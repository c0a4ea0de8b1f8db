"""`skirmish campaign`: the Pursuit as a campaign of seven Boxes, saved between games."""

from __future__ import annotations

from typing import Annotated

import typer

from skirmish.cli.app import POLICY_HELP, POLICY_METAVAR


def campaign_cmd(
    action: Annotated[
        str | None, typer.Argument(help="status, play, reset or test; none: how to play, then the status.")
    ] = None,
    file: Annotated[
        str | None, typer.Option("--file", help="Save file (default: campaign.json in the data folder).")
    ] = None,
    campaign: Annotated[str, typer.Option("--campaign", help="Campaign name or file.")] = "aangs_destiny",
    bots: Annotated[
        str | None,
        typer.Option("--bots", metavar=POLICY_METAVAR, help=f"Heroes played by this bot: {POLICY_HELP}."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the chapter's game.")] = None,
    headless: Annotated[bool, typer.Option("--headless", help="No window; bots play.")] = False,
    replay_out: Annotated[str | None, typer.Option("--replay", help="Write the replay here.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object (every action).")] = False,
    games: Annotated[int | None, typer.Option("--games", help="test: bot games per Box (100).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="test: worker processes.")] = None,
) -> None:
    """The Pursuit as a campaign of seven Boxes, saved; a win opens the next, a loss resets it."""
    from skirmish.cli.campaign_cmd import campaign as run_campaign

    if action is None:  # `skirmish campaign` alone: say how to play before where the campaign stands
        if not json_out:
            print(CAMPAIGN_HOWTO)
        action = "status"
    run_campaign(
        action,
        file,
        campaign,
        bots,
        seed,
        headless,
        replay_out,
        json_out=json_out,
        games=games,
        workers=workers,
    )


CAMPAIGN_HOWTO = """How to play the campaign: the Pursuit, Box after Box (seven Boxes, as Aang's Destiny's).
  skirmish campaign play             play the next Box (the window; --headless lets bots play)
  skirmish campaign play --bots      bots play the heroes too (watch, or test a Box)
  skirmish campaign status           where the campaign stands (Box, what carried over, attempts)
  skirmish campaign reset            start again at Box 1
  skirmish campaign test --json      bot games of every Box: each Box's hero win rate
A win opens the next Box and carries the heroes' gains over; a loss resets the Box to play again.
The save is campaign.json in your data folder (`skirmish list folders`; --file elsewhere);
--campaign picks another campaign.
"""
