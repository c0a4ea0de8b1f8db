#!/usr/bin/env python3
"""Run every benchmark module and print the merged figures (`--json`: one JSON object).

The benchmarks are a registry: each area owns `benchmarks/bench_<area>.py` exposing
`run() -> dict[str, float]`. This runner imports them all (sorted by file name), calls `run()`
and merges the results. A module that fails to import or to run does not stop the others: it
shows up as `"<module>_error": "<Type>: <message>"` so a broken area is visible, not fatal.

    python benchmarks/run.py --json                 # everything, one JSON object
    python benchmarks/run.py --only rules --only ui # just bench_rules.py and bench_ui.py
    python benchmarks/run.py --ab /path/to/main /path/to/branch --rounds 7 --json

`--ab A B` compares two source trees on this machine, interleaved: each round runs the same
small driver (default-scenario heuristic and random games per second in one process, replay
verification ms) once with `PYTHONPATH=A` and once with `PYTHONPATH=B`, alternating which goes
first, and reports each tree's medians, the median of the per-round ratios B/A and their spread
(min-max), so a loaded machine shows up as spread rather than as a false speed-up. `*_cpu_gps`
are games per second of process CPU time, which a loaded machine disturbs far less than wall time.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent


def discover(only: list[str] | None = None) -> list[Path]:
    """The benchmark modules, sorted by name; `only` keeps the areas named (`rules` = bench_rules.py)."""
    paths = sorted(HERE.glob("bench_*.py"))
    if only:
        wanted = {name.removeprefix("bench_").removesuffix(".py") for name in only}
        paths = [p for p in paths if p.stem.removeprefix("bench_") in wanted]
    return paths


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"benchmarks.{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path.name}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _clean(value: Any) -> Any:
    """JSON has no NaN or infinity: report them as strings rather than emit invalid JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)
    return value


def _one_line(exc: BaseException) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text[:500]


def run_all(only: list[str] | None = None, verbose: bool = False) -> dict[str, Any]:
    """Import and run each module; merge results; record failures as `<module>_error`."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))  # benchmark modules may share helpers
    merged: dict[str, Any] = {}
    for path in discover(only):
        name = path.stem
        started = time.perf_counter()
        try:
            module = _load(path)
            runner = getattr(module, "run", None)
            if not callable(runner):
                raise TypeError(f"{path.name} has no run() function")
            result = runner()
            if not isinstance(result, dict):
                raise TypeError(f"run() returned {type(result).__name__}, not a dict")
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - one failing area must not hide the others
            merged[f"{name}_error"] = _one_line(exc)
            if verbose:
                traceback.print_exc(file=sys.stderr)
            continue
        for key, value in result.items():
            out_key = str(key) if str(key) not in merged else f"{name}.{key}"
            merged[out_key] = _clean(value)
        if verbose:
            print(f"{path.name}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return merged


_AB_DRIVER = r"""
import json, statistics, sys, time
from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import DEFAULT_SCENARIO, find_scenario, find_troupe
from skirmish.engine.game import Game
from skirmish.engine.replay import parse_replay, replay_of, verify
games = int(sys.argv[1])
sc = find_scenario(DEFAULT_SCENARIO)
tr = [find_troupe(s.troupe) for s in sc.sides]
def play(seed, pols, log=False):
    g = Game(sc, tr, seed=seed, bots=pols, record_log=log, transactional=False)
    return play_out(g, seat_bots(g, pols))
out = {}
try:  # steady state: a tree with the compiled path finder loads it before the clock starts
    from skirmish.battlefield.paths import jit
    out["jit"] = float(jit.compiled() is not None)
except ImportError:
    out["jit"] = 0.0
try:  # and the compiled sight kernel (round 6), which a long run loads after its first exact batches
    from skirmish.battlefield import sight_plain
    out["sight_jit"] = float(sight_plain.compiled(now=True) is not None)
except (ImportError, AttributeError, TypeError):
    out["sight_jit"] = 0.0
