"""`skirmish test-troupes` and `skirmish odds table`: troupe testing on the command line (cli.md).

The work is done in `skirmish.sim`; this module checks the flags (one line per problem, exit 2),
loads the troupes the way `skirmish play` does (so every game in the CSV replays with the command
written next to it), shows a progress bar on a terminal and prints the table, JSON, CSV and plot.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from skirmish.cli.errors import UsageProblem, nonempty, output_path, write_rendered
from skirmish.data.catalogue import DEFAULT_SCENARIO, find_troupe
from skirmish.data.errors import DataError, Problem

MAX_GAMES = 10_000_000
MAX_WORKERS = 512
MAX_ROUND_ROBIN = 16


def _check_flags(
    troupes: list[str],
    games: int,
    seed: int,
    workers: int | None,
    executor: str,
    scheduler: str | None,
    compare: str | None,
    round_robin: bool,
    stop_width: float | None,
    batch: int | None,
    outputs: dict[str, str | None],
    bots: str,
    bots_a: str | None = None,
    bots_b: str | None = None,
    compare_bots: str | None = None,
) -> None:
    from skirmish.cli.play_cmds import policy_problem

    problems: list[str] = []
    if compare_bots is not None:
        problem = policy_problem("--compare-bots", compare_bots)
        if problem is not None:
            problems.append(problem)
        if compare is not None or round_robin:
            problems.append("--compare-bots: not with --compare or --round-robin (one change at a time)")
    if round_robin:
        if len(troupes) < 2:
            problems.append(f"--round-robin: give at least 2 troupes, not {len(troupes)}")
        elif len(troupes) > MAX_ROUND_ROBIN:
            problems.append(f"--round-robin: at most {MAX_ROUND_ROBIN} troupes, not {len(troupes)}")
        if compare is not None:
            problems.append("--compare: not with --round-robin (compare two variants against one opponent)")
    elif len(troupes) != 2:
        problems.append(
            f"TROUPES: give exactly two troupes A and B (or --round-robin FILES...), not {len(troupes)}"
        )
    if not 1 <= games <= MAX_GAMES:
        problems.append(f"--games {games}: play at least 1 game (at most {MAX_GAMES:,})")
    if seed < 0:
        problems.append(f"--seed {seed}: the seed is a whole number >= 0")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        problems.append(f"--workers {workers}: choose 1 to {MAX_WORKERS} worker processes")
    if executor not in ("local", "dask"):
        problems.append(f"--executor {executor}: choose local or dask")
    if scheduler is not None and executor != "dask":
        problems.append(f"--scheduler {scheduler}: only with --executor dask")
    if stop_width is not None and not 0 < stop_width < 1:
        problems.append(f"--stop-width {stop_width}: an interval width between 0 and 1, e.g. 0.1")
    if batch is not None and not 1 <= batch <= 10_000:
        problems.append(f"--batch {batch}: choose 1 to 10000 games per task")
    for flag, policy in (("--bots", bots), ("--bots-a", bots_a), ("--bots-b", bots_b)):
        problem = policy_problem(flag, policy) if policy is not None else None
        if problem is not None:
            problems.append(problem)
    for i, arg in enumerate(troupes):
        if not arg.strip():
            problems.append(f"TROUPES: troupe {i + 1} is empty; give a name or a file")
    if compare is not None and not compare.strip():
        problems.append("--compare: the troupe is empty; give a name or a file")
    suffixes = {"--plot": ".png"}
    for flag, out in outputs.items():
        if out is None:
            continue
        try:
            output_path(out, flag, suffixes.get(flag), folder=flag == "--save-replays")
        except UsageProblem as exc:
            problems.extend(exc.lines)
    if problems:
        raise UsageProblem(*problems)


def _load(scenario_arg: str | None, troupe_args: list[str], turns: int | None, option_args: list[str]):
    """Scenario, troupes and options, checked exactly as `skirmish play` checks them."""
    from skirmish.cli.play_cmds import load_scenario_arg, parse_options
    from skirmish.data.building import building_problems

    scenario, source = load_scenario_arg(scenario_arg, "--scenario")
    if len(scenario.sides) != 2:
        raise UsageProblem(
            f"--scenario {scenario.name}: troupe testing needs a two-sided scenario; "
            f"this one has {len(scenario.sides)} sides"
        )
    if turns is not None:
        if not 1 <= turns <= 50:
            raise UsageProblem(f"--turns {turns}: choose 1 to 50 turns")
        scenario = scenario.model_copy(update={"turns": turns})
    problems: list[Problem] = []
    troupes = []
    for arg in troupe_args:
        try:
            troupe = find_troupe(arg)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        problems.extend(building_problems(troupe, arg, scenario.points_limit))
        troupes.append(troupe)
    if problems:
        raise DataError(problems)
    options = parse_options(option_args, scenario.options)
    return scenario, troupes, options, source


def _check_deployment(
    scenario: Any, source: str, troupes: list[Any], pairs: list[tuple[int, int]], options: Any
) -> None:
    """Each troupe of a matchup must fit the deployment zones it will use (sides swap every other game).

    Checked once here, so a zone too small is one line naming the scenario, not a crash in a worker.
    """
    from skirmish.cli.play_cmds import new_game

    for i, j in pairs:
        for first, second in ((i, j),) if scenario.fixed_roles else ((i, j), (j, i)):
            new_game(scenario, [troupes[first], troupes[second]], source, seed=0, options=options)


def _parse_workers(arg: str | None) -> int | None:
    """`--workers` is read here rather than by the option parser so a typo is one line, not a usage box."""
    if arg is None:
        return None
    try:
        return int(arg)
    except ValueError:
        raise UsageProblem(f"--workers {arg}: a whole number of worker processes, e.g. 2") from None


CSV_COLUMNS = [
    "troupe_a",
    "troupe_b",
    "index",
    "seed",
    "sides",
    "side0",
    "side1",
    "winner",
    "winner_troupe",
    "turns",
    "battle_points_a",
    "battle_points_b",
    "battle_points_per_turn_a",
    "battle_points_per_turn_b",
    "kos_a",
    "kos_b",
    "reason",
    "command",
]


@contextlib.contextmanager
def _csv_target(path: str) -> Iterator[IO[str]]:
    """The CSV as a text stream into a temporary file, renamed over `path` when the run ends well.

    An existing CSV is kept whole until then, and a killed run leaves it untouched (its temporary
    file is removed by the next write to `path`); every write failure is exit 2 naming `--csv`.
    """
    from skirmish.data.atomic import atomic_output

    try:
        with atomic_output(path) as raw:
            text = io.TextIOWrapper(raw, encoding="utf-8", newline="", write_through=False)
            try:
                yield text
                text.flush()
            finally:
                text.detach()
    except OSError as exc:
        raise UsageProblem(f"--csv {path}: cannot write the file ({exc.strerror or exc})") from None


class _CsvSink:
    """Writes one row per game as results arrive (in index order): nothing is kept in memory."""

    def __init__(self, fh: IO[str], plan: Any, path: str) -> None:
        self.plan = plan
        self.path = path
        self.writer = csv.writer(fh)
        self._write(CSV_COLUMNS)

    def _write(self, row: list[Any]) -> None:
        try:
            self.writer.writerow(row)
        except OSError as exc:
            raise UsageProblem(f"--csv {self.path}: cannot write the file ({exc.strerror or exc})") from None

    def __call__(self, r: Any) -> None:
        from skirmish.sim.run import outcome_name

        m = self.plan.matchups[r.matchup]
        side0, side1 = (m.a_arg, m.b_arg) if r.a_side == 0 else (m.b_arg, m.a_arg)
        winner = outcome_name(r.outcome)
        self._write(
            [
                m.a_arg,
                m.b_arg,
                r.index,
                r.seed,
                "A,B" if r.a_side == 0 else "B,A",
                side0,
                side1,
                winner,
                {"A": m.a_arg, "B": m.b_arg}.get(winner, ""),
                r.turns,
                sum(r.bp_a),
                sum(r.bp_b),
                ";".join(map(str, r.bp_a)),
                ";".join(map(str, r.bp_b)),
                r.kos_a,
                r.kos_b,
                r.reason,
                self.plan.command(r.matchup, r.index),
            ]
        )


class _ReplaySink:
    """Writes each game's replay, sent back with its record, into the `--save-replays` folder.

    Written here on the client, never by the workers: on a cluster their disks are not the user's.
    """

    def __init__(self, folder: str) -> None:
        from skirmish.data.atomic import clean_stale_temporaries

        self.folder = Path(folder)
        clean_stale_temporaries(folder=self.folder)  # once for the folder, not once per replay

    def __call__(self, r: Any) -> None:
        from skirmish.data.atomic import write_atomic

        if r.replay is None:  # a game resumed from the results file: its replay was written then
            return
        name = r.replay_name()
        try:
            write_atomic(self.folder / name, r.replay, clean=False)
        except OSError as exc:
            raise UsageProblem(
                f"--save-replays {self.folder}: cannot write {name} ({exc.strerror or exc})"
            ) from None
        r.replay = None  # the text is on disk: do not keep it in memory


def _fan_out(sinks: list[Any]) -> Any:
    if not sinks:
        return None

    def each(r: Any) -> None:
        for sink in sinks:
            sink(r)

    return each


class _Results:
    """The `--resume` results file: the whole batches it already holds, and appending new ones."""

    def __init__(self, path: str, writer: Any, resumed: list[Any]) -> None:
        self.path = path
        self.writer = writer
        self.resumed = resumed

    def batch(self, records: list[Any]) -> None:
        try:
            self.writer.batch(records)
        except OSError as exc:
            why = exc.strerror or exc
            raise UsageProblem(f"--resume {self.path}: cannot write the file ({why})") from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.writer.close()


def _open_results(path: str, plan: Any, games: int, size: int, identity: dict[str, Any]) -> _Results:
    from skirmish.sim.journal import ResultsWriter, read_results, run_identity

    digest, about = run_identity(plan, games, size, identity)
    p = Path(path)
    if p.exists() and not p.is_file():  # a FIFO or device would block or swallow the results
        raise UsageProblem(
            f"--resume {path}: is not a regular file; give a file (new, or an interrupted run's)"
        )
    resumed: list[Any] = []
    at: int | None = None
    if p.exists() and p.stat().st_size > 0:
        found = read_results(p, digest)
        if found.end > 0:
            resumed, at = found.records, found.end
    try:
        writer = ResultsWriter(p, digest, about, at)
    except OSError as exc:
        raise UsageProblem(f"--resume {path}: cannot write the file ({exc.strerror or exc})") from None
    return _Results(path, writer, resumed)


class _Bar:
    """A rich progress bar on stderr with the running win rate and time left; nothing off a terminal."""

    def __init__(self, total: int, label: str) -> None:
        from rich.console import Console

        self.console = Console(stderr=True)
        self.progress: Any = None
        if not self.console.is_terminal:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            console=self.console,
            transient=True,
        )
        self.task = self.progress.add_task(label, total=total, rate="")

    def __enter__(self) -> _Bar:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def update(self, done: int, tallies: list[Any]) -> None:
        if self.progress is None:
            return
        if len(tallies) == 1:
            t = tallies[0]
            lo, hi = t.ci95_a()
            rate = f"A wins {t.win_rate_a:.1%} [{lo:.1%}, {hi:.1%}]"
        else:
            rate = "  ".join(f"{t.win_rate_a:.0%}" for t in tallies[:6])
        self.progress.update(self.task, completed=done, rate=rate)


def _fmt_ci(ci: tuple[float, float] | list[float]) -> str:
    return f"[{ci[0]:.1%}, {ci[1]:.1%}]"


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
    workers = _parse_workers(workers_arg)
    _check_flags(
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
    )
    if plot_out is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UsageProblem("--plot: matplotlib is not installed (pip install 'skirmish[plot]')") from None
    args = list(troupes) + ([compare] if compare is not None else [])
    scenario, loaded, options, source = _load(scenario_arg, args, turns, option_args)

    from itertools import combinations

    from skirmish.sim.executors import ExecutorUnavailable, default_workers, make_executor
    from skirmish.sim.games import Matchup, Plan, default_batch_size
    from skirmish.sim.run import run, width_rule

    if round_robin:
        pairs = list(combinations(range(len(loaded)), 2))
    elif compare is not None and compares_side_b(scenario, loaded):
        pairs = [(0, 1), (0, 2)]  # fixed roles: a variant of B's side plays B's role against A
    elif compare is not None or compare_bots is not None:
        pairs = [(0, 1), (2, 1) if compare is not None else (0, 1)]
    else:
        pairs = [(0, 1)]
    _check_deployment(scenario, source, loaded, pairs, options)
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
        results = _open_results(resume, plan, games, size, identity) if resume else None
        resumed: list[Any] = []
        if results is not None:
            stack.callback(results.close)
            resumed = results.resumed
        sinks: list[Any] = []
        if csv_out:
            sinks.append(_CsvSink(stack.enter_context(_csv_target(csv_out)), plan, csv_out))
        if save_replays is not None:
            sinks.append(_ReplaySink(save_replays))
        try:
            with make_executor(executor, n_workers, scheduler) as ex, _Bar(games, label) as bar:
                result = run(
                    plan,
                    games,
                    ex,
                    batch_size=size,
                    window=max(4, 3 * n_workers),
                    stop=width_rule(stop_width) if stop_width is not None else None,
                    paired=compare is not None or compare_bots is not None,
                    on_record=_fan_out(sinks),
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
        report = _round_robin_report(result, args, loaded, pairs, meta)
    else:
        report = _match_report(result, args, compare, meta, bots, compare_bots)
    if plot_out is not None:
        _plot(result, report, plot_out, round_robin, loaded, args)
    if json_out:
        print(json.dumps(report, sort_keys=False))
    else:
        _print_report(report, result, round_robin, loaded)
    if csv_out:
        print(f"CSV written to {csv_out}", file=sys.stderr if json_out else sys.stdout)
    if plot_out:
        print(f"Plot written to {plot_out}", file=sys.stderr if json_out else sys.stdout)
    if save_replays:
        where = Path(save_replays).resolve()
        print(f"Replays written to {where}", file=sys.stderr if json_out else sys.stdout)


def compares_side_b(scenario: Any, loaded: list[Any]) -> bool:
    """In a fixed-roles scenario (the Pursuit) `--compare C` is a variant of whichever side it belongs
    to: of B when it shares B's allegiance and not A's. Its figures are then A's against it."""
    a, b, c = loaded[0], loaded[1], loaded[2]
    return bool(scenario.fixed_roles) and c.allegiance == b.allegiance != a.allegiance


