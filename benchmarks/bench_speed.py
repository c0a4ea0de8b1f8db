"""Where a game's time goes, scenario by scenario (issue 15): the figures troupe testing lives by.

- `speed.<scenario>.heuristic_gps` / `.random_gps`: games per second in one process, no log,
  non-transactional (what `test-troupes` plays), SCENARIO_GAMES seeds each after a warm-up game;
  `_cpu_gps` the same per second of process CPU time (honest on a machine shared with others).
- `speed.<scenario>.ms_engine_rules` / `ms_engine_geometry` / `ms_bot_logic` / `ms_bot_geometry`:
  one heuristic game's milliseconds split by who asked (the engine's `apply` or the bot's
  `choose`) and what ran (the battlefield layer or the rest). Geometry is timed at the outermost
  call into `skirmish.battlefield` (its public functions and `Table` methods, re-bound in every
  module that imported them), so the split costs a little timing overhead of its own: the four
  parts add up to more than 1000 / heuristic_gps.
- `legal_actions_median_ms` / `_p90_ms` / `_max_ms`, and `legal_actions.<step>.median_ms`:
  `Game.legal_actions()` CPU time at every decision of default-scenario heuristic games (what an
  RL or search user calls each step), overall and per step.
- `speed.open_battle.<policy>_path_searches_per_game` / `_straight_checks_per_game`: path
  searches run and straight-move batches checked afresh (memo misses) per default game, seeds
  1-4: counts, immune to the machine's load.
- `speed.compiled_path_search`: 1 when the numba path finder ran (loaded first, so every figure is
  the steady state), with `_load_ms` the CPU its loading cost (import, cached machine code, check);
  `speed.compiled_sight`: 1 when the compiled sight kernel ran (loaded first as well).
- `replay_verify_ms` lives in bench_engine; `test-troupes` games/s at 1 and 2 workers in
  bench_sim.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import DEFAULT_SCENARIO, find_scenario, find_troupe
from skirmish.engine.game import Game

SCENARIO_GAMES = int(os.environ.get("SKIRMISH_BENCH_SCENARIO_GAMES", "12"))
"""Seeds 1..SCENARIO_GAMES a scenario and policy (12 since round 11: with 6 a game's length by seed
moved a scenario's figure by a third, avatar_duel heuristic read 16.8 on seeds 1-6 and 23.9 on
seeds 1-24 in the same process)."""
SCENARIOS = (
    "open_battle",
    "hold_the_zones",
    "four_kingdoms_melee",
    "escort_the_avatar",
    "siege_of_ba_sing_se",
    "day_of_black_sun",
    "the_pursuit",
    "avatar_duel",
)


def _setup(name: str) -> tuple[Any, list[Any]]:
    sc = find_scenario(name)
    return sc, [find_troupe(side.troupe) for side in sc.sides]


def _policies(sc: Any, policy: str) -> list[str]:
    # Scenario-fixed bots (the Pursuit's pursuers) keep their own policy in heuristic runs.
    return [side.bot or policy for side in sc.sides] if policy == "heuristic" else [policy] * len(sc.sides)


def _play(sc: Any, troupes: list[Any], seed: int, policies: list[str]) -> Game:
    g = Game(sc, troupes, seed=seed, bots=policies, record_log=False, transactional=False)
    return play_out(g, seat_bots(g, policies))


def games_per_second(name: str, policy: str, games: int = SCENARIO_GAMES) -> tuple[float, float]:
    """Games per second of wall time and of process CPU time (the latter barely moved by load)."""
    sc, troupes = _setup(name)
    pols = _policies(sc, policy)
    _play(sc, troupes, 0, pols)  # warm the prepared table and caches
    start = time.perf_counter()
    cpu = time.process_time()
    for seed in range(1, games + 1):
        _play(sc, troupes, seed, pols)
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu)


class _Split:
    """Accumulates time by (who asked, what ran) with re-bound battlefield entry points."""

    def __init__(self) -> None:
        self.who = "engine"
        self.depth = 0
        self.geo = {"engine": 0.0, "bot": 0.0}
        self.total = {"engine": 0.0, "bot": 0.0}
        self._undo: list[tuple[Any, str, Any]] = []

    def _wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        split = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            if split.depth:
                return fn(*args, **kwargs)
            split.depth = 1
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                split.geo[split.who] += time.perf_counter() - t
                split.depth = 0

        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed

    def install(self) -> None:
        import skirmish.battlefield.measure as measure
        import skirmish.battlefield.paths as paths
        import skirmish.battlefield.physics as physics
        import skirmish.battlefield.reach as reach
        import skirmish.battlefield.sight as sight
        from skirmish.battlefield.table import Table

        originals: dict[int, Callable[..., Any]] = {}
        for mod in (measure, paths, sight, physics, reach):
            for name, obj in vars(mod).items():
                home = getattr(obj, "__module__", "")
                own = home == mod.__name__ or home.startswith(mod.__name__ + ".")  # paths is a package
                if callable(obj) and own and not name.startswith("_") and not isinstance(obj, type):
                    originals[id(obj)] = obj
        wrapped = {k: self._wrap(f) for k, f in originals.items()}
        for modname, mod in list(sys.modules.items()):
            if mod is None or not modname.startswith("skirmish.") or ".battlefield" in modname:
                continue
            for name, obj in list(vars(mod).items()):
                if id(obj) in wrapped and originals[id(obj)] is obj:
                    self._undo.append((mod, name, obj))
                    setattr(mod, name, wrapped[id(obj)])
        for name in ("cover_of", "height_of", "contains", "clear_of_impassable", "piece_at", "with_piece"):
            fn = getattr(Table, name)
            self._undo.append((Table, name, fn))
            setattr(Table, name, self._wrap(fn))

    def uninstall(self) -> None:
        for owner, name, obj in reversed(self._undo):
            setattr(owner, name, obj)
        self._undo.clear()


def split_ms(name: str, games: int = 3) -> dict[str, float]:
    """One heuristic game's ms split four ways (mean of `games` seeds, after a warm-up)."""
    sc, troupes = _setup(name)
    pols = _policies(sc, "heuristic")
    _play(sc, troupes, 0, pols)
    split = _Split()
    split.install()
    try:
        for seed in range(1, games + 1):
            t = time.perf_counter()
            g = Game(sc, troupes, seed=seed, bots=pols, record_log=False, transactional=False)
            split.total["engine"] += time.perf_counter() - t
            bots = seat_bots(g, pols)
            while not g.over:
                bot = bots[g.state.active_player]
                assert bot is not None
                split.who = "bot"
                t = time.perf_counter()
                action = bot.choose(g)
                split.total["bot"] += time.perf_counter() - t
                split.who = "engine"
                t = time.perf_counter()
                g.apply(action)
                split.total["engine"] += time.perf_counter() - t
    finally:
        split.uninstall()
    k = 1000.0 / games
    return {
        "ms_engine_rules": (split.total["engine"] - split.geo["engine"]) * k,
        "ms_engine_geometry": split.geo["engine"] * k,
        "ms_bot_logic": (split.total["bot"] - split.geo["bot"]) * k,
        "ms_bot_geometry": split.geo["bot"] * k,
    }


