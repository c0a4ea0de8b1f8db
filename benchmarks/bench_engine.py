"""Engine speed and the bots' strength on the default scenario.

- `games_per_second`: heuristic-vs-heuristic games in one process, no log, wall time, the median
  of ROUNDS passes over seeds 0..GAMES-1 (`games_per_second_rounds`); `_cpu` the
  same per second of process CPU time; `_batch_cpu` the same games with the collector paced as
  troupe testing paces it (`sim.collector.fewer_collections`, what `test-troupes` plays under),
  each game discarded as `sim.games.play_game` discards it (`Game.discard`), CPU time. A library
  call keeps CPython's default collector, so the first two are what a script playing games gets
  and the last is what a troupe test's worker gets.
- `replay_verify_ms`: re-simulating a default game's replay to its recorded hash (median of 15).
- `peak_mb`: peak traced Python memory of one game with its full log.
- `heuristic_vs_random_win_rate`: the heuristic bot against the random bot over BOT_GAMES games,
  seats swapped every other game (a draw counts as not won).
"""

from __future__ import annotations

import os
import statistics
import time
import tracemalloc

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import DEFAULT_SCENARIO, find_scenario, find_troupe
from skirmish.engine.game import Game
from skirmish.engine.replay import parse_replay, replay_of, verify
from skirmish.sim.collector import fewer_collections

GAMES = int(os.environ.get("SKIRMISH_BENCH_GAMES", "20"))
BOT_GAMES = int(os.environ.get("SKIRMISH_BENCH_BOT_GAMES", "200"))
ROUNDS = int(os.environ.get("SKIRMISH_BENCH_ROUNDS", "3"))
"""Passes over the GAMES seeds; the games/s figures are the median pass (one pass swings up to 2x
on a shared machine, so a single pass is a sample of the machine's load as much as of the engine)."""


def _setup() -> tuple:
    scenario = find_scenario(DEFAULT_SCENARIO)
    troupes = [find_troupe(side.troupe) for side in scenario.sides]
    return scenario, troupes


def _game(scenario, troupes, seed: int, policies: list[str], record_log: bool = False) -> Game:
    game = Game(scenario, troupes, seed=seed, bots=policies, record_log=record_log, transactional=False)
    return play_out(game, seat_bots(game, policies))


def run() -> dict[str, float]:
    from bench_speed import load_compiled  # the steady state: the compiled path finder loaded first

    scenario, troupes = _setup()
    out: dict[str, float] = {key.removeprefix("speed."): v for key, v in load_compiled().items()}
    _game(scenario, troupes, 0, ["heuristic", "heuristic"])  # warm caches (prepared table)
    wall: list[float] = []
    cpu: list[float] = []
    batch: list[float] = []
    for _ in range(ROUNDS):
        start, used = time.perf_counter(), time.process_time()
        for seed in range(GAMES):
            _game(scenario, troupes, seed, ["heuristic", "heuristic"])
        wall.append(GAMES / (time.perf_counter() - start))
        cpu.append(GAMES / (time.process_time() - used))
        with fewer_collections():
            used = time.process_time()
            for seed in range(GAMES):
                _game(scenario, troupes, seed, ["heuristic", "heuristic"]).discard()
            batch.append(GAMES / (time.process_time() - used))
    out["games_per_second"] = statistics.median(wall)
    out["games_per_second_cpu"] = statistics.median(cpu)
    out["games_per_second_batch_cpu"] = statistics.median(batch)
    out["games_per_second_rounds"] = float(ROUNDS)

    game = _game(scenario, troupes, 11, ["heuristic", "heuristic"], record_log=True)
    replay = parse_replay(replay_of(game), "<bench>")
    times = []
    for _ in range(15):
        t = time.perf_counter()
        ok, _ = verify(replay)
        times.append((time.perf_counter() - t) * 1000)
        assert ok
    out["replay_verify_ms"] = statistics.median(times)
    out["replay_actions"] = float(len(replay.actions))

    tracemalloc.start()
    _game(scenario, troupes, 12, ["heuristic", "heuristic"], record_log=True)
    out["peak_mb"] = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()

    wins = draws = 0
    start = time.perf_counter()
    for seed in range(BOT_GAMES):
        seat = seed % 2
        policies = ["heuristic", "random"] if seat == 0 else ["random", "heuristic"]
        g = _game(scenario, troupes, seed, policies)
        if g.state.winning_team is None:
            draws += 1
        elif g.state.winning_team == g.state.players[seat].team:
            wins += 1
    out["heuristic_vs_random_games"] = float(BOT_GAMES)
    out["heuristic_vs_random_win_rate"] = wins / BOT_GAMES
    out["heuristic_vs_random_draw_rate"] = draws / BOT_GAMES
    out["mixed_games_per_second"] = BOT_GAMES / (time.perf_counter() - start)
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
