"""Round 7's cheaper answers of the heuristic bot are the answers they replace, bit for bit.

- `Zone.holds` (bounds first; an axis-aligned rectangle by comparisons alone) answers as
  `shapely.contains_xy`, for points inside, outside, on edges and corners and one float off them;
- `rectangle_of` finds exactly the axis-aligned rectangles (either winding, either first edge);
- `in_zones` (plain floats) is the vectorised mask it replaces;
- a zone's centre and spots are read-only, so the spots `holders_of` hands out cannot be changed;
- `holders_of` ranking by squared distances in plain floats (`hypot` only for near ties) gives
  `holders`' spots where distances tie or nearly tie;
- the scored listing's ends read from a flat list are the array of pairs they replace.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.bots.heuristic import HeuristicBot
from skirmish.bots.runner import play_out, seat_bots
from skirmish.bots.zones import (
    Zone,
    holders,
    holders_of,
    holding_of,
    in_zones,
    make_zone,
    rectangle_of,
    scoring_zone,
)
from skirmish.data.catalogue import find_scenario, find_troupe, shipped
from skirmish.engine.core.state import ModelState
from skirmish.engine.game import Game

_coord = st.floats(min_value=-5.0, max_value=60.0, allow_nan=False)


def _probes(poly: shapely.Polygon, extra: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points on every corner and edge midpoint of `poly` and one float either side of them, the
    bounds' lines and `extra`."""
    pts = list(extra)
    coords = list(poly.exterior.coords)
    for (ax, ay), (bx, by) in zip(coords, coords[1:], strict=False):
        for x, y in ((ax, ay), ((ax + bx) / 2, (ay + by) / 2)):
            for dx in (-np.inf, 0.0, np.inf):
                for dy in (-np.inf, 0.0, np.inf):
                    px = float(np.nextafter(x, dx)) if dx else float(x)
                    py = float(np.nextafter(y, dy)) if dy else float(y)
                    pts.append((px, py))
    x0, y0, x1, y1 = poly.bounds
    pts += [(x0, (y0 + y1) / 2), (x1, (y0 + y1) / 2), ((x0 + x1) / 2, y0), ((x0 + x1) / 2, y1)]
    return pts


def _check_holds(zone: Zone, poly: shapely.Polygon, pts: list[tuple[float, float]]) -> None:
    xy = np.array(pts, dtype=float)
    want = shapely.contains_xy(poly, xy[:, 0], xy[:, 1]).tolist()
    got = [zone.holds(float(x), float(y)) for x, y in xy.tolist()]
    assert got == want


@settings(max_examples=300, deadline=None)
@given(
    x=_coord,
    y=_coord,
    w=st.floats(min_value=0.01, max_value=20.0),
    h=st.floats(min_value=0.01, max_value=20.0),
    start=st.integers(min_value=0, max_value=3),
    backwards=st.booleans(),
    pts=st.lists(st.tuples(_coord, _coord), max_size=12),
)
def test_a_rectangle_zone_holds_what_shapely_contains(
    x: float, y: float, w: float, h: float, start: int, backwards: bool, pts: list[tuple[float, float]]
) -> None:
    """An axis-aligned rectangle, its corners in any order round it: found as a rectangle, and its
    comparisons answer as shapely (a point on an edge is not contained)."""
    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    if backwards:
        corners.reverse()
    corners = corners[start:] + corners[:start]
    poly = shapely.Polygon(corners)
    if not (poly.is_valid and poly.area > 0):
        return  # the sum rounded the width or height away
    zone = make_zone("z", 1, shapely.Polygon(corners))
    assert zone.box is not None
    assert zone.box == tuple(float(v) for v in poly.bounds)
    _check_holds(zone, poly, _probes(poly, pts))


