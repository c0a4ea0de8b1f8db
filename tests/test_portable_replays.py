"""Same seed, same bytes, on any machine (design: determinism): a game's replay must not depend on
which vector extensions numpy picks at run time or which BLAS kernel OpenBLAS picks, so a replay
recorded on one machine re-simulates on another (R-T1: the replay is the game).

Each case plays the same bot games in a fresh interpreter with numpy's AVX-512 loops turned off
(`NPY_DISABLE_CPU_FEATURES`) and OpenBLAS pinned to an older kernel (`OPENBLAS_CORETYPE`), and
compares the replays' hashes with the same games played here. Before `battlefield.portable`, an
AVX-512 machine gave different paths (last bits of `arctan2`, `arccos`, `arcsin`) for every game.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from skirmish.battlefield import portable

_DRIVER = r"""
import hashlib, json, sys
from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game
from skirmish.engine.replay import dumps
out = []
for name, policy, seed in json.loads(sys.argv[1]):
    sc = find_scenario(name)
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    pols = [side.bot or policy for side in sc.sides] if policy == "heuristic" else [policy] * len(sc.sides)
    g = Game(sc, troupes, seed=seed, bots=pols)
    play_out(g, seat_bots(g, pols))
    out.append(hashlib.sha256(dumps(g).encode()).hexdigest())
print(json.dumps(out))
"""

GAMES = [
    ("open_battle", "heuristic", 1),
    ("open_battle", "random", 2),
    ("four_kingdoms_melee", "heuristic", 3),
    ("siege_of_ba_sing_se", "heuristic", 1),
]

ENVIRONMENTS = {
    "numpy_without_avx512": {"NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL"},
    "openblas_sandybridge": {"OPENBLAS_CORETYPE": "Sandybridge"},
}


def _hashes(extra: dict[str, str]) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": "0", **extra}
    out = subprocess.run(
        [sys.executable, "-c", _DRIVER, json.dumps(GAMES)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    hashes: list[str] = json.loads(out.stdout.strip().splitlines()[-1])
    return hashes


@pytest.fixture(scope="module")
def here() -> list[str]:
    return _hashes({})


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_r_t1_replays_do_not_depend_on_the_cpu_dispatch(name: str, here: list[str]) -> None:
    assert _hashes(ENVIRONMENTS[name]) == here


def test_portable_functions_are_the_c_librarys_per_element() -> None:
    rng = np.random.default_rng(7)
    x = rng.uniform(-40, 40, 500)
    y = rng.uniform(-40, 40, 500)
    u = rng.uniform(-1, 1, 500)
    assert portable.cos(x).tolist() == [math.cos(v) for v in x.tolist()]
    assert portable.sin(x).tolist() == [math.sin(v) for v in x.tolist()]
    assert portable.arccos(u).tolist() == [math.acos(v) for v in u.tolist()]
    assert portable.arcsin(u).tolist() == [math.asin(v) for v in u.tolist()]
    assert portable.arctan2(y, x).tolist() == [
        math.atan2(a, b) for a, b in zip(y.tolist(), x.tolist(), strict=True)
    ]
    assert portable.arctan2(y[:, None], x[None, :3]).shape == (500, 3)
    w = np.stack([x, y], axis=-1)
    assert portable.dot2(w, np.array([0.6, 0.8])).tolist() == [a * 0.6 + b * 0.8 for a, b in w.tolist()]
