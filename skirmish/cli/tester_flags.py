"""`skirmish test-troupes`: its flags checked (one line per problem, exit 2) and its inputs loaded the
way `skirmish play` loads them, so every game in the CSV replays with the command written next to it.
"""

from __future__ import annotations

from typing import Any

from skirmish.cli.errors import UsageProblem, distinct_outputs, output_path, read_path
from skirmish.data.catalogue import DEFAULT_SCENARIO, find_troupe
from skirmish.data.errors import DataError, Problem

MAX_GAMES = 10_000_000
MAX_WORKERS = 512
MAX_ROUND_ROBIN = 16


def check_flags(
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
    scenario_arg: str | None = None,
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
    if not problems:
        try:
            read = {f"TROUPES {t}": read_path("troupes", t) for t in troupes}
            read["--compare"] = read_path("troupes", compare)
            read["--scenario"] = read_path("scenarios", scenario_arg or DEFAULT_SCENARIO)
            distinct_outputs(outputs, inputs=read)
        except UsageProblem as exc:
            problems.extend(exc.lines)
    if problems:
        raise UsageProblem(*problems)


def load_inputs(scenario_arg: str | None, troupe_args: list[str], turns: int | None, option_args: list[str]):
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


def check_deployment(
    scenario: Any,
    source: str,
    troupes: list[Any],
    pairs: list[tuple[int, int]],
    options: Any,
    args: list[str] | None = None,
) -> None:
    """Each troupe of a matchup must fit the deployment zones and the roles it will play (sides swap
    every other game); `args` are the arguments that named the troupes, so a troupe that cannot
    play a side is named, not the scenario file.

    Checked once here, so a zone too small is one line naming the scenario, not a crash in a worker.
    """
    from skirmish.cli.play_cmds import new_game

    for i, j in pairs:
        for first, second in ((i, j),) if scenario.fixed_roles else ((i, j), (j, i)):
            given: list[str | None] | None = [args[first], args[second]] if args is not None else None
            try:
                new_game(
                    scenario, [troupes[first], troupes[second]], source, given=given, seed=0, options=options
                )
            except DataError as exc:
                if (first, second) == (i, j) or given is None:
                    raise
                swapped = " (troupe testing swaps the sides every other game)"
                raise DataError(
                    [
                        Problem(p.file, p.field, p.message + swapped) if p.file in given else p
                        for p in exc.problems
                    ]
                ) from None


def parse_workers(arg: str | None) -> int | None:
    """`--workers` is read here rather than by the option parser so a typo is one line, not a usage box."""
    from skirmish.cli.numbers import WHOLE_TEXT, whole_number

    # ASCII digits only: `２` and `1_0`, which int() reads, are refused (`cli.numbers`).
    return None if arg is None else whole_number(arg, "--workers", WHOLE_TEXT["--workers"])
