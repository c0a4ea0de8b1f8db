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


def _tangent_lines_one_family_at_a_time(
    c1: np.ndarray, r1: np.ndarray, c2: np.ndarray, r2: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The reference: `sight._tangent_lines` as it was written first, one sign pair at a time."""
    d = c2 - c1
    z = (d * d).sum(-1)
    idx, qs, us = [], [], []
    for s1, s2 in ((1.0, 1.0), (-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0)):
        a1 = s1 * r1
        dr = s2 * r2 - a1
        disc = z - dr * dr
        ok = np.flatnonzero((disc >= 0) & (z > 1e-18))
        sq = np.sqrt(disc[ok])
        dx, dy, zz, drk = d[ok, 0], d[ok, 1], z[ok], dr[ok]
        n = np.stack([drk * dx + dy * sq, drk * dy - dx * sq], axis=-1) / zz[:, None]
        idx.append(ok)
        qs.append(c1[ok] - a1[ok, None] * n)
        us.append(np.stack([-n[:, 1], n[:, 0]], axis=-1))
    return np.concatenate(idx), np.concatenate(qs), np.concatenate(us)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_b3_tangent_lines_of_all_families_at_once_are_the_same_bytes(seed: int) -> None:
    """The exact stage's common tangents are computed for the four sign pairs in one batch; they
    must be the reference's lines bit for bit, in its order (separate, touching, nested and
    coincident discs included), or candidate lines, and so sight, could differ."""
    from skirmish.battlefield.sight import _tangent_lines

    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 12))
    c1 = rng.uniform(0, 30, (m, 2))
    c2 = np.where(rng.random((m, 1)) < 0.2, c1, rng.uniform(0, 30, (m, 2)))
    r1 = rng.uniform(0.3, 3.0, m)
    r2 = np.where(rng.random(m) < 0.2, r1, rng.uniform(0.3, 3.0, m))
    touch = rng.random(m) < 0.2  # externally tangent discs: the inner tangents' discriminant is 0
    c2[touch] = c1[touch] + np.array([1.0, 0.0]) * (r1[touch] + r2[touch])[:, None]
    got = _tangent_lines(c1, r1, c2, r2)
    want = _tangent_lines_one_family_at_a_time(c1, r1, c2, r2)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype and g.tobytes() == w.tobytes()
