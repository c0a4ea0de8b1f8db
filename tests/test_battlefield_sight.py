"""R-B3 line of sight: blockers, dense cover, grazing, standing inside, symmetry, evidence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.sight import sight_evidence, sight_pairs, sight_table, sight_table_update
from skirmish.battlefield.table import Table
from skirmish.data.catalogue import content_root
from skirmish.data.loader import load_scenario

ROOT = Path(__file__).resolve().parents[1]
CONTENT = content_root()


@pytest.fixture(scope="module")
def table() -> Table:
    return Table.from_scenario(load_scenario(CONTENT / "scenarios" / "open_battle.toml"))


def _pair(
    table: Table, a: list[float], b: list[float], r: float = 0.5, block: bool = False
) -> tuple[bool, object]:
    xy = np.array([a, b], dtype=float)
    radii = np.array([r, r])
    vis = sight_table(table, xy, radii, block_bases=block)
    ev = sight_evidence(table, xy, radii, 0, 1, block_bases=block)
    assert ev.visible == vis[0, 1]
    return bool(vis[0, 1]), ev


def test_r_b3_sight_blocking_terrain_blocks_with_evidence(table: Table) -> None:
    visible, ev = _pair(table, [23.5, 9], [23.5, 18])
    assert not visible and ev.blocker == "standing_stone" and ev.line is None


def test_r_b3_any_point_of_base_to_any_point_sees_past_an_edge(table: Table) -> None:
    # Centre line crosses the stone (x from 22), but the bases' left edges see past it.
    visible, ev = _pair(table, [22.2, 9], [22.2, 18], r=0.5)
    assert visible and ev.line is not None
    (x0, _), (x1, _) = ev.line
    assert x0 < 22 and x1 < 22


def test_r_b3_grazing_a_corner_does_not_block(table: Table) -> None:
    # The line x + y = 34 touches the stone only at its corner (22, 12).
    visible, ev = _pair(table, [20, 14], [24, 10], r=1e-6)
    assert visible
    assert ev.line == ((20.0, 14.0), (24.0, 10.0))


def test_r_b3_more_than_3_inches_of_dense_cover_blocks(table: Table) -> None:
    visible, ev = _pair(table, [30, 18], [44, 18])
    assert not visible and ev.blocker == "bamboo_grove"


def test_r_b3_cutting_a_corner_of_dense_cover_does_not_block(table: Table) -> None:
    # The centre line crosses ~1.4" of the grove's corner: not more than 3".
    visible, _ = _pair(table, [39, 24], [45, 18])
    assert visible


def test_r_b3_standing_inside_the_dense_cover_sees_out(table: Table) -> None:
    visible, _ = _pair(table, [33, 18], [44, 18])
    assert visible
    visible, _ = _pair(table, [41, 18], [30, 18])
    assert visible


def test_r_b3_medium_and_light_cover_never_block(table: Table) -> None:
    assert _pair(table, [26, 33], [38, 33])[0]  # through the ruins
    assert _pair(table, [15, 23], [23, 23])[0]  # through the tall grass


def test_r_b3_option_models_block_sight(table: Table) -> None:
    xy = np.array([[10, 3], [10, 13], [10, 8]], dtype=float)
    radii = np.array([0.5, 0.5, 0.8])
    assert sight_table(table, xy, radii)[0, 1]
    assert not sight_table(table, xy, radii, block_bases=True)[0, 1]
    ev = sight_evidence(table, xy, radii, 0, 1, block_bases=True)
    assert not ev.visible and ev.blocker == "models"


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_b3_sight_is_symmetric_on_random_tables(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=12)
    radii = rng.choice([0.5, 0.8, 1.2], 10)
    xy = scatter_bases(t, rng, radii)
    i, j = np.triu_indices(10, 1)
    for block in (False, True):
        ab = sight_pairs(t, xy, radii, i, j, block)
        ba = sight_pairs(t, xy, radii, j, i, block)
        assert (ab == ba).all()
        vis = sight_table(t, xy, radii, block)
        assert (vis == vis.T).all() and vis.diagonal().all()
    # Each answer agrees with its evidence, and the evidence line really is clear.
    vis = sight_table(t, xy, radii)
    for a, b in zip(i[:12].tolist(), j[:12].tolist(), strict=True):
        assert sight_evidence(t, xy, radii, a, b).visible == vis[a, b]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_b3_incremental_update_matches_full_table(seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=10)
    radii = np.full(12, 0.5)
    xy = scatter_bases(t, rng, radii)
    vis = sight_table(t, xy, radii)
    xy2 = xy.copy()
    xy2[3] = scatter_bases(t, rng, radii[:1])[0]
    moved = np.zeros(12, dtype=bool)
    moved[3] = True
    assert (sight_table_update(t, vis, xy2, radii, moved) == sight_table(t, xy2, radii)).all()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_b3_fast_dense_and_blocker_tests_match_the_exact_ones(seed: int) -> None:
    """Dense cover length by clipping (convex regions) equals the cut-and-test length; the
    blocker test by orientations equals shapely's `intersects`, grazing lines included."""
    import shapely

    from skirmish.battlefield import sight as S
    from skirmish.battlefield.sight import lengths_inside

    rng = np.random.default_rng(seed)
    t = random_table(rng, pieces=15)
    seg = rng.uniform(0, 48, (300, 2, 2))
    if len(t.dense_big):
        got = S._big_lengths(t, seg)
        ref = lengths_inside(seg, t.dense_big_edges, t.dense_regions[t.dense_big])
        assert np.abs(got - ref).max() < 1e-9
    v = np.concatenate([np.asarray(t.polygons[k].exterior.coords)[:-1] for k in t.blocker_index])
    a = v[rng.integers(0, len(v), 300)]
    b = v[rng.integers(0, len(v), 300)]
    graze = np.stack([a + rng.normal(size=(300, 2)) * 1e-7, b + rng.normal(size=(300, 2)) * 1e-7], axis=1)
    lines = np.concatenate([seg, graze])
    assert (
        S._meets_blockers(t, lines) == shapely.intersects(t.sight_union, shapely.linestrings(lines))
    ).all()
