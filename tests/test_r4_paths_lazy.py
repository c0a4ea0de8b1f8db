"""R-C3 (exact shortest path), compiled whole: `jit.search_now` runs the search's lazy loop (the
straight first try, the goal and ring points, every A* round and the check of the left-out
obstacles) in one numba call. Its path, and the probes and included bases the search memo keeps
to reuse answers (`search._SearchRecord`), must be the Python reference's (`search._search_py`)
exactly, on random tables and on the shipped boards, or replays and memo hits would move.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths import Mover, check_straight_moves, jit
from skirmish.battlefield.paths.check import STRAIGHT_SMALL
from skirmish.battlefield.paths.obstacles import _Obstacles
from skirmish.battlefield.paths.search import _search_now, _search_py, ring_unit
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.table import Table

pytest.importorskip("numba")
if jit.compiled() is None:  # numba installed, but SKIRMISH_NO_JIT=1 or the start-up check failed
    pytest.skip("the compiled path finder is off here", allow_module_level=True)

pytestmark = pytest.mark.rule("R-C3")


def both(
    t: Table, obs: _Obstacles, start: np.ndarray, goal: np.ndarray, goal_r: float
) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """(path bytes, probes, included) from the reference and from the compiled search (whose
    reference, for a flyer's round ending where it may not land, is counted in `REFERRED`)."""
    out = []
    for compiled in (False, True):
        probes: list[tuple[float, float, float, float]] = []
        included: set[int] = set()
        question = (t, obs, start, goal, goal_r)
        if compiled:
            reference = functools.partial(_referred, question, probes, included)
            path = jit.search_now(*question, ring_unit(), probes, included, reference)
        else:
            path = _search_py(*question, probes, included)
        shape = None if path is None else (path.shape, path.tobytes())
        out.append((shape, np.array(probes, dtype=float).tobytes(), len(probes), sorted(included)))
    return out[0], out[1]


REFERRED: list[int] = []


def _referred(
    question: tuple[Table, _Obstacles, np.ndarray, np.ndarray, float],
    probes: list[tuple[float, float, float, float]],
    included: set[int],
) -> np.ndarray | None:
    REFERRED.append(1)
    return _search_py(*question, probes, included)


def goals(rng: np.random.Generator, t: Table, xy: np.ndarray, obs: _Obstacles) -> list[np.ndarray]:
    """Free points, other bases' centres (occupied), points on a clearance and in terrain."""
    out = [rng.uniform((0, 0), (t.width, t.height)) for _ in range(3)]
    out.append(xy[int(rng.integers(1, len(xy)))].copy())
    if len(obs.centres):
        j = int(rng.integers(0, len(obs.centres)))
        a = float(rng.uniform(0, 2 * np.pi))
        out.append(obs.centres[j] + obs.lim[j] * np.array([np.cos(a), np.sin(a)]))
    if len(t.imp_edges):
        e = t.imp_edges[int(rng.integers(0, len(t.imp_edges)))]
        out.append(e[0] + rng.uniform(0, 1) * (e[1] - e[0]))
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_c3_the_compiled_lazy_search_is_the_reference(seed: int) -> None:
    """Random tables (0 to 9 pieces, 2 to 14 bases, enemies and friends): every goal kind at
    goal radius 0 (a point), a charge's contact disc and a wide disc, from the mover's position and
    from the goal itself (a zero-length answer); walking and flying (over the terrain, landing
    clear of it)."""
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=int(rng.integers(0, 10)))
    n = int(rng.integers(2, 15))
    radii = rng.choice([0.5, 0.8, 1.2], n)
    xy = scatter_bases(t, rng, radii)
    for flying in (False, True):
        obs = Mover(t, 0, xy, radii, np.arange(n) >= n // 2, flying=flying).obstacles(xy[0])
        for goal in goals(rng, t, xy, obs):
            for goal_r in (0.0, float(radii[0] + 0.8 + 0.001), 2.5):
                ref, fast = both(t, obs, xy[0], goal, goal_r)
                assert fast == ref
        ref, fast = both(t, obs, xy[0], xy[0].copy(), 0.0)
        assert fast == ref


SCENARIOS = ["open_battle", "four_kingdoms_melee", "siege_of_ba_sing_se", "hold_the_zones", "the_pursuit"]


@pytest.mark.parametrize("name", SCENARIOS)
def test_r_c3_the_compiled_lazy_search_on_the_shipped_boards(name: str) -> None:
    """Many positions on each shipped board, crowded (24 bases: the ring's point test switches
    to numpy's form past BLOCKED_SMALL pairs) and sparse."""
    from skirmish.data.catalogue import find_scenario

    t = Table.from_scenario(find_scenario(name))
    rng = np.random.default_rng(len(name))
    for n in (6, 24, 48):
        radii = rng.choice([0.5, 0.8, 1.2], n)
        xy = scatter_bases(t, rng, radii)
        for mover in range(3):
            foes = np.arange(n) % 2 == 1 - mover % 2
            obs = Mover(t, mover, xy, radii, foes, flying=mover == 2).obstacles(xy[mover])
            for goal in goals(rng, t, xy, obs):
                for goal_r in (0.0, 1.5):
                    ref, fast = both(t, obs, xy[mover], goal, goal_r)
                    assert fast == ref


def test_r_c3_a_search_runs_compiled_once_enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_search_now` takes the compiled loop when the finder is on (a flyer too), the reference
    when it is off."""
    rng = np.random.default_rng(7)
    t = random_table(rng, pieces=5)
    radii = rng.choice([0.5, 0.8, 1.2], 8)
    xy = scatter_bases(t, rng, radii)
    calls: list[str] = []
    real = jit.search_now
    monkeypatch.setattr(jit, "search_now", lambda *a: calls.append("fast") or real(*a))
    for on in (True, False):
        monkeypatch.setattr(jit, "enabled", lambda on=on: on)
        for flying in (False, True):
            obs = Mover(t, 0, xy, radii, np.arange(8) >= 4, flying=flying).obstacles(xy[0])
            _search_now(t, obs, xy[0], xy[6], 1.5, [], set())
    assert calls == ["fast", "fast"]


def test_a_failing_compiled_loop_falls_back_to_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the compiled loop fail (a broken cache), the search answers with the reference, from
    a clean record, and the reference runs from then on."""
    rng = np.random.default_rng(3)
    t = random_table(rng, pieces=5)
    radii = rng.choice([0.5, 0.8, 1.2], 8)
    xy = scatter_bases(t, rng, radii)
    obs = Mover(t, 0, xy, radii, np.arange(8) >= 4).obstacles(xy[0])

    def broken(*_: object) -> None:
        raise SystemError("returned a result with an exception set")

    monkeypatch.setattr(jit, "_LOADED", [jit.compiled()])
    monkeypatch.setattr(jit, "search_now", broken)
    probes: list[tuple[float, float, float, float]] = []
    included: set[int] = set()
    got = _search_now(t, obs, xy[0], xy[6], 2.5, probes, included)
    want_p: list[tuple[float, float, float, float]] = []
    want_i: set[int] = set()
    want = _search_py(t, obs, xy[0], xy[6], 2.5, want_p, want_i)
    assert want is not None
    assert (None if got is None else got.tobytes()) == (None if want is None else want.tobytes())
    assert probes == want_p and included == want_i
    assert jit._LOADED == [None] and not jit.enabled()


@pytest.mark.filterwarnings("ignore:invalid value encountered in distance:RuntimeWarning")  # a NaN end
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_m2_r_m3_the_compiled_straight_batch_is_the_reference(seed: int) -> None:
    """`jit.straight_moves` answers `_straight_py` (the batch `check_straight_moves` checks in
    plain floats): random tables, friends and enemies (some touching the start), flyers, moves at
    the budget's edge, off the table, through bases and terrain, non-finite ends, up to
    STRAIGHT_SMALL moves from one start or from many."""
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=int(rng.integers(0, 10)))
    n = int(rng.integers(2, 40))
    radii = rng.choice([0.5, 0.8, 1.2], n)
    xy = scatter_bases(t, rng, radii)
    enemy = rng.random(n) < 0.5
    if rng.random() < 0.3:  # an enemy touching the mover at the start
        xy[1] = xy[0] + (radii[0] + radii[1] + 0.005) * np.array([1.0, 0.0])
        enemy[1] = True
    for flying in (False, True):
        mover = Mover(t, 0, xy, radii, enemy, flying=flying, ignore=rng.random(n) < 0.1)
        budget = float(rng.choice([3.0, 6.0, 12.0]))
        k = int(rng.integers(1, STRAIGHT_SMALL + 1))
        ang = rng.uniform(0, 2 * np.pi, k)
        length = budget * rng.choice([0.5, 1.0, 1.0 + 1e-7, 1.5], k)
        ends = xy[0] + length[:, None] * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
        if rng.random() < 0.2:
            ends[0] = [np.nan, 1.0]
        many = rng.random() < 0.3
        starts = xy[0] + rng.uniform(-0.5, 0.5, (k, 2)) if many else xy[0][None, :]
        got = jit.straight_moves(mover, starts, ends, budget)
        assert got is not None
        want = check_straight_moves(mover, starts, ends, max_length=budget)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
    big = np.repeat(xy[:1], STRAIGHT_SMALL + 1, axis=0)
    assert jit.straight_moves(mover, xy[0][None, :], big, 6.0) is None  # numpy's batch: the reference


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_compiled_finders_base_rows_are_the_plain_float_tuples(seed: int) -> None:
    """`_Obstacles.bases_arr`, built in numpy, holds `bases_py`'s floats exactly (the compiled and
    the plain-float kernels judge the same boxes and limits)."""
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=2)
    n = int(rng.integers(1, 30))
    radii = rng.choice([0.5, 0.8, 1.2, 2.5], n)
    xy = scatter_bases(t, rng, radii)
    obs = Mover(t, 0, xy, radii, rng.random(n) < 0.5).obstacles(xy[0])
    want = np.array(obs.bases_py(), dtype=float).reshape(-1, 7)
    assert obs.bases_arr().tobytes() == want.tobytes() and obs.bases_arr().shape == want.shape
