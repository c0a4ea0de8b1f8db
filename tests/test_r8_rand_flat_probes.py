"""The search records' probes kept flat (x0, y0, x1, y1, x0, ...) instead of a tuple per probe
(R-M2, R-C3 searches): `search._search_now_flat` appends the floats `_search_now` appends as
tuples, in the same order, with the same included bases and path, compiled or not; and
`kernel.near_flat` over the flat form answers what `near_segment` answers over the tuples, so
every record's reuse test (`search._search_record`, `plan._still_true`, `movement._relisted`)
decides as before."""

from __future__ import annotations

import numpy as np
import pytest
from helpers_engine import play_bot_games
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.paths import search as search_mod
from skirmish.battlefield.paths.kernel import near_flat, near_segment
from skirmish.battlefield.paths.search import _search_now, _search_py


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_flat_near_test_is_near_segment(seed: int) -> None:
    rng = np.random.default_rng(seed)
    q = int(rng.integers(0, 12))
    probes = [tuple(float(v) for v in rng.uniform(0, 20, 4)) for _ in range(q)]
    for i in range(q):
        if rng.random() < 0.3:  # a point: a zero-length probe, as the goal and ring points are
            x, y = probes[i][:2]
            probes[i] = (x, y, x, y)
    flat = tuple(v for p in probes for v in p)
    for _ in range(20):
        if probes and rng.random() < 0.5:
            # A centre at the limit of a probe's end (and a hair either side): the boundary.
            x0, y0 = probes[int(rng.integers(0, q))][:2]
            r = float(rng.uniform(0.5, 3.0))
            ang = float(rng.uniform(0, 2 * np.pi))
            cx, cy = x0 + r * np.cos(ang), y0 + r * np.sin(ang)
            lim2 = float(rng.choice([r * r, np.nextafter(r * r, 0.0), np.nextafter(r * r, 1e9)]))
        else:
            cx, cy = (float(v) for v in rng.uniform(-2, 22, 2))
            lim2 = float(rng.uniform(0, 9))
        assert near_flat(float(cx), float(cy), lim2, flat) == near_segment(float(cx), float(cy), lim2, probes)


@pytest.mark.usefixtures("own_tables")  # fresh searches counted: none answered by earlier tests' memos
@pytest.mark.parametrize("compiled_on", [True, False])
@pytest.mark.parametrize(
    "scenario", ["open_battle", "siege_of_ba_sing_se", "four_kingdoms_melee", "the_pursuit"]
)
def test_r_m2_every_fresh_search_keeps_the_tuples_floats_flat(
    scenario: str, compiled_on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every fresh search of a random game (the compiled search loaded, and the reference
    alone): the flat probes are the tuple form's flattened, with the same included
    bases and the same path bytes, and the tuple form's are the Python reference's."""
    from skirmish.battlefield.paths import jit

    compiled = compiled_on and jit.compiled() is not None
    if not compiled_on:
        monkeypatch.setattr(jit, "enabled", lambda: False)
    real = search_mod._search_now_flat
    seen = {"searches": 0, "probes": 0}

    def both(table, obs, start, centre, goal_r, flat, included):  # type: ignore[no-untyped-def]
        n0 = len(flat)
        path = real(table, obs, start, centre, goal_r, flat, included)
        probes: list[tuple[float, float, float, float]] = []
        inc: set[int] = set()
        want = _search_now(table, obs, start, centre, goal_r, probes, inc)
        assert flat[n0:] == [v for p in probes for v in p]
        assert inc == included
        assert (path is None) == (want is None)
        if path is not None and want is not None:
            assert path.tobytes() == want.tobytes()
        if seen["searches"] % 4 == 0:  # the reference itself, now and then (it is slow)
            ref_p: list[tuple[float, float, float, float]] = []
            ref_i: set[int] = set()
            ref = _search_py(table, obs, start, centre, goal_r, ref_p, ref_i)
            assert ref_p == probes and ref_i == inc
            assert (ref is None) == (want is None) and (ref is None or ref.tobytes() == want.tobytes())
        seen["searches"] += 1
        seen["probes"] += len(probes)
        return path

    monkeypatch.setattr(search_mod, "_search_now_flat", both)
    play_bot_games(scenario, [(5 if compiled_on else 6, "random")])
    assert seen["searches"] > 5 and seen["probes"] > 20
    assert not compiled_on or compiled and jit.enabled()