@settings(max_examples=200, deadline=None)
@given(
    corners=st.lists(st.tuples(_coord, _coord), min_size=3, max_size=8),
    pts=st.lists(st.tuples(_coord, _coord), max_size=12),
)
def test_any_zone_holds_what_shapely_contains(
    corners: list[tuple[float, float]], pts: list[tuple[float, float]]
) -> None:
    """Any valid polygon (rarely a rectangle): the bounds first, then shapely's own test."""
    poly = shapely.Polygon(corners)
    if not poly.is_valid or poly.area <= 0:
        return
    zone = make_zone("z", 1, shapely.Polygon(corners))
    _check_holds(zone, poly, _probes(poly, pts))


@pytest.mark.parametrize(
    "corners",
    [
        [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0)],  # a triangle
        [(2.0, 0.0), (4.0, 2.0), (2.0, 4.0), (0.0, 2.0)],  # a square turned 45 degrees
        [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0001)],  # one corner off
        [(0.0, 0.0), (4.0, 0.0), (6.0, 0.0), (6.0, 4.0), (0.0, 4.0)],  # five corners
    ],
)
def test_a_polygon_that_is_no_axis_aligned_rectangle_is_not_taken_for_one(
    corners: list[tuple[float, float]],
) -> None:
    assert rectangle_of(shapely.Polygon(corners)) is None


def test_a_rectangle_with_a_hole_is_not_taken_for_one() -> None:
    outer = [(0.0, 0.0), (8.0, 0.0), (8.0, 8.0), (0.0, 8.0)]
    hole = [(3.0, 3.0), (5.0, 3.0), (5.0, 5.0), (3.0, 5.0)]
    assert rectangle_of(shapely.Polygon(outer, [hole])) is None


@pytest.mark.parametrize("name", [p.stem for p in shipped("scenarios")])
def test_every_shipped_zone_is_a_rectangle_that_holds_what_shapely_contains(name: str) -> None:
    for z in find_scenario(name).scoring.zones:
        corners = tuple((float(x), float(y)) for x, y in z.polygon)
        zone = scoring_zone(z.name, z.points, corners)
        assert zone.box is not None  # the fast path is the one every shipped game takes
        x0, y0, x1, y1 = zone.bounds
        grid = [
            (x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * j / 8) for i in range(-2, 11) for j in range(-2, 11)
        ]
        _check_holds(zone, shapely.Polygon(corners), _probes(zone.poly, grid))


@settings(max_examples=200, deadline=None)
@given(
    zones=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=3), _coord, _coord, st.sampled_from([3.0, 6.0]), st.booleans()
        ),
        max_size=4,
    ),
    pts=st.lists(st.tuples(_coord, _coord), min_size=1, max_size=12),
)
def test_in_zones_is_the_vectorised_mask(
    zones: list[tuple[int, float, float, float, bool]], pts: list[tuple[float, float]]
) -> None:
    """Plain-float membership of the zones worth points, as one `shapely.contains_xy` per zone
    or-ed into a mask gave it (zones worth nothing left out; rectangles and diamonds)."""
    made = []
    for k, (p, x, y, s, turned) in enumerate(zones):
        if turned:
            corners = ((x, y - s), (x + s, y), (x, y + s), (x - s, y))
        else:
            corners = ((x, y), (x + s, y), (x + s, y + s), (x, y + s))
        made.append(make_zone(f"z{k}", p, shapely.Polygon(corners)))
        pts = [*pts, corners[0], corners[1]]  # points on the boundary as well
    xy = np.array(pts, dtype=float)
    want = np.zeros(len(xy), dtype=bool)
    for z in made:
        if z.points > 0:
            want |= shapely.contains_xy(z.poly, xy[:, 0], xy[:, 1])
    assert in_zones(made, xy) == want.tolist()


def test_a_zone_centre_and_spots_cannot_be_changed() -> None:
    """The spots are handed out as they are (not copied): writing to one raises instead of moving
    the zone of every game in the process."""
    zone = scoring_zone("read_only", 1, ((0.0, 0.0), (6.0, 0.0), (6.0, 6.0), (0.0, 6.0)))
    for a in (zone.centre, *zone.spots):
        with pytest.raises(ValueError):
            a[0] = 1.0


