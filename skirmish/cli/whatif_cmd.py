"""`skirmish what-if REPLAY --at STEP --games N`: was it the dice or the plan?

Re-plays the rest of a recorded game N times with bots from the position after STEP actions,
with fresh dice derived from `--seed`, and prints the outcome distribution with 95% Wilson
intervals next to what really happened. The batch logic is `skirmish.sim.whatif`.
"""

from __future__ import annotations

import json
import sys

from skirmish.cli.errors import UsageProblem
from skirmish.cli.numbers import WHOLE_TEXT, whole_number
from skirmish.cli.play_cmds import policy_problem

MAX_GAMES = 1_000_000
MAX_WORKERS = 512


def _int(arg: str, flag: str, what: str) -> int:
    """A flag's whole number in ASCII digits (`cli.numbers`), read here so a typo is one line naming
    the flag (not a usage box)."""
    return whole_number(arg, flag, what)


def what_if(
    file: str,
    at_arg: str,
    games_arg: str,
    seed_arg: str,
    workers_arg: str | None,
    bots: str,
    json_out: bool,
) -> None:
    from skirmish.data.errors import DataError
    from skirmish.engine.replay import load_replay, verify_problems
    from skirmish.sim.executors import default_workers, local_executor
    from skirmish.sim.whatif import WhatIfPlan, report_lines, run_whatif

    if not file.strip():
        raise UsageProblem("REPLAY: the replay path is empty; give a replay file")
    problems: list[str] = []
    at = games = seed = workers = 0
    for flag, arg, what, setter in (
        ("--at", at_arg, WHOLE_TEXT["--at"], "at"),
        ("--games", games_arg, WHOLE_TEXT["--games"], "games"),
        ("--seed", seed_arg, WHOLE_TEXT["--seed"], "seed"),
    ):
        try:
            value = _int(arg, flag, what)
        except UsageProblem as exc:
            problems.extend(exc.lines)
            continue
        if setter == "at":
            at = value
        elif setter == "games":
            games = value
        else:
            seed = value
    if workers_arg is not None:
        try:
            workers = _int(workers_arg, "--workers", WHOLE_TEXT["--workers"])
        except UsageProblem as exc:
            problems.extend(exc.lines)
    else:
        workers = default_workers()
    if not problems:
        if not 1 <= games <= MAX_GAMES:
            problems.append(f"--games {games}: play at least 1 game (at most {MAX_GAMES:,})")
        if seed < 0:
            problems.append(f"--seed {seed}: the seed is a whole number >= 0")
        if not 1 <= workers <= MAX_WORKERS:
            problems.append(f"--workers {workers}: choose 1 to {MAX_WORKERS} worker processes")
    bot_problem = policy_problem("--bots", bots)  # the names of skirmish.bots.registry, or module:Class
    if bot_problem is not None:
        problems.append(bot_problem)
    if problems:
        raise UsageProblem(*problems)
    rep = load_replay(file)
    total = len(rep.actions)
    if total == 0:
        raise UsageProblem(f"{file}: the replay has no actions to re-play from")
    if not 0 <= at < total:
        raise UsageProblem(
            f"--at {at}: step out of range; {file} has {total} actions, choose 0 to {total - 1}"
        )
    # The replay must be what it says (as `replay --verify` checks): "what really happened" is read
    # from its recorded result, which an edited or damaged file would misreport.
    verified = verify_problems(rep)
    if verified:
        raise DataError(verified)
    plan = WhatIfPlan(rep, at, seed, bots)
    with local_executor(min(workers, games)) as ex:
        result = run_whatif(plan, games, ex)
    if json_out:
        print(json.dumps(result.summary(), sort_keys=True))
        return
    for line in report_lines(result):
        print(line)
    print(f"({result.games} games in {result.seconds:.1f} s)", file=sys.stderr)
