"""R-C3 (exact shortest path), compiled: `paths.jit` runs the path finder's A* with numba, and every
answer must be the Python reference's bit for bit (`search._astar` and the kernels it calls), or
replays recorded with numba installed would not re-simulate without it (R-T1: the replay is the
game). Each compiled function is held to its reference on random tables, on the shipped boards
and at the boundary; CPython's `math.hypot` replica on a million values; and games played
without numba (`SKIRMISH_NO_JIT=1`, in a fresh interpreter) to the same bytes as games played
with it, the golden replays included.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths import Mover, _violations, jit
from skirmish.battlefield.paths.kernel import _point_near, _seg_clear
from skirmish.battlefield.paths.obstacles import BOX_SLACK, _Obstacles
from skirmish.battlefield.paths.search import _astar, _graph_numpy, _graph_py, _search_now
from skirmish.battlefield.paths.tangents import ARC_TOL, _arc, _discs, _point_tangents_py
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.table import Table

pytest.importorskip("numba")
if jit.compiled() is None:  # numba installed, but SKIRMISH_NO_JIT=1 or the start-up check failed
    pytest.skip("the compiled path finder is off here", allow_module_level=True)

from skirmish.battlefield.paths.jit import hypot as jhypot  # noqa: E402
from skirmish.battlefield.paths.jit import kernel as jk  # noqa: E402
from skirmish.battlefield.paths.jit import search as js  # noqa: E402

pytestmark = pytest.mark.rule("R-C3")


def setting(seed: int, pieces: int = 6) -> tuple[np.random.Generator, Table, np.ndarray, _Obstacles]:
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=pieces)
    radii = rng.choice([0.5, 0.8, 1.2], 8)
    xy = scatter_bases(t, rng, radii)
    return rng, t, xy, Mover(t, 0, xy, radii, np.arange(8) >= 4).obstacles(xy[0])


def selection(rng: np.random.Generator, obs: _Obstacles) -> tuple[np.ndarray, np.ndarray]:
    nb, npc = len(obs.centres), len(obs.polys)
    inc_b = np.sort(rng.choice(nb, int(rng.integers(0, nb + 1)), replace=False)).astype(np.int64)
    inc_t = np.sort(rng.choice(npc, int(rng.integers(0, npc + 1)), replace=False)).astype(np.int64)
    return inc_b, inc_t


def near_points(rng: np.random.Generator, t: Table, obs: _Obstacles) -> np.ndarray:
    """Anywhere, and at, 1e-12 inside and 1e-12 outside each clearance and each edge's offset."""
    pts = [*rng.uniform((0, 0), (t.width, t.height), (40, 2))]
    for c, lim in zip(obs.centres, obs.lim, strict=True):
        for a in rng.uniform(0, 2 * np.pi, 2):
            for eps in (-1e-12, 0.0, 1e-12):
                pts.append(c + (lim + eps) * np.array([math.cos(a), math.sin(a)]))
    for e in t.imp_edges[rng.integers(0, max(len(t.imp_edges), 1), min(len(t.imp_edges), 12))]:
        d = e[1] - e[0]
        nrm = np.array([-d[1], d[0]]) / math.hypot(*d)
        for eps in (-1e-12, 0.0, 1e-12):
            pts.append(e[0] + rng.uniform(-0.1, 1.1) * d + nrm * (obs.tlim + eps))
    return np.array(pts)


