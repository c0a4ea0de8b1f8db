"""A table with a piece added (an Earth Wall, R-X5 walls) is built from the table it grows from
(`Table.with_piece`: the old pieces' polygons, dense regions and impassable edges kept) and must be
the table built from scratch: the same geometry (as WKB), the same arrays bit for bit, and the
same answers to cover, height and sight, on random tables and every shipped one, for walls and
for pieces of every kind added one after another."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.sample import random_table, scatter_bases
from skirmish.battlefield.sight import sight_table
from skirmish.battlefield.table import Table
from skirmish.data.scenario import Cover, Terrain

_KINDS = (
    {"cover": Cover.none, "blocks_sight": True, "impassable": True},  # an Earth Wall
    {"cover": Cover.dense},
    {"cover": Cover.medium},
    {"cover": Cover.none, "height": 1.0},
    {"cover": Cover.dense, "impassable": True},
)


def _wkb(geoms: np.ndarray) -> list[bytes]:
    return [shapely.to_wkb(g) for g in geoms]


def _same_table(grown: Table, fresh: Table, rng: np.random.Generator) -> None:
    assert grown.names == fresh.names and grown.piece_boxes == fresh.piece_boxes
    assert _wkb(grown.polygons) == _wkb(fresh.polygons)
    assert shapely.to_wkb(grown.sight_union) == shapely.to_wkb(fresh.sight_union)
    assert _wkb(grown.dense_regions) == _wkb(fresh.dense_regions)
    assert grown.dense_region_names == fresh.dense_region_names
    for name in (
        "cover_rank",
        "heights",
        "blocks_sight",
        "impassable",
        "blocker_index",
        "blocker_boxes",
        "dense_boxes",
        "dense_diag",
        "dense_big",
        "dense_big_edges",
        "impassable_index",
        "imp_edges",
        "imp_edge_owner",
    ):
        a, b = getattr(grown, name), getattr(fresh, name)
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), name
    assert grown.imp_kernel.rows.tobytes() == fresh.imp_kernel.rows.tobytes()
    assert grown.imp_kernel.py == fresh.imp_kernel.py
    pts = rng.uniform(0, [grown.width, grown.height], size=(40, 2))
    for got, want in zip(grown.cover_of(pts), fresh.cover_of(pts), strict=True):
        assert got.tobytes() == want.tobytes()
    assert grown.height_of(pts).tobytes() == fresh.height_of(pts).tobytes()
    radii = np.full(8, 0.5)
    xy = scatter_bases(fresh, rng, radii)
    assert (sight_table(grown, xy, radii) == sight_table(fresh, xy, radii)).all()


def _piece(rng: np.random.Generator, table: Table, n: int) -> Terrain:
    cx, cy = rng.uniform(4, [table.width - 4, table.height - 4])
    a = float(rng.uniform(0, np.pi))
    length, width = float(rng.uniform(1.0, 4.0)), float(rng.uniform(0.3, 1.5))
    u, v = np.array([np.cos(a), np.sin(a)]) * length / 2, np.array([-np.sin(a), np.cos(a)]) * width / 2
    corners = [[float(x), float(y)] for x, y in (np.array([cx, cy]) + [u + v, u - v, -u - v, -u + v])]
    return Terrain(name=f"added_{n}", polygon=corners, **_KINDS[int(rng.integers(0, len(_KINDS)))])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_x5_a_grown_table_is_the_table_built_from_scratch(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=int(rng.integers(0, 10)))
    for n in range(int(rng.integers(1, 4))):
        terrain = _piece(rng, table, n)
        grown = table.with_piece(terrain)
        _same_table(grown, Table(table.width, table.height, (*table.pieces, terrain)), rng)
        table = grown


def test_r_x5_walls_on_every_shipped_table() -> None:
    from skirmish.data.catalogue import find_scenario, shipped

    rng = np.random.default_rng(3)
    for path in shipped("scenarios"):
        table = Table.from_scenario(find_scenario(str(path)))
        for n in range(2):
            terrain = _piece(rng, table, n)
            grown = table.with_piece(terrain)
            _same_table(grown, Table(table.width, table.height, (*table.pieces, terrain)), rng)
            table = grown
