"""Round 7 (slow scenarios): the grown tables' shared geometry and the one-pass ring edges equal
what was built piece by piece before (`battlefield.table`, `battlefield.sight`)."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield import sight
from skirmish.battlefield.table import Table, ring_edges
from skirmish.data.catalogue import find_scenario
from skirmish.data.scenario import Terrain


def _edges_ring_by_ring(poly: shapely.Polygon) -> np.ndarray:
    """The reference: each ring's coordinates walked, an edge from each vertex to the next."""
    out = []
    for ring in [poly.exterior, *poly.interiors]:
        c = np.asarray(ring.coords, dtype=float)
        out.append(np.stack([c[:-1], c[1:]], axis=1))
    return np.concatenate(out)


_coord = st.floats(min_value=-50, max_value=50, allow_nan=False, allow_infinity=False)


@st.composite
def _polygons(draw: st.DrawFn) -> list[shapely.Polygon]:
    """A few polygons, some with holes, some with repeated or collinear vertices."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        x, y = draw(_coord), draw(_coord)
        w, h = draw(st.floats(0.5, 20)), draw(st.floats(0.5, 20))
        shell = [(x, y), (x + w, y), (x + w, y + h), (x + w / 2, y + h), (x, y + h)]
        if draw(st.booleans()):
            shell.insert(1, (x, y))  # a repeated vertex: a zero-length edge kept as drawn
        holes = []
        if draw(st.booleans()):
            holes.append([(x + w / 4, y + h / 4), (x + w / 2, y + h / 4), (x + w / 2, y + h / 2)])
        out.append(shapely.Polygon(shell, holes))
    return out


@settings(max_examples=60, deadline=None)
@given(_polygons())
def test_ring_edges_in_one_pass_equal_ring_by_ring(polys: list[shapely.Polygon]) -> None:
    got = ring_edges(polys)
    want = np.concatenate([_edges_ring_by_ring(p) for p in polys])
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got, want)


def test_ring_edges_of_nothing_is_empty() -> None:
    assert ring_edges([]).shape == (0, 2, 2)


def _wall(table: Table, name: str, x: float, y: float) -> Terrain:
    blocker = next(p for p in table.pieces if p.blocks_sight and p.impassable)
    polygon = [(x, y), (x + 3, y), (x + 3, y + 0.5), (x, y + 0.5)]
    return blocker.model_copy(update={"name": name, "polygon": polygon})


def test_grown_tables_share_the_dense_geometry_and_build_the_rest_alike() -> None:
    """An Earth Wall's table (grown) against the same pieces built from scratch: the same edges,
    dense edges, sight vertices and dense clip; the dense clip is built once, on the source."""
    for name in ("four_kingdoms_melee", "siege_of_ba_sing_se", "the_pursuit", "open_battle"):
        base = Table.from_scenario(find_scenario(name))
        grown = base.with_piece(_wall(base, "earth_wall_a", 10.0, 10.0))
        twice = grown.with_piece(_wall(base, "earth_wall_b", 20.0, 14.0))
        for t in (grown, twice):
            fresh = Table(t.width, t.height, t.pieces)
            assert t.dense_source is base.dense_source
            assert np.array_equal(t.imp_edges, fresh.imp_edges)
            assert np.array_equal(t.dense_big_edges, fresh.dense_big_edges)
            assert np.array_equal(sight._candidate_vertices(t), sight._candidate_vertices(fresh))
            be, bf = sight.blocker_edges(t), sight.blocker_edges(fresh)
            for a in ("ax", "ay", "ex", "ey"):
                assert np.array_equal(getattr(be, a), getattr(bf, a))
            ct, cf = sight.dense_clip(t), sight.dense_clip(fresh)
            assert ct is sight.dense_clip(base)
            for a in ("convex", "nx", "ny", "na", "starts", "other"):
                assert np.array_equal(getattr(ct, a), getattr(cf, a))
            for e, f in zip(ct.other_edges, cf.other_edges, strict=True):
                assert np.array_equal(e, f)


def test_a_dense_piece_makes_a_table_its_own_dense_source() -> None:
    base = Table.from_scenario(find_scenario("siege_of_ba_sing_se"))
    dense = next(p for p in base.pieces if p.cover.rank == 3)
    grown = base.with_piece(dense.model_copy(update={"name": "new_grove"}))
    assert grown.dense_source is grown
    fresh = Table(grown.width, grown.height, grown.pieces)
    assert np.array_equal(grown.dense_big_edges, fresh.dense_big_edges)
    assert np.array_equal(sight.dense_clip(grown).nx, sight.dense_clip(fresh).nx)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1), st.sampled_from(["the_pursuit", "siege_of_ba_sing_se", "escort_the_avatar"])
)
def test_a_batch_of_new_centres_gets_the_cover_and_height_of_the_two_passes(seed: int, name: str) -> None:
    """`_facts_now` (one pass over the cover and height pieces) against `_cover_now` and
    `_height_now`, on centres anywhere, on piece corners and on edges."""
    table = Table.from_scenario(find_scenario(name))
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0.0, max(table.width, table.height), (int(rng.integers(1, 64)), 2))
    corners = np.array([c for p in table.pieces for c in p.polygon], dtype=float)
    k = int(rng.integers(0, len(xy)))
    xy[:k] = corners[rng.integers(0, len(corners), k)]
    rank, piece = table._cover_now(xy)
    height = table._height_now(xy)
    want = list(zip(rank.tolist(), piece.tolist(), height.tolist(), strict=True))
    got = table._facts_now(xy)
    assert got == want
    assert [type(v) for f in got for v in f] == [type(v) for f in want for v in f]
    assert got == [table._point_facts_now(x, y) for x, y in xy.tolist()]