for pol in ("heuristic", "random"):
    play(0, [pol, pol])
    t = time.perf_counter()
    c = time.process_time()
    for seed in range(1, games + 1):
        play(seed, [pol, pol])
    out[pol + "_gps"] = games / (time.perf_counter() - t)
    out[pol + "_cpu_gps"] = games / (time.process_time() - c)
rep = parse_replay(replay_of(play(11, ["heuristic", "heuristic"], True)), "<ab>")
ts = []
for _ in range(5):
    t = time.perf_counter(); verify(rep); ts.append((time.perf_counter() - t) * 1000)
out["replay_verify_ms"] = statistics.median(ts)
import skirmish
out["tree"] = skirmish.__file__
print(json.dumps(out))
"""


def ab_compare(tree_a: str, tree_b: str, rounds: int, games: int) -> dict[str, Any]:
    """Interleaved A/B runs of `_AB_DRIVER` in fresh interpreters, one per tree per round."""
    import os
    import statistics
    import subprocess

    runs: dict[str, list[dict[str, float]]] = {"a": [], "b": []}
    for r in range(rounds):
        order = (("a", tree_a), ("b", tree_b)) if r % 2 == 0 else (("b", tree_b), ("a", tree_a))
        for key, tree in order:
            root = str(Path(tree).resolve())
            env = dict(os.environ, PYTHONPATH=root, PYTHONHASHSEED="0")
            cmd = [sys.executable, "-c", _AB_DRIVER, str(games)]
            # Run inside the tree: `python -c` puts the working directory first on sys.path, so
            # run from another checkout it would import that checkout, not `tree`.
            done = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True, check=True)
            runs[key].append(json.loads(done.stdout.strip().splitlines()[-1]))
    out: dict[str, Any] = {"ab_rounds": rounds, "ab_games_per_round": games, "ab_a": tree_a, "ab_b": tree_b}
    for key, tree in (("a", tree_a), ("b", tree_b)):
        want = Path(tree).resolve()
        got = {Path(x.pop("tree")).resolve() for x in runs[key]}
        if got != {want / "skirmish" / "__init__.py"}:
            raise RuntimeError(f"the A/B driver for {tree} imported {sorted(map(str, got))}")
    for metric in runs["a"][0]:
        a = [x[metric] for x in runs["a"]]
        b = [x[metric] for x in runs["b"]]
        out[f"ab_a_{metric}_median"] = statistics.median(a)
        out[f"ab_b_{metric}_median"] = statistics.median(b)
        if not all(a):  # a flag (`jit`: whether the compiled path finder ran), not a speed
            continue
        ratios = [y / x for x, y in zip(a, b, strict=True)]
        out[f"ab_{metric}_ratio_b_over_a_median"] = statistics.median(ratios)
        out[f"ab_{metric}_ratio_min"] = min(ratios)
        out[f"ab_{metric}_ratio_max"] = max(ratios)
    return out


def _fmt(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int) or value.is_integer() and abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:,.3f}" if abs(value) < 1000 else f"{value:,.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", action="append", metavar="AREA", help="run only bench_AREA.py (repeatable)")
    parser.add_argument("--verbose", action="store_true", help="timings and tracebacks on stderr")
    parser.add_argument("--strict", action="store_true", help="exit 1 if any module failed")
    parser.add_argument("--ab", nargs=2, metavar=("TREE_A", "TREE_B"), help="interleaved A/B of two trees")
    parser.add_argument("--rounds", type=int, default=5, help="A/B rounds (default 5)")
    parser.add_argument("--ab-games", type=int, default=10, help="games per policy per A/B run (default 10)")
    args = parser.parse_args(argv)
    if args.ab:
        results = ab_compare(args.ab[0], args.ab[1], args.rounds, args.ab_games)
    else:
        results = run_all(args.only, args.verbose)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        width = max((len(k) for k in results), default=0)
        for key, value in results.items():
            print(f"{key.ljust(width)}  {_fmt(value)}")
    failed = any(k.endswith("_error") for k in results)
    return 1 if (args.strict and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
