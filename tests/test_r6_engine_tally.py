"""Zones held at the tally (R-E3): the bounds-first point test (`end_phase._inside`) answers
`shapely.contains_xy` for every point, on every shipped scenario's zones, for points inside,
outside, on the bounds, on the vertices and just off them; and the zones are kept per scenario."""

from __future__ import annotations

import random

import numpy as np
import pytest
import shapely

from skirmish.data.catalogue import find_scenario, find_troupe, shipped
from skirmish.engine.game import Game
from skirmish.engine.steps.end_phase import _inside, _zones


def _points(poly: shapely.Polygon, rng: random.Random) -> list[list[float]]:
    x0, y0, x1, y1 = poly.bounds
    pts = [[rng.uniform(x0 - 3, x1 + 3), rng.uniform(y0 - 3, y1 + 3)] for _ in range(300)]
    for x, y in poly.exterior.coords:
        for dx in (-1e-9, 0.0, 1e-9):
            for dy in (-1e-9, 0.0, 1e-9):
                pts.append([x + dx, y + dy])
    for x in (x0, x1, np.nextafter(x0, -np.inf), np.nextafter(x1, np.inf)):
        pts.append([float(x), (y0 + y1) / 2])
    for y in (y0, y1, np.nextafter(y0, -np.inf), np.nextafter(y1, np.inf)):
        pts.append([(x0 + x1) / 2, float(y)])
    return pts


@pytest.mark.parametrize("name", [p.stem for p in shipped("scenarios")])
def test_r_e3_zone_points_are_shapely_contains(name: str) -> None:
    sc = find_scenario(name)
    if not sc.scoring.zones:
        pytest.skip("no scoring zones")
    game = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=1, record_log=False)
    rng = random.Random(name)
    zones = _zones(game)
    assert len(zones) == len(sc.scoring.zones)
    for zone, (poly, bounds) in zip(sc.scoring.zones, zones, strict=True):
        assert shapely.equals_exact(poly, shapely.Polygon(zone.polygon), 0.0)
        pts = _points(poly, rng)
        xs = np.array([p[0] for p in pts])
        ys = np.array([p[1] for p in pts])
        assert _inside(poly, bounds, pts) == shapely.contains_xy(poly, xs, ys).tolist()
        assert _inside(poly, bounds, []) == []
    again = Game(sc, [find_troupe(side.troupe) for side in sc.sides], seed=2, record_log=False)
    assert _zones(again) is zones  # built once per scenario object