def legal_actions_ms(games: int = 3) -> dict[str, list[float]]:
    """`legal_actions()` CPU time (process time: a loaded machine inflates wall time, not this)
    at every decision of default heuristic games, by step ("pending" for a pending decision)."""
    sc, troupes = _setup(DEFAULT_SCENARIO)
    pols = _policies(sc, "heuristic")
    _play(sc, troupes, 0, pols)
    times: dict[str, list[float]] = {}
    for seed in range(1, games + 1):
        g = Game(sc, troupes, seed=seed, bots=pols, record_log=False, transactional=False)
        bots = seat_bots(g, pols)
        while not g.over:
            g.moved()  # the per-step geometry as a fresh state sees it
            step = g.state.step if g.state.pending is None else "pending"
            t = time.process_time()
            g.legal_actions()
            times.setdefault(step, []).append((time.process_time() - t) * 1000)
            bot = bots[g.state.active_player]
            assert bot is not None
            g.apply(bot.choose(g))
    return times


def searches_per_game(name: str, policy: str, games: int = 4) -> tuple[float, float]:
    """Path searches run (`_search_now` or `_search_now_flat`: memo misses) and straight-move
    batches checked afresh (`check_straight_moves` behind `battlefield.reach`, or the compiled
    `jit.straight_moves` it asks first) per game: counts, so unlike times they do
    not move with the machine's load, and a change that avoids work shows as a smaller count."""
    import importlib

    counts = {"search": 0, "straight": 0}
    patched: list[tuple[Any, str, Any]] = []

    def counting(owner: Any, attr: str, key: str, *, answered: bool = False) -> None:
        fn = getattr(owner, attr)

        def counted(*args: Any, **kwargs: Any) -> Any:
            answer = fn(*args, **kwargs)
            if not answered or answer is not None:  # None: `jit.straight_moves` left the batch
                counts[key] += 1
            return answer

        patched.append((owner, attr, fn))
        setattr(owner, attr, counted)

    # The games ask `_search_now_flat` since round 8 and check small straight batches in
    # `jit.straight_moves` (round 6): count every entry a tree has, so old and new trees compare.
    for modname in sorted(m for m in sys.modules if m.startswith("skirmish.battlefield.paths")):
        for attr in ("_search_now", "_search_now_flat"):
            if attr in vars(sys.modules[modname]) and modname.endswith(".search"):
                counting(sys.modules[modname], attr, "search")
    reach = importlib.import_module("skirmish.battlefield.reach")
    counting(reach, "check_straight_moves", "straight")
    jit_mod = getattr(reach, "jit", None)
    if jit_mod is not None and hasattr(jit_mod, "straight_moves"):
        counting(jit_mod, "straight_moves", "straight", answered=True)
    sc, troupes = _setup(name)
    pols = _policies(sc, policy)
    try:
        for seed in range(1, games + 1):
            _play(sc, troupes, seed, pols)
    finally:
        for owner, attr, fn in reversed(patched):
            setattr(owner, attr, fn)
    return counts["search"] / games, counts["straight"] / games


