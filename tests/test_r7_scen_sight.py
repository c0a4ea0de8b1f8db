"""Round 7 (slow scenarios): the pair store's one compiled call for the fan and the exact stage
(`PairSight._compiled_both`) answers every pair as the two stages did one after the other, PENDING
pairs included (`engine.sight_pairs`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_r5_engine_sight_plain import _awkward

from skirmish.battlefield import sight_plain
from skirmish.battlefield.paths import jit
from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.table import Table
from skirmish.data.catalogue import find_scenario
from skirmish.engine.sight_pairs import PairSight, open_centre_line


def _loaded() -> None:
    if jit.compiled() is None:
        pytest.skip("numba is not installed here")
    assert sight_plain.compiled(now=True) is not None


class _TwoStages(PairSight):
    """The pair store as it was: the fan of the fresh pairs, then the exact stage, two calls."""

    __slots__ = ()

    def _compiled_both(
        self, fast: sight_plain.CompiledFan, fresh: list[tuple[int, int]], radii: np.ndarray
    ) -> None:
        self._compiled_fan(fast, fresh, radii, first=False)


def _solved(table: Table, xy: np.ndarray, radii: np.ndarray, *, both: bool) -> list[list[bool]]:
    """Every pair solved in one batch, with the one-call path or the two stages it replaces."""
    store = PairSight(table, len(xy), False) if both else _TwoStages(table, len(xy), False)
    store.sync(xy, [True] * len(xy))
    store.solve(store.unknown(), radii)
    assert not store.unknown()
    return store.vis


def _agree(table: Table, xy: np.ndarray, radii: np.ndarray) -> int:
    """Asserts both paths give the same table; how many pairs the kernel left PENDING."""
    _loaded()
    if sight_plain.plain_fan(table, False) is None:
        return 0
    assert _solved(table, xy, radii, both=True) == _solved(table, xy, radii, both=False)
    fast = sight_plain.compiled_fan(table)
    assert fast is not None
    i, j = np.triu_indices(len(xy), 1)
    store = PairSight(table, len(xy), False)
    store.sync(xy, [True] * len(xy))
    got = store._run(
        fast, list(zip(i.tolist(), j.tolist(), strict=True)), radii, exact=True, first=False, fan=True
    )
    return sum(g == sight_plain.PENDING for g in got)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["scatter", "awkward", "anywhere"]))
def test_r_b3_one_call_for_both_stages_answers_as_the_two_stages(seed: int, where: str) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=int(rng.integers(2, 14)))
    radii = rng.choice([0.5, 0.8, 1.0, 1.5], 10)
    if where == "anywhere":
        xy = rng.uniform(0.0, 48.0, (10, 2))
    else:
        xy = scatter_bases(table, rng, radii)
        if where == "awkward":
            xy = _awkward(table, rng, xy, radii)
    _agree(table, xy, radii)


def test_r_b3_one_call_on_the_slow_scenarios_tables_and_with_pending_pairs() -> None:
    rng = np.random.default_rng(7)
    for name in ("four_kingdoms_melee", "siege_of_ba_sing_se", "the_pursuit", "escort_the_avatar"):
        table = Table.from_scenario(find_scenario(name))
        radii = rng.choice([0.5, 0.8, 1.0], 14)
        for _ in range(3):
            _agree(table, _awkward(table, rng, scatter_bases(table, rng, radii), radii), radii)
    pending = 0
    for seed in range(30):  # bases inside sight blockers: lines only shapely can settle
        rng = np.random.default_rng(seed)
        pending += _agree(random_table(rng, pieces=10), rng.uniform(0.0, 48.0, (12, 2)), np.full(12, 0.5))
    assert pending > 0


class _OldSync(PairSight):
    """The pair store with `sync` as it was: every removed model's row and column marked again."""

    __slots__ = ()

    def sync(self, xy: np.ndarray, on: list[bool]) -> None:
        n = self.n
        pts = xy.tolist()
        changed = [k for k in range(n) if pts[k] != self.pts[k] or on[k] != self.on[k]]
        if not changed:
            return
        self.pts, self.on = pts, list(on)
        self.xy = xy.copy()
        self.regions = self.inside = None
        self.on_mask = np.array(on, dtype=bool)
        known, vis, fanned = self.known, self.vis, self.fanned
        for k in changed:
            for row in known:
                row[k] = False
            known[k] = [False] * n
            for row in fanned:
                row[k] = False
            fanned[k] = [False] * n
        for k in range(n):
            if not on[k]:
                known[k] = [True] * n
                vis[k] = [False] * n
                for row in known:
                    row[k] = True
                for row in vis:
                    row[k] = False
        for k in changed:
            if on[k]:
                vis[k][k] = known[k][k] = True
        later = set(changed)
        for k in changed:
            if not on[k]:
                continue
            ax, ay = pts[k]
            for j in range(n):
                if j == k or not on[j] or (j in later and j < k):
                    continue
                bx, by = pts[j]
                if open_centre_line(self.boxes, ax, ay, bx, by):
                    vis[k][j] = vis[j][k] = known[k][j] = known[j][k] = True


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_b3_sync_marks_only_the_changed_entries_of_removed_models(seed: int) -> None:
    """Moves, removals, returns and solves at random: the store's tables equal those of the sync
    that marked every removed model's row and column again at every sync."""
    rng = np.random.default_rng(seed)
    table = Table.from_scenario(find_scenario(str(rng.choice(["four_kingdoms_melee", "the_pursuit"]))))
    n = 12
    radii = rng.choice([0.5, 1.0], n)
    xy = scatter_bases(table, rng, radii)
    on = [True] * n
    new, old = PairSight(table, n, False), _OldSync(table, n, False)
    for _ in range(30):
        what = rng.integers(0, 4)
        k = int(rng.integers(0, n))
        if what == 0:
            on[k] = not on[k]
        elif what <= 2:
            xy = xy.copy()
            xy[k] = rng.uniform(1.0, 47.0, 2)
        for store in (new, old):
            store.sync(xy, on)
        if rng.integers(0, 2):
            todo = [(i, j) for i, j in new.unknown() if on[i] and on[j]]
            for store in (new, old):
                store.solve(todo, radii)
        assert new.known == old.known and new.vis == old.vis and new.fanned == old.fanned
