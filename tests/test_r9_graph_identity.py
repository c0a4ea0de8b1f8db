"""Round 9 (issue 15, speed): the compiled path finder's cheaper calls give the same answers bit for
bit (R-C3; R-T1: a replay re-simulates only if every search answers the same with numba or
without). The A* heap is one array of entries (`search._hpush` / `_hpop`) and the graph's node
test one batched call (`kernel.nodes_legal`), so their calls take fewer numba reference counts;
these hold them to `heapq`, to `point_near` point by point, and whole searches (probes and
included bases too) to the Python reference on crowded random tables, where the lazy rounds
grow the graph past BLOCKED_SMALL (point, obstacle) pairs and switch its point test.
"""

from __future__ import annotations

import functools
import heapq

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths import Mover, jit, search
from skirmish.battlefield.paths.kernel import BLOCKED_SMALL
from skirmish.battlefield.paths.obstacles import BOX_SLACK, _Obstacles
from skirmish.battlefield.paths.search import _search_py, ring_unit
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.table import Table

pytest.importorskip("numba")
if jit.compiled() is None:  # numba installed, but SKIRMISH_NO_JIT=1 or the start-up check failed
    pytest.skip("the compiled path finder is off here", allow_module_level=True)

from skirmish.battlefield.paths.jit import kernel as jk  # noqa: E402
from skirmish.battlefield.paths.jit import search as js  # noqa: E402