def test_the_hypot_replica_is_math_hypot_on_a_million_values() -> None:
    """CPython's hypot (not the C library's) on the game's ranges, wide and tiny magnitudes,
    subnormals, zeros, infinities, NaN and random bit patterns."""
    rng = np.random.default_rng(15)
    n = 200_000
    e = rng.integers(-1074, 1024, (2, n))
    cases = [
        rng.uniform(-48, 48, (2, n)),
        rng.uniform(0, 1, (2, n)),
        np.ldexp(rng.uniform(-2, 2, (2, n)), e),
        np.ldexp(rng.uniform(1, 2, (2, n)), rng.integers(-1074, -1000, (2, n))),
        rng.integers(-(2**63), 2**63 - 1, (2, n), dtype=np.int64).view(np.float64),
    ]
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1e-310, 1.7976931348623157e308, 3.0])
    gx, gy = np.meshgrid(special, special)
    cases.append(np.stack([gx.ravel(), gy.ravel()]))
    for x, y in cases:
        got = jk.probe(x, y)[0]
        want = np.fromiter(map(math.hypot, x.tolist(), y.tolist()), dtype=float, count=len(x))
        assert got.tobytes() == want.tobytes()
    expected = "3.11" if sys.version_info[:2] == (3, 11) else "3.12"
    assert expected == jhypot.VARIANT


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_compiled_segment_and_point_tests_are_the_kernels(seed: int) -> None:
    """`seg_clear` and `point_near` answer `_seg_clear` and `_point_near` on any selection, at the
    boundary; without end-point distances, `point_near` answers numpy `_violations` on points."""
    rng, t, _, obs = setting(seed, pieces=int(np.random.default_rng(seed).integers(0, 10)))
    p = near_points(rng, t, obs)
    i, j = rng.integers(0, len(p), 120), rng.integers(0, len(p), 120)
    bases, pieces = obs.bases_py(), obs.kern.py
    tl, tl2 = obs.tlim + BOX_SLACK, obs.tlim2
    for _ in range(3):
        inc_b, inc_t = selection(rng, obs)
        sel_b, sel_p = [bases[k] for k in inc_b.tolist()], [pieces[k] for k in inc_t.tolist()]
        arr = jit.arrays(obs, inc_b, inc_t)
        for eo in (False, True):
            for (x0, y0), (x1, y1) in zip(p[i].tolist(), p[j].tolist(), strict=True):
                assert jk.seg_clear(x0, y0, x1, y1, *arr, tl, tl2, eo) == _seg_clear(
                    x0, y0, x1, y1, sel_b, sel_p, tl, tl2, eo
                )
            for x, y in p.tolist():
                assert jk.point_near(x, y, *arr, tl, tl2, eo, True) == _point_near(
                    x, y, sel_b, sel_p, tl, tl2, eo
                )
        many = np.repeat(p, 1 + 300 // max(len(inc_b) + len(inc_t), 1), axis=0)  # numpy's turn
        bad_b, bad_t = _violations(obs, many, many, inc_b, inc_t)
        want = (bad_b.any(axis=1) | bad_t.any(axis=1)).tolist()
        got = [jk.point_near(x, y, *arr, tl, tl2, False, False) for x, y in many.tolist()]
        assert got == want


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_c3_compiled_tangents_arcs_and_graphs_are_the_same_bytes(seed: int) -> None:
    rng, t, xy, obs = setting(seed)
    inc_b, inc_t = selection(rng, obs)
    cx, cy, rad = _discs(t, obs, inc_b, inc_t)
    # Arbitrary circles too: overlapping, nested and repeated (no common tangents).
    k = int(rng.integers(1, 14))
    ax, ay, ar = rng.uniform(0, t.width, k), rng.uniform(0, t.height, k), rng.uniform(0.3, 3.0, k)
    ax[-1], ay[-1] = ax[0], ay[0]
    arr = jit.arrays(obs, inc_b, inc_t)
    lo = obs.radius - 1e-9
    for ccx, ccy, crad in ((cx, cy, rad), (ax, ay, ar)):
        starts = [xy[0], rng.uniform(0, t.width, 2)]
        if len(ccx):
            starts.append(np.array([ccx[0] + crad[0], ccy[0]]))  # on a circle: a node of it
        for s in starts:
            px, py = float(s[0]), float(s[1])
            want = _point_tangents_py(px, py, ccx.tolist(), ccy.tolist(), crad.tolist())
            got = jk.point_tangents(px, py, ccx, ccy, crad)
            for a, b in zip(got, want, strict=True):
                assert np.asarray(b, dtype=a.dtype).tobytes() == a.tobytes()
            for g in (xy[1], rng.uniform(0, t.width, 2)):
                args = (t, obs, ccx, ccy, crad, px, py, float(g[0]), float(g[1]), inc_b, inc_t)
                want_g = (_graph_py if len(ccx) <= 10 else _graph_numpy)(*args)
                got_g = js.graph(
                    ccx, ccy, crad, px, py, float(g[0]), float(g[1]), *arr, obs.tlim + BOX_SLACK,
                    obs.tlim2, lo, t.width - lo, t.height - lo, jit.BLOCKED_SMALL,
                )  # fmt: skip
                for a, b in zip(got_g, want_g, strict=True):
                    assert np.array(b).tobytes() == a.tobytes()
    for _ in range(40):
        c = rng.uniform(0, 48, 2).tolist()
        r, a0, sweep = float(rng.uniform(0.3, 3)), float(rng.uniform(-4, 4)), float(rng.uniform(0, 7))
        turn = int(rng.choice([-1, 1]))
        sweep = sweep if rng.random() < 0.9 else float(rng.choice([0.0, 1e-12, 2e-12]))
        want_a = np.array(_arc(c[0], c[1], r, a0, sweep, turn, (c[0] + r, c[1])))
        assert jk.arc(c[0], c[1], r, a0, sweep, turn, c[0] + r, c[1], ARC_TOL).tobytes() == want_a.tobytes()


def same_path(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and a.tobytes() == b.tobytes()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_c3_compiled_astar_finds_the_references_paths(seed: int) -> None:
    """The whole search: any selection of obstacles, goal points and goal discs with their
    ring of end points, reachable or not."""
    rng, t, xy, obs = setting(seed, pieces=int(np.random.default_rng(seed).integers(0, 8)))
    for _ in range(4):
        inc_b, inc_t = selection(rng, obs)
        start = xy[0]
        centre = xy[int(rng.integers(1, 8))] if rng.random() < 0.5 else rng.uniform(0, t.width, 2)
        goal_r = float(rng.choice([0.0, 0.0, 1.0, 2.3]))
        ring = np.empty((0, 2))
        if goal_r > 0:
            ang = np.arange(24) * (2 * math.pi / 24)
            ring = centre + goal_r * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
            ring = ring[rng.random(24) < 0.7]
        args = (t, obs, start, centre, goal_r, inc_b, inc_t, ring)
        assert same_path(jit.astar(*args), _astar(*args))


SCENARIOS = [
    "open_battle",
    "four_kingdoms_melee",
    "siege_of_ba_sing_se",
    "hold_the_zones",
    "escort_the_avatar",
]


@pytest.mark.parametrize("name", SCENARIOS)
def test_r_c3_compiled_search_on_the_shipped_boards(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole searches (the lazy loop adding obstacles round by round) on the shipped boards, from
    many positions, compiled and not: the same paths."""
    from skirmish.data.catalogue import find_scenario

    t = Table.from_scenario(find_scenario(name))
    rng = np.random.default_rng(len(name))
    for _ in range(6):
        radii = rng.choice([0.5, 0.8, 1.2], 12)
        xy = scatter_bases(t, rng, radii)
        obs = Mover(t, 0, xy, radii, np.arange(12) >= 6).obstacles(xy[0])
        for _ in range(5):
            goal = rng.uniform((0, 0), (t.width, t.height))
            for goal_r in (0.0, 1.5):
                paths = []
                for on in (True, False):
                    monkeypatch.setattr(jit, "enabled", lambda on=on: on)
                    paths.append(_search_now(t, obs, xy[0], goal, goal_r, [], set()))
                assert same_path(*paths)


_DRIVER = r"""
import hashlib, json, sys
from pathlib import Path
from skirmish.battlefield.paths import jit
from skirmish.bots.runner import play_out, seat_bots
from skirmish.data.catalogue import find_scenario, find_troupe
from skirmish.engine.game import Game
from skirmish.engine.replay import dumps, load_replay, verify
games, golden = json.loads(sys.argv[1]), Path(sys.argv[2])
jit.JIT_AFTER = 0  # compiled from the first search (when not switched off)
out = {"jit": jit.compiled() is not None, "games": [], "golden": []}
for name, policy, seed in games:
    sc = find_scenario(name)
    g = Game(sc, [find_troupe(s.troupe) for s in sc.sides], seed=seed, bots=[policy] * len(sc.sides))
    play_out(g, seat_bots(g, [policy] * len(sc.sides)))
    out["games"].append(hashlib.sha256(dumps(g).encode()).hexdigest())
for path in sorted(golden.glob("*.json")):
    out["golden"].append([path.name, verify(load_replay(path))[0]])
print(json.dumps(out))
"""

GAMES = [
    ("open_battle", "random", 2),
    ("four_kingdoms_melee", "heuristic", 3),
    ("siege_of_ba_sing_se", "random", 1),
]


def _run(no_jit: bool) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop(jit.OFF, None)
    if no_jit:
        env[jit.OFF] = "1"
    golden = Path(__file__).resolve().parent / "golden"
    out = subprocess.run(
        [sys.executable, "-c", _DRIVER, json.dumps(GAMES), str(golden)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_r_t1_games_without_numba_are_the_same_bytes_as_with_it() -> None:
    """The fallback stays covered: the reference (SKIRMISH_NO_JIT=1) plays the same games to the
    same bytes as the compiled finder (on from the first search), and re-simulates every golden
    replay."""
    off, on = _run(True), _run(False)
    assert off["jit"] is False and on["jit"] is True
    assert off["games"] == on["games"]
    assert off["golden"] and all(ok for _, ok in off["golden"])
    assert off["golden"] == on["golden"]
    assert all(len(h) == len(hashlib.sha256().hexdigest()) for h in on["games"])


def test_numba_is_loaded_only_after_the_first_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process runs its first JIT_AFTER searches with the reference (loading numba costs about
    what that many compiled searches save), then compiled."""
    monkeypatch.setattr(jit, "_LOADED", [])
    monkeypatch.setattr(jit, "_SEARCHES", [0])
    monkeypatch.setattr(jit, "JIT_AFTER", 3)
    assert [jit.enabled() for _ in range(5)] == [False, False, False, True, True]


def test_a_failing_compiled_search_falls_back_to_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the compiled code fail (a broken cache), the search answers with the reference,
    and the reference runs from then on."""
    rng, t, xy, obs = setting(3)
    args = (t, obs, xy[0], xy[1], 1.0, np.arange(3), np.empty(0, dtype=np.int64), np.empty((0, 2)))

    def broken(*_: object) -> None:
        raise SystemError("returned a result with an exception set")

    monkeypatch.setattr(jit, "_LOADED", [js])
    monkeypatch.setattr(jit, "astar", broken)
    assert same_path(jit.run(jit.astar, _astar, *args), _astar(*args))
    assert jit._LOADED == [None] and not jit.enabled()


def test_an_edited_compiled_module_empties_the_numba_cache(tmp_path: Path) -> None:
    """numba re-checks only the timestamp of a function's own file, and `astar` inlines `kernel`
    and `hypot`: an edit of either must drop the cached machine code, and an unchanged tree must
    keep it (a fresh process only loads it)."""
    from skirmish.battlefield.paths import jit

    for name in jit.SOURCES:
        (tmp_path / name).write_text(f"# {name}\n", encoding="utf-8")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    (cache / "search.astar-1.py311.nbi").write_bytes(b"old index")
    (cache / "search.astar-1.py311.1.nbc").write_bytes(b"old code")
    (cache / "other.cpython-311.pyc").write_bytes(b"bytecode")
    jit._drop_stale_cache(tmp_path)  # no stamp yet: whatever is there may be stale
    assert sorted(p.name for p in cache.iterdir()) == ["other.cpython-311.pyc", "skirmish-jit-sources.sha256"]
    (cache / "search.astar-1.py311.nbi").write_bytes(b"fresh index")
    jit._drop_stale_cache(tmp_path)  # nothing changed: the cache stays
    assert (cache / "search.astar-1.py311.nbi").exists()
    (tmp_path / "kernel.py").write_text("# kernel.py, edited\n", encoding="utf-8")
    jit._drop_stale_cache(tmp_path)  # kernel.py changed: astar's cached code is stale
    assert not (cache / "search.astar-1.py311.nbi").exists()
    jit._drop_stale_cache(tmp_path / "missing")  # nowhere to look: nothing happens, no error
