"""`skirmish test-troupes` and `what-if`: many bot games, with honest statistics."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from skirmish.bots.registry import DEFAULT
from skirmish.cli.app import POLICY_HELP, POLICY_METAVAR


class Executor(StrEnum):
    """Where troupe-testing games run: local processes or a Dask cluster."""

    local = "local"
    dask = "dask"


def test_troupes_cmd(
    troupes: Annotated[
        list[str], typer.Argument(help="Troupes A and B (names or files); with --round-robin, 2 or more.")
    ],
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="Scenario name or file (default open_battle).")
    ] = None,
    games: Annotated[
        int, typer.Option("--games", help="Games per matchup (the most, with --stop-width).")
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: game i uses derive_seed(seed, i).")] = 1,
    workers: Annotated[
        str | None, typer.Option("--workers", help="Worker processes (default: the cores).")
    ] = None,
    executor: Annotated[
        Executor, typer.Option("--executor", help="local (processes) or dask.")
    ] = Executor.local,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Dask scheduler address (default: a local cluster).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    csv_out: Annotated[str | None, typer.Option("--csv", help="Write one row per game here.")] = None,
    plot_out: Annotated[
        str | None, typer.Option("--plot", help="Write a PNG of the run here (needs matplotlib).")
    ] = None,
    compare: Annotated[
        str | None, typer.Option("--compare", help="A variant of A, played against B on the same seeds.")
    ] = None,
    round_robin: Annotated[
        bool, typer.Option("--round-robin", help="Play every pair of the troupes given.")
    ] = False,
    stop_width: Annotated[
        float | None, typer.Option("--stop-width", help="Stop once the 95% interval is narrower than this.")
    ] = None,
    batch: Annotated[
        int | None, typer.Option("--batch", help="Games per task (default from --games).")
    ] = None,
    turns: Annotated[int | None, typer.Option("--turns", help="Override the scenario's turn limit.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help="Rule option KEY=VALUE.")] = None,
    bots: Annotated[
        str,
        typer.Option("--bots", metavar=POLICY_METAVAR, help=f"Bot policy for every seat: {POLICY_HELP}."),
    ] = DEFAULT,
    bots_a: Annotated[
        str | None,
        typer.Option("--bots-a", metavar=POLICY_METAVAR, help="Bot of troupe A's side (default --bots)."),
    ] = None,
    bots_b: Annotated[
        str | None,
        typer.Option("--bots-b", metavar=POLICY_METAVAR, help="Bot of troupe B's side (default --bots)."),
    ] = None,
    compare_bots: Annotated[
        str | None,
        typer.Option(
            "--compare-bots",
            metavar=POLICY_METAVAR,
            help="Also play A v B with these bots on every seat, same seeds (paired).",
        ),
    ] = None,
    save_replays: Annotated[
        str | None, typer.Option("--save-replays", help="Write every game's replay into this folder.")
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            help="Results file (JSONL) kept as the run goes; if it holds an interrupted run of the "
            "same command, only the games it lacks are played.",
        ),
    ] = None,
) -> None:
    """Troupe testing: N bot games of A v B, sides swapped every other game, with honest statistics."""
    from skirmish.cli.tester_cmd import run_test_troupes

    run_test_troupes(
        troupes,
        scenario,
        games,
        seed,
        workers,
        executor.value,
        scheduler,
        json_out,
        csv_out,
        plot_out,
        compare,
        round_robin,
        stop_width,
        batch,
        turns,
        option or [],
        bots,
        save_replays,
        resume,
        bots_a,
        bots_b,
        compare_bots,
    )


def what_if_cmd(
    replay: Annotated[str, typer.Argument(help="A replay or save file (JSON).")],
    at: Annotated[str, typer.Option("--at", help="Re-play from the position after this many actions.")],
    games: Annotated[str, typer.Option("--games", help="How many endings to re-play.")] = "200",
    seed: Annotated[str, typer.Option("--seed", help="Run seed: ending i rolls derive_seed(seed, i).")] = "1",
    workers: Annotated[
        str | None, typer.Option("--workers", help="Worker processes (default: the cores).")
    ] = None,
    bots: Annotated[
        str,
        typer.Option("--bots", metavar=POLICY_METAVAR, help=f"Bot policy for every seat: {POLICY_HELP}."),
    ] = DEFAULT,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Re-play the rest of a game N times with bots and fresh dice: the outcome distribution with
    its 95% interval, next to what really happened (was it the dice or the plan?)."""
    from skirmish.cli.whatif_cmd import what_if

    what_if(replay, at, games, seed, workers, bots, json_out)
