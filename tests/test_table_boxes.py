"""Cover and height per centre (R-B2, R-B3) skip the pieces whose bounding box a centre lies
outside: the same answers, centre for centre, as testing every piece, on every shipped table,
at random points and at the pieces' own vertices and box corners."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battlefield.table import Table
from skirmish.data.catalogue import find_scenario, shipped

SCENARIOS = sorted(p.stem for p in shipped("scenarios"))


def _reference(table: Table, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(xy)
    rank = np.zeros(n, dtype=np.int8)
    piece = np.full(n, -1, dtype=np.int64)
    for i in np.flatnonzero(table.cover_rank > 0):
        inside = shapely.contains_xy(table.polygons[i], xy[:, 0], xy[:, 1])
        better = inside & (table.cover_rank[i] > rank)
        rank[better] = table.cover_rank[i]
        piece[better] = i
    h = np.zeros(n)
    for i in np.flatnonzero(table.heights > 0):
        inside = shapely.contains_xy(table.polygons[i], xy[:, 0], xy[:, 1])
        h = np.where(inside, np.maximum(h, table.heights[i]), h)
    return rank, piece, h


def _table(name: str) -> Table:
    sc = find_scenario(name)
    return Table(sc.board.width, sc.board.height, sc.terrain)


def _same(table: Table, xy: np.ndarray) -> None:
    rank, piece = table._cover_now(xy)
    want_rank, want_piece, want_h = _reference(table, xy)
    assert rank.tolist() == want_rank.tolist()
    assert piece.tolist() == want_piece.tolist()
    assert table._height_now(xy).tolist() == want_h.tolist()


@pytest.mark.parametrize("name", SCENARIOS)
def test_r_b3_cover_and_height_at_vertices_and_box_corners(name: str) -> None:
    table = _table(name)
    pts = [p for t in table.pieces for p in t.polygon]
    pts += [(b[0], b[1]) for b in table.piece_boxes] + [(b[2], b[3]) for b in table.piece_boxes]
    xy = np.array(pts, dtype=float).reshape(-1, 2)
    for k in range(0, len(xy), 5):  # small batches (the plain-float path) and one large one
        _same(table, xy[k : k + 5])
    _same(table, xy)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SCENARIOS), st.lists(st.tuples(st.floats(-2, 50), st.floats(-2, 50)), max_size=80))
def test_r_b2_cover_and_height_at_random_points(name: str, pts: list[tuple[float, float]]) -> None:
    _same(_table(name), np.array(pts, dtype=float).reshape(-1, 2))
