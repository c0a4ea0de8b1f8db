"""The per-point facts a grown table keeps (`Table.with_piece`, R-B2, R-X5 walls): a table grown by
a piece that gives neither cover nor height (an Earth Wall) shares its base's remembered facts,
and every fact it then answers (cover rank, cover piece, height) is the fresh table's, for points
asked before the wall rose, inside the wall, on its corners and anywhere; a piece that gives cover
or height starts a memo of its own."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.sample import random_table
from skirmish.battlefield.table import Table
from skirmish.data.catalogue import find_scenario, shipped
from skirmish.data.scenario import Cover, Terrain

_KINDS = (
    {"cover": Cover.none, "blocks_sight": True, "impassable": True},  # an Earth Wall
    {"cover": Cover.none},
    {"cover": Cover.dense},
    {"cover": Cover.light, "impassable": True},
    {"cover": Cover.none, "height": 1.0},
)


def _piece(rng: np.random.Generator, table: Table, n: int, kind: dict[str, object]) -> Terrain:
    cx, cy = rng.uniform(4, [table.width - 4, table.height - 4])
    a = float(rng.uniform(0, np.pi))
    length, width = float(rng.uniform(1.0, 4.0)), float(rng.uniform(0.3, 1.5))
    u, v = np.array([np.cos(a), np.sin(a)]) * length / 2, np.array([-np.sin(a), np.cos(a)]) * width / 2
    corners = [[float(x), float(y)] for x, y in (np.array([cx, cy]) + [u + v, u - v, -u - v, -u + v])]
    return Terrain(name=f"added_{n}", polygon=corners, **kind)  # type: ignore[arg-type]


def _points(rng: np.random.Generator, table: Table, terrain: Terrain) -> np.ndarray:
    corners = np.array(terrain.polygon, dtype=float)
    centre = corners.mean(axis=0)
    inside = centre + (corners - centre) * rng.uniform(0, 0.99, size=(4, 1))
    anywhere = rng.uniform(0, [table.width, table.height], size=(30, 2))
    return np.concatenate([anywhere, corners, inside, centre[None, :]])


def _grow_and_compare(table: Table, rng: np.random.Generator, n: int) -> Table:
    kind = _KINDS[int(rng.integers(0, len(_KINDS)))]
    terrain = _piece(rng, table, n, kind)
    pts = _points(rng, table, terrain)
    for k in range(0, len(pts), 3):  # warm the base's memo, a few points at a time
        table.facts_of(pts[k : k + 3])
    grown = table.with_piece(terrain)
    shared = grown._point_facts is table._point_facts
    assert shared == (terrain.cover.rank == 0 and terrain.height <= 0)
    fresh = Table(table.width, table.height, (*table.pieces, terrain))
    for k in range(0, len(pts), 2):
        assert grown.facts_of(pts[k : k + 2]) == fresh.facts_of(pts[k : k + 2])
    assert grown.facts_of(pts) == fresh.facts_of(pts)
    assert table.facts_of(pts) == Table(table.width, table.height, table.pieces).facts_of(pts)
    return grown


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r_b2_a_walled_table_keeps_true_point_facts(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = random_table(rng, pieces=int(rng.integers(0, 10)))
    for n in range(int(rng.integers(1, 4))):
        table = _grow_and_compare(table, rng, n)


def test_r_b2_walls_on_every_shipped_table_keep_true_point_facts() -> None:
    rng = np.random.default_rng(5)
    for path in shipped("scenarios"):
        table = Table.from_scenario(find_scenario(str(path)))
        for n in range(3):
            table = _grow_and_compare(table, rng, n)