pytestmark = pytest.mark.rule("R-C3")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r9_graph_heap_pops_what_heapq_pops(seed: int) -> None:
    """Entries (f, v, u, turn, c) with ties in every item (and 0.0 against -0.0), pushed and
    popped interleaved: `_hpop` gives heapq's entries in heapq's order, the same bytes."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    f = rng.choice([0.0, -0.0, 1.0, 1.5, 2.0], n)
    c = rng.choice([0.0, -0.0, 0.5, 1.0], n)
    ints = rng.integers(-1, 3, (n, 3))
    heap, size = np.empty((n, 5)), 0
    ref: list[tuple[float, int, int, int, float]] = []
    got, want = [], []
    for e in range(n):
        v, u, turn = ints[e].tolist()
        js._hpush(heap, size, float(f[e]), v, u, turn, float(c[e]))
        size += 1
        heapq.heappush(ref, (float(f[e]), v, u, turn, float(c[e])))
        while size and (rng.random() < 0.4 or e == n - 1):
            got.append(js._hpop(heap, size))
            size -= 1
            want.append(heapq.heappop(ref))
    assert not ref
    assert [np.array(g).tobytes() for g in got] == [np.array(w).tobytes() for w in want]
    assert [tuple(map(type, g)) for g in got] == [(float, int, int, int, float)] * len(got)


def crowded(seed: int, bases: int = 0) -> tuple[np.random.Generator, Table, np.ndarray, _Obstacles]:
    """A random table with up to 10 pieces and 10-20 bases (the mover is base 0), or with 10
    pieces and `bases` bases."""
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=10 if bases else int(rng.integers(0, 11)))
    n = bases or int(rng.integers(10, 21))
    radii = rng.choice([0.5, 0.8, 1.2], n)
    xy = scatter_bases(t, rng, radii)
    return rng, t, xy, Mover(t, 0, xy, radii, np.arange(n) >= n // 2).obstacles(xy[0])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r9_graph_nodes_legal_is_point_near_point_by_point(seed: int) -> None:
    """The batched node test answers what the graph's loop of `point_near` calls answered: each
    point on the table and clear of the selection (with or without end-point distances), a
    bitangent's two ends kept together; points on the boundaries of clearances included."""
    rng, t, _, obs = crowded(seed)
    nb, npc = len(obs.centres), len(obs.polys)
    inc_b = np.flatnonzero(rng.random(nb) < 0.6).astype(np.int64)
    inc_t = np.flatnonzero(rng.random(npc) < 0.7).astype(np.int64)
    arr = jit.arrays(obs, inc_b, inc_t)
    tl, tl2 = obs.tlim + BOX_SLACK, obs.tlim2
    lo = obs.radius - 1e-9
    hx, hy = t.width - lo, t.height - lo
    pts = [rng.uniform((-1, -1), (t.width + 1, t.height + 1), (200, 2))]
    for j in inc_b.tolist():  # at the clearance, 1e-12 inside and outside
        a = rng.uniform(0, 2 * np.pi, 4)
        for eps in (-1e-12, 0.0, 1e-12):
            d = obs.lim[j] + eps
            pts.append(obs.centres[j] + d * np.stack([np.cos(a), np.sin(a)], axis=-1))
    p = np.concatenate(pts)
    p = p[rng.permutation(len(p))]
    m = len(p)
    nt = int(rng.integers(0, m // 2 + 1))
    xs, ys = np.ascontiguousarray(p[:, 0]), np.ascontiguousarray(p[:, 1])
    for ends in (True, False):
        one = []
        for x, y in p.tolist():
            off = x < lo or x > hx or y < lo or y > hy
            one.append(not off and not jk.point_near(x, y, *arr, tl, tl2, False, ends))
        for q in range(nt):
            one[q] = one[nt + q] = one[q] and one[nt + q]
        ok = np.empty(m, dtype=np.bool_)
        jk.nodes_legal(xs, ys, nt, m, ok, lo, hx, hy, *arr, tl, tl2, ends)
        assert ok.tolist() == one


def same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def search_both(seed: int, bases: int = 0) -> None:
    """Four searches from base 0 of `crowded(seed, bases)`, compiled and reference: the same
    path, probes and included bases (with `bases`, toward the far side of the table)."""
    rng, t, xy, obs = crowded(seed, bases)
    for _ in range(4):
        far = rng.random() < 0.5
        centre = rng.uniform((0, 0), (t.width, t.height)) if far else xy[int(rng.integers(1, len(xy)))]
        if bases:
            centre = np.clip(np.array([t.width, t.height]) - xy[0] + rng.uniform(-3, 3, 2), 1, t.width - 1)
        goal_r = float(rng.choice([0.0, 0.0, 1.0, 2.3]))
        start = xy[0]
        want_p: list[tuple[float, float, float, float]] = []
        want_i: set[int] = set()
        want = _search_py(t, obs, start, centre, goal_r, want_p, want_i)
        got_p: list[tuple[float, float, float, float]] = []
        got_i: set[int] = set()

        reference = functools.partial(_search_py, t, obs, start, centre, goal_r, got_p, got_i)
        got = jit.search_now(t, obs, start, centre, goal_r, ring_unit(), got_p, got_i, reference)
        assert same(got, want)
        assert np.array(got_p).tobytes() == np.array(want_p).tobytes()
        assert got_i == want_i


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r9_graph_compiled_search_is_the_reference_with_its_probes_and_bases(seed: int) -> None:
    """Whole searches on crowded tables (many lazy rounds): `jit.search_now` returns the
    reference's path and appends its probes and included bases."""
    search_both(seed)


def test_r9_graph_searches_whose_graphs_take_the_numpy_point_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded crowded tables on which the reference judged some graph's nodes with numpy's point
    test (more than BLOCKED_SMALL point-obstacle pairs: no end-point distances), so the compiled
    node test's second variant is held to it too."""
    big = [0]
    legal = search._legal_points

    def counted(table, obs, pts, inc_b=None, inc_t=None):  # type: ignore[no-untyped-def]
        if inc_b is not None and inc_t is not None and len(pts) * (len(inc_b) + len(inc_t)) > BLOCKED_SMALL:
            big[0] += 1
        return legal(table, obs, pts) if inc_b is None else legal(table, obs, pts, inc_b, inc_t)

    monkeypatch.setattr(search, "_legal_points", counted)
    for seed in range(8, 12):
        search_both(seed, bases=30)
    assert big[0] >= 3
