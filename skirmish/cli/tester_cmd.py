"""`skirmish test-troupes`: troupe testing on the command line (cli.md).

The work is done in `skirmish.sim`; this module runs it: the flags and inputs are checked in
`tester_flags`, records go to the sinks of `tester_sinks` (CSV, replays, results file, progress
bar) as they arrive, and `tester_report` prints the table, JSON and plot.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from skirmish.cli.errors import UsageProblem, printable
from skirmish.cli.play_cmds import plugin_moves_checked
from skirmish.cli.tester_flags import check_deployment, check_flags, load_inputs, parse_workers
from skirmish.cli.tester_report import compares_side_b, match_report, plot, print_report, round_robin_report
from skirmish.cli.tester_sinks import CsvSink, ProgressBar, ReplaySink, csv_target, fan_out, open_results
from skirmish.data.catalogue import DEFAULT_SCENARIO


def run_test_troupes(
    troupes: list[str],
    scenario_arg: str | None,
    games: int,
    seed: int,
    workers_arg: str | None,
    executor: str,
    scheduler: str | None,
    json_out: bool,
    csv_out: str | None,
    plot_out: str | None,
    compare: str | None,
    round_robin: bool,
    stop_width: float | None,
    batch: int | None,
    turns: int | None,
    option_args: list[str],
    bots: str,
    save_replays: str | None,
    resume: str | None = None,
    bots_a: str | None = None,
    bots_b: str | None = None,
    compare_bots: str | None = None,
) -> None:
    """Run the games and report; every bad flag or file is one line and exit 2."""
    workers = parse_workers(workers_arg)
    check_flags(
        troupes,
        games,
        seed,
        workers,
        executor,
        scheduler,
        compare,
        round_robin,
        stop_width,
        batch,
        {"--csv": csv_out, "--plot": plot_out, "--save-replays": save_replays, "--resume": resume},
        bots,
        bots_a,
        bots_b,
        compare_bots,
        scenario_arg,
    )
    if plot_out is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            from skirmish.sim.plots import MATPLOTLIB_MISSING

            raise UsageProblem(MATPLOTLIB_MISSING) from None
    args = list(troupes) + ([compare] if compare is not None else [])
    scenario, loaded, options, source = load_inputs(scenario_arg, args, turns, option_args)

    from itertools import combinations

    from skirmish.sim.executors import ExecutorUnavailable, default_workers, make_executor
    from skirmish.sim.games import Matchup, Plan, batches, default_batch_size
    from skirmish.sim.run import run, width_rule

    if round_robin:
        pairs = list(combinations(range(len(loaded)), 2))
    elif compare is not None and compares_side_b(scenario, loaded):
        pairs = [(0, 1), (0, 2)]  # fixed roles: a variant of B's side plays B's role against A
    elif compare is not None or compare_bots is not None:
        pairs = [(0, 1), (2, 1) if compare is not None else (0, 1)]
    else:
        pairs = [(0, 1)]
    check_deployment(scenario, source, loaded, pairs, options, args)
    matchups = tuple(Matchup(loaded[i], loaded[j], args[i], args[j]) for i, j in pairs)
    if compare_bots is not None:
        # The same matchup on the same seeds, the second time with other bots: a paired comparison.
        matchups = (matchups[0], Matchup(loaded[0], loaded[1], args[0], args[1], policy=compare_bots))
    if save_replays is not None:
        try:
            Path(save_replays).mkdir(exist_ok=True)
        except OSError as exc:
            raise UsageProblem(
                f"--save-replays {save_replays}: cannot make the folder ({exc.strerror or exc})"
            ) from None
    plan = Plan(
        scenario,
        matchups,
        options,
        seed,
        policy=bots,
        policy_a=bots_a,
        policy_b=bots_b,
        scenario_arg=scenario_arg or DEFAULT_SCENARIO,
        turns=turns,
        option_args=tuple(option_args),
        replay_dir=save_replays,
    )
    n_workers = workers if workers is not None else default_workers()
    size = batch if batch is not None else default_batch_size(games)
    label = "Round robin" if round_robin else f"{loaded[0].title} v {loaded[1].title}"
    identity = {"compare": compare, "round_robin": round_robin, "stop_width": stop_width}
    if bots_a is not None or bots_b is not None:  # a run with a bot per side is another run
        identity |= {"bots_a": bots_a, "bots_b": bots_b}
    with contextlib.ExitStack() as stack:
        results = open_results(resume, plan, games, size, identity) if resume else None
        resumed: list[Any] = []
        if results is not None:
            stack.callback(results.close)
            resumed = results.resumed
        sinks: list[Any] = []
        if csv_out:
            sinks.append(CsvSink(stack.enter_context(csv_target(csv_out)), plan, csv_out))
        if save_replays is not None:
            sinks.append(ReplaySink(save_replays))
        try:
            # No more local processes than there are batches to play: `--games 2 --workers 64` forked
            # 64 processes for one batch (the results never depend on the worker count).
            tasks = len(matchups) * len(batches(games, size))
            pool = min(n_workers, tasks) if executor == "local" else n_workers
            own_bots = {
                "--bots": bots,
                "--bots-a": bots_a,
                "--bots-b": bots_b,
                "--compare-bots": compare_bots,
            }
            with (
                plugin_moves_checked(own_bots),
                make_executor(executor, pool, scheduler) as ex,
                ProgressBar(games, label) as bar,
            ):
                result = run(
                    plan,
                    games,
                    ex,
                    batch_size=size,
                    window=max(4, 3 * n_workers),
                    stop=width_rule(stop_width) if stop_width is not None else None,
                    paired=compare is not None or compare_bots is not None,
                    on_record=fan_out(sinks),
                    on_progress=bar.update,
                    on_batch=results.batch if results is not None else None,
                    resumed=resumed,
                )
                # The workers that really played: the executor's own count (a remote cluster's
                # size, the processes a pool started), and never more than there were batches.
                counted = getattr(ex, "worker_count", lambda: n_workers)() or n_workers
                real_workers = max(1, min(counted, -(-result.games_played // size)))
        except ExecutorUnavailable as exc:
            raise UsageProblem(str(exc)) from None
    meta = {
        "scenario": scenario.name,
        "seed": seed,
        "games_requested": games,
        "stopped_early": result.stopped_early,
        "batch_size": size,
        "workers": real_workers,
        "workers_requested": n_workers,
        "executor": executor,
        "seconds": result.seconds,
        "games_per_second": result.games_per_second,
        "bots_a": bots_a or bots,  # the bot that played troupe A's side, and B's
        "bots_b": bots_b or bots,
    }
    if round_robin:
        report = round_robin_report(result, args, loaded, pairs, meta)
    else:
        report = match_report(result, args, compare, meta, bots, compare_bots)
    if plot_out is not None:
        plot(result, report, plot_out, round_robin, loaded, args)
    if json_out:
        print(json.dumps(report, sort_keys=False))
    else:
        print_report(report, result, round_robin, loaded)
    if csv_out:
        print(f"CSV written to {printable(csv_out)}", file=sys.stderr if json_out else sys.stdout)
    if plot_out:
        print(f"Plot written to {printable(plot_out)}", file=sys.stderr if json_out else sys.stdout)
    if save_replays:
        where = Path(save_replays).resolve()
        print(f"Replays written to {printable(str(where))}", file=sys.stderr if json_out else sys.stdout)