def _match_report(
    result: Any,
    args: list[str],
    compare: str | None,
    meta: dict[str, Any],
    bots: str = "heuristic",
    compare_bots: str | None = None,
) -> dict[str, Any]:
    from skirmish.sim.stats import paired_difference

    base = result.tallies[0].summary()
    report: dict[str, Any] = {"troupe_a": args[0], "troupe_b": args[1]}
    report.update({k: base[k] for k in ("games", "wins_a", "wins_b", "draws", "win_rate_a", "ci95_a")})
    report["games_per_second"] = meta["games_per_second"]
    report.update({k: v for k, v in base.items() if k not in report})
    report.update({k: v for k, v in meta.items() if k not in report})
    report["bots"] = bots
    if (compare is not None or compare_bots is not None) and result.paired is not None:
        other = result.tallies[1].summary()
        diff, (low, high) = paired_difference(result.paired)
        p = result.paired
        report["compare"] = {
            "troupe": compare if compare is not None else args[0],
            "bots": compare_bots or bots,
            "games": other["games"],
            "wins": other["wins_a"],
            "losses": other["wins_b"],
            "draws": other["draws"],
            "win_rate": other["win_rate_a"],
            "ci95": other["ci95_a"],
            "difference": diff,
            "ci95_difference": [low, high],
            "paired": {
                "both_won": p.both,
                "only_original_won": p.only_first,
                "only_variant_won": p.only_second,
                "neither_won": p.neither,
            },
            "detail": other,
        }
    return report