def load_compiled() -> dict[str, float]:
    """Load the compiled path finder before any clock starts (steady state: a troupe test pays the
    load once, after its first JIT_AFTER searches): whether it runs, and what loading cost."""
    try:
        from skirmish.battlefield.paths import jit
    except ImportError:  # a tree from before the compiled finder
        return {"speed.compiled_path_search": 0.0}
    cpu = time.process_time()
    on = jit.compiled() is not None
    out = {
        "speed.compiled_path_search": float(on),
        "speed.compiled_path_search_load_ms": (time.process_time() - cpu) * 1000,
    }
    out.update(load_compiled_sight())
    return out


def load_compiled_sight() -> dict[str, float]:
    """Load the compiled sight kernel too (round 6; a troupe test loads it after its first
    EXACT_AFTER exact batches), so that no figure pays its load: 1 when it runs."""
    try:
        from skirmish.battlefield import sight_plain

        return {"speed.compiled_sight": float(sight_plain.compiled(now=True) is not None)}
    except (ImportError, AttributeError, TypeError):  # a tree from before the compiled sight
        return {"speed.compiled_sight": 0.0}


def run() -> dict[str, float]:
    out: dict[str, float] = load_compiled()
    for policy in ("heuristic", "random"):
        searches, straights = searches_per_game(DEFAULT_SCENARIO, policy)
        out[f"speed.{DEFAULT_SCENARIO}.{policy}_path_searches_per_game"] = searches
        out[f"speed.{DEFAULT_SCENARIO}.{policy}_straight_checks_per_game"] = straights
    for name in SCENARIOS:
        for policy in ("heuristic", "random"):
            wall, cpu = games_per_second(name, policy)
            out[f"speed.{name}.{policy}_gps"] = wall
            out[f"speed.{name}.{policy}_cpu_gps"] = cpu
        for key, value in split_ms(name, 2 if name != DEFAULT_SCENARIO else 4).items():
            out[f"speed.{name}.{key}"] = value
    for suffix in ("heuristic_gps", "random_gps", "heuristic_cpu_gps", "random_cpu_gps"):
        out[f"speed_min_{suffix}"] = min(v for k, v in out.items() if k.endswith("." + suffix))
    by_step = legal_actions_ms()
    la = [t for ts in by_step.values() for t in ts]
    out["legal_actions_calls"] = float(len(la))
    out["legal_actions_median_ms"] = statistics.median(la)
    out["legal_actions_p90_ms"] = statistics.quantiles(la, n=10)[-1]
    out["legal_actions_max_ms"] = max(la)
    for step, ts in sorted(by_step.items()):
        out[f"legal_actions.{step}.median_ms"] = statistics.median(ts)
    out["legal_actions_worst_step_median_ms"] = max(statistics.median(ts) for ts in by_step.values())
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=1))
