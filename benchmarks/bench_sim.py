"""Troupe-testing throughput: heuristic-bot games per second with 1 and 2 local workers, default scenario.

The run happens in a fresh interpreter (as `skirmish test-troupes` would), so the memory figures
are the run's own and not those of whatever the benchmark runner loaded before. `peak_mb` is the
main process's peak RSS plus the workers' (each worker's peak, taken as the largest of them, times
the number of workers): an upper bound on what the run held at once. `GAMES` is modest because the
engine still takes on the order of a second per full game; the 10,000-game time is projected.
"""

from __future__ import annotations

import json
import subprocess
import sys

GAMES = 40
WORKERS = 2

_DRIVER = r"""
import json, resource, sys, time
from skirmish.data.catalogue import DEFAULT_SCENARIO, find_scenario, find_troupe
from skirmish.sim.executors import make_executor
from skirmish.sim.games import Matchup, Plan, default_batch_size
from skirmish.sim.run import run

games, workers = int(sys.argv[1]), int(sys.argv[2])
scenario = find_scenario(DEFAULT_SCENARIO)
a, b = (find_troupe(side.troupe) for side in scenario.sides)
plan = Plan(scenario, (Matchup(a, b, a.name, b.name),), scenario.options, seed=1)
start = time.perf_counter()
with make_executor("local", workers) as ex:
    started = time.perf_counter()
    result = run(plan, games, ex, batch_size=default_batch_size(games), window=3 * workers)
total = time.perf_counter() - start
def _hwm_mb():
    # This process's own peak: Linux carries ru_maxrss across exec, so from a benchmark runner that
    # had grown large, RUSAGE_SELF would report the runner's peak, not this run's; VmHWM is the
    # peak of this program's memory alone.
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
me = _hwm_mb()
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
t = result.tallies[0]
print(json.dumps({"games": result.games_played, "seconds": result.seconds, "seconds_with_startup": total,
                  "main_mb": me, "worker_mb": kids, "mean_turns": t.turns / max(1, t.games)}))
"""


def _drive(workers: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _DRIVER, str(GAMES), str(workers)], capture_output=True, text=True, check=True
    )
    data: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def run() -> dict[str, float]:
    one = _drive(1)
    data = _drive(WORKERS)
    gps = data["games"] / data["seconds"]
    return {
        "sim_1_worker_games_per_second": one["games"] / one["seconds"],
        "sim_games": float(data["games"]),
        "sim_workers": float(WORKERS),
        "games_per_second": gps,
        "sim_seconds_per_game_per_worker": WORKERS / gps,
        "sim_projected_10000_games_s": 10_000 / gps,
        "sim_mean_turns": data["mean_turns"],
        "peak_mb": data["main_mb"] + WORKERS * data["worker_mb"],
        "sim_main_peak_mb": data["main_mb"],
        "sim_worker_peak_mb": data["worker_mb"],
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