def _round_robin_report(
    result: Any, args: list[str], loaded: list[Any], pairs: list[tuple[int, int]], meta: dict[str, Any]
) -> dict[str, Any]:
    n = len(args)
    matrix: list[list[float | None]] = [[None] * n for _ in range(n)]
    rows = []
    for (i, j), t in zip(pairs, result.tallies, strict=True):
        s = t.summary()
        matrix[i][j] = s["win_rate_a"]
        matrix[j][i] = s["win_rate_b"]
        rows.append(
            {
                "troupe_a": args[i],
                "troupe_b": args[j],
                **{
                    k: s[k]
                    for k in (
                        "games",
                        "wins_a",
                        "wins_b",
                        "draws",
                        "win_rate_a",
                        "ci95_a",
                        "win_rate_b",
                        "ci95_b",
                        "mean_turns",
                    )
                },
            }
        )
    overall = []
    for i in range(n):
        rates = [v for v in matrix[i] if v is not None]
        overall.append(sum(rates) / len(rates) if rates else 0.0)
    return {
        "troupes": args,
        "titles": [t.title for t in loaded],
        "games": result.games_played,
        "matrix": matrix,
        "mean_win_rate": overall,
        "pairs": rows,
        **meta,
    }


def _print_report(report: dict[str, Any], result: Any, round_robin: bool, loaded: list[Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=130)
    if round_robin:
        names = report["troupes"]
        table = Table(
            title=f"Round robin: win rate of the row troupe ({report['games']} games per pair, "
            f"scenario {report['scenario']}, seed {report['seed']})"
        )
        table.add_column("troupe")
        for name in names:
            table.add_column(name, justify="right")
        table.add_column("mean", justify="right")
        for i, name in enumerate(names):
            cells = ["—" if v is None else f"{v:.1%}" for v in report["matrix"][i]]
            table.add_row(name, *cells, f"{report['mean_win_rate'][i]:.1%}")
        console.print(table)
        for p in report["pairs"]:
            console.print(
                f"  {p['troupe_a']} v {p['troupe_b']}: {p['wins_a']}-{p['wins_b']}-{p['draws']} "
                f"(A {p['win_rate_a']:.1%} {_fmt_ci(p['ci95_a'])})"
            )
    else:
        a = report["troupe_a"]
        comp = report.get("compare")
        first, second = a, comp["troupe"] if comp else ""
        if comp and comp["bots"] != report["bots"]:  # --compare-bots: the rows differ by their bots
            first, second = f"{a} ({report['bots']} bots)", f"{a} ({comp['bots']} bots)"
        table = Table(
            title=f"{loaded[0].title} (A) v {loaded[1].title} (B) — {report['games']} games, scenario "
            f"{report['scenario']}, seed {report['seed']}"
        )
        for col in (
            "troupe",
            "games",
            "A wins",
            "B wins",
            "draws",
            "A win rate",
            "95% interval",
            "mean BP A",
            "mean BP B",
            "mean turns",
        ):
            table.add_column(col, justify="left" if col == "troupe" else "right")
        table.add_row(
            first,
            str(report["games"]),
            str(report["wins_a"]),
            str(report["wins_b"]),
            str(report["draws"]),
            f"{report['win_rate_a']:.1%}",
            _fmt_ci(report["ci95_a"]),
            f"{report['mean_battle_points_a']:.2f}",
            f"{report['mean_battle_points_b']:.2f}",
            f"{report['mean_turns']:.2f}",
        )
        if comp:
            d = comp["detail"]
            table.add_row(
                second,
                str(comp["games"]),
                str(comp["wins"]),
                str(comp["losses"]),
                str(comp["draws"]),
                f"{comp['win_rate']:.1%}",
                _fmt_ci(comp["ci95"]),
                f"{d['mean_battle_points_a']:.2f}",
                f"{d['mean_battle_points_b']:.2f}",
                f"{d['mean_turns']:.2f}",
            )
        console.print(table)
        if comp:
            console.print(
                f"Paired difference ({second} minus {first}, same seeds): "
                f"{comp['difference']:+.1%} {_fmt_ci(comp['ci95_difference'])}"
            )
        for side, title, key in (("A", loaded[0].title, "models_a"), ("B", loaded[1].title, "models_b")):
            mt = Table(title=f"{side}: {title}, per model and game")
            for col in ("model", "KOs", "damage dealt", "damage taken", "survival", "AP spent", "abilities"):
                mt.add_column(col, justify="left" if col == "model" else "right")
            for name, v in report[key].items():
                mt.add_row(
                    name,
                    f"{v['kos']:.2f}",
                    f"{v['damage_dealt']:.2f}",
                    f"{v['damage_taken']:.2f}",
                    f"{v['survival']:.0%}",
                    f"{v['ap_spent']:.2f}",
                    f"{v['abilities_used']:.2f}",
                )
            console.print(mt)
        per_a = " ".join(f"{x:.2f}" for x in report["battle_points_per_turn_a"])
        per_b = " ".join(f"{x:.2f}" for x in report["battle_points_per_turn_b"])
        console.print(f"Battle Points per turn — A: {per_a}; B: {per_b}")
        ends = ", ".join(f"{k}: {v}" for k, v in report["end_reasons"].items())
        console.print(f"Game ends — {ends}")
    stop = " (stopped early: interval narrow enough)" if report["stopped_early"] else ""
    console.print(
        f"{result.games_played} of {report['games_requested']} games{stop}; "
        f"{report['games_per_second']:.1f} games/s on {report['workers']} {report['executor']} worker(s)"
    )


def _plot(
    result: Any, report: dict[str, Any], path: str, round_robin: bool, loaded: list[Any], args: list[str]
) -> None:
    """The run's figure as a PNG at `path` (drawn to a scratch file, so the output is always PNG)."""
    write_rendered(path, "--plot", lambda tmp: _draw(result, report, tmp, round_robin, loaded))


def _draw(result: Any, report: dict[str, Any], path: str, round_robin: bool, loaded: list[Any]) -> None:
    from skirmish.sim.plots import plot_matrix, plot_run

    if round_robin:
        plot_matrix(
            path,
            [t.title for t in loaded],
            report["matrix"],
            f"Round robin on {report['scenario']} ({report['games']} games per pair)",
        )
        return
    t0 = result.tallies[0]
    series = [(f"{loaded[0].title} v {loaded[1].title}", bytes(t0.outcomes))]
    if len(result.tallies) > 1:
        series.append((f"{loaded[2].title} (variant) v {loaded[1].title}", bytes(result.tallies[1].outcomes)))
    models = [
        (f"A {k}", v.means()["damage_dealt"], v.means()["damage_taken"]) for k, v in t0.models_a.items()
    ]
    models += [
        (f"B {k}", v.means()["damage_dealt"], v.means()["damage_taken"]) for k, v in t0.models_b.items()
    ]
    plot_run(
        path,
        f"{loaded[0].title} (A) v {loaded[1].title} (B) on {report['scenario']}, "
        f"{result.games_played} games, seed {report['seed']}",
        series,
        models,
        bytes(t0.lengths),
    )


def odds_table(a_arg: str, b_arg: str, json_out: bool) -> None:
    """Print the exact odds of every model of A against every model of B."""
    from skirmish.sim.odds_table import COVERS, SITUATIONS, as_json
    from skirmish.sim.odds_table import odds_table as compute

    problems: list[Problem] = []
    loaded = []
    for flag, arg in (("A", a_arg), ("B", b_arg)):
        nonempty(arg, flag, "troupe name or file")
        try:
            loaded.append(find_troupe(arg))
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    a, b = loaded
    shots, melees = compute(a, b)
    if json_out:
        print(json.dumps(as_json(a, b, shots, melees)))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=140)

    def pct(x: float) -> str:
        return f"{x:.0%}" if x in (0.0, 1.0) else f"{x:.1%}"

    st = Table(title=f"Shooting: {a.title} at {b.title} — hit / wound / KO ({SITUATIONS['shooting']})")
    st.add_column("shooter")
    st.add_column("weapon")
    st.add_column("target")
    for name, _ in COVERS:
        st.add_column(name, justify="right")
    for r in shots:
        st.add_row(
            r.shooter,
            r.weapon,
            r.target,
            *(
                "impossible" if o.impossible else f"{pct(o.hit)} / {pct(o.wound)} / {pct(o.ko)}"
                for o in r.odds
            ),
        )
    if shots:
        console.print(st)
    else:
        console.print(f"{a.title} has no ranged attacks.")
    mt = Table(
        title=f"Melee: {a.title} (A) v {b.title} (B) — A hits / B hits / A wounds B / B wounds A "
        f"({SITUATIONS['melee']})"
    )
    mt.add_column("A model")
    mt.add_column("B model")
    mt.add_column("open", justify="right")
    mt.add_column("B in cover", justify="right")
    for mr in melees:
        mt.add_row(
            mr.attacker,
            mr.defender,
            *(
                " / ".join(
                    pct(x) for x in (o.attacker_hits, o.defender_hits, o.defender_wounded, o.attacker_wounded)
                )
                for o in mr.odds
            ),
        )
    console.print(mt)