@settings(max_examples=400, deadline=None)
@given(
    a=st.floats(min_value=0.0, max_value=12.0),
    b=st.floats(min_value=0.0, max_value=12.0),
    steps=st.lists(st.integers(min_value=-3, max_value=3), min_size=6, max_size=6),
    hps=st.lists(st.sampled_from([4.0, 4.0, 5.0, 9.0]), min_size=6, max_size=6),
    order=st.permutations(list(range(6))),
)
def test_holders_of_ranks_near_equal_distances_as_hypot_does(
    a: float, b: float, steps: list[int], hps: list[float], order: list[int]
) -> None:
    """Models of equal toughness at the same or nearly the same distance from a zone's centre (the
    same offset turned a quarter or mirrored, one or a few floats apart, one on the centre): the
    squared sums cannot tell them apart, so `hypot` ranks them, and the spots are `holders`'."""
    zone = scoring_zone("near", 1, ((18.0, 18.0), (30.0, 18.0), (30.0, 30.0), (18.0, 30.0)))
    cx, cy = (float(v) for v in zone.centre)
    base = [
        (cx + a, cy + b),
        (cx - b, cy + a),
        (cx - a, cy - b),
        (cx + b, cy - a),
        (cx, cy),
        (cx + a, cy + b),
    ]
    pts = []
    for (x, y), k in zip(base, steps, strict=True):
        for _ in range(abs(k)):
            x = float(np.nextafter(x, np.inf if k > 0 else -np.inf))
        pts.append((x, y))
    pts = [pts[i] for i in order]
    xy = np.array(pts, dtype=float)
    mine = [_Model(f"m{k}", 2 * k + 1) for k in range(len(pts))]
    tough = {x.id: hps[k] for k, x in enumerate(mine)}
    want = holders([zone], mine, tough, xy)  # type: ignore[arg-type]
    got = holders_of(holding_of([zone]), mine, tough, xy.tolist())  # type: ignore[arg-type]
    assert list(got) == list(want)
    for key, spot in want.items():
        assert got[key].tobytes() == spot.tobytes()


class _Model:
    """The two fields `holders` reads of a model."""

    def __init__(self, id: str, index: int) -> None:
        self.id = id
        self.index = index


def test_listing_ends_from_a_flat_list_are_the_pairs_array(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scored listing's ends, read by numpy from one flat list of floats, are the array of the
    candidates' last points and the model's place that a list of pairs gave, bit for bit."""
    from skirmish.engine import queries

    listed: list[tuple[tuple[Any, ...], np.ndarray]] = []
    fresh_list, fresh_score = queries.move_option_paths, HeuristicBot._score_positions
    checked = 0

    def listing(game: Game, m: ModelState, goals: list[np.ndarray] | None = None) -> tuple[Any, ...]:
        found = fresh_list(game, m, goals)
        listed.append((found, game.state.xy[m.index].copy()))
        return found

    def score(
        self: HeuristicBot, game: Game, m: ModelState, ends: np.ndarray, zones: list[np.ndarray]
    ) -> np.ndarray:
        nonlocal checked
        candidates, here = listed[-1]
        want = np.array([p[-1] for p in candidates] + [tuple(here)])
        assert ends.dtype == want.dtype and ends.shape == want.shape and ends.tobytes() == want.tobytes()
        checked += 1
        return fresh_score(self, game, m, ends, zones)

    monkeypatch.setattr(queries, "move_option_paths", listing)
    monkeypatch.setattr(HeuristicBot, "_score_positions", score)
    sc = find_scenario("open_battle")
    troupes = [find_troupe(side.troupe) for side in sc.sides]
    for seed in (1, 4):
        pols: list[str | None] = ["heuristic"] * len(sc.sides)
        game = Game(sc, troupes, seed=seed, bots=pols, record_log=False)
        play_out(game, seat_bots(game, pols))
    assert checked > 10
