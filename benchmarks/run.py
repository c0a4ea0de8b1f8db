#!/usr/bin/env python3
"""Run every benchmark module and print the merged figures (`--json`: one JSON object).

The benchmarks are a registry: each area owns `benchmarks/bench_<area>.py` exposing
`run() -> dict[str, float]`. This runner imports them all (sorted by file name), calls `run()`
and merges the results. A module that fails to import or to run does not stop the others: it
shows up as `"<module>_error": "<Type>: <message>"` so a broken area is visible, not fatal.

    python benchmarks/run.py --json                 # everything, one JSON object
    python benchmarks/run.py --only rules --only ui # just bench_rules.py and bench_ui.py
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
    args = parser.parse_args(argv)
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
