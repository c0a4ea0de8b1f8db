"""Placing models in their deployment zones (R-T1): the fixed grid auto-deployment fills, and the
free spot a model returning to the table takes (the Pursuit's adversaries).

Deterministic: the grid's order is fixed, so the same scenario and troupes always start alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from skirmish.engine.core.state import ModelState

if TYPE_CHECKING:
    from skirmish.engine.core.context import Ctx


SPACING = 0.4
"""Gap in inches between auto-deployed bases, so no two start in contact."""


def zone_of(game: Ctx, player: int) -> BaseGeometry:
    zones = [shapely.Polygon(z.polygon) for z in game.scenario.deployment if z.player == player]
    return shapely.union_all(zones)


def impassable_area(game: Ctx) -> BaseGeometry:
    pieces = [shapely.Polygon(t.polygon) for t in game.table.pieces if t.impassable]
    return shapely.union_all(pieces) if pieces else shapely.Polygon()


EDGE_GAP = 1e-6
"""The grid starts this far inside the usable area: a point exactly on its boundary is not inside it."""


def _grid(zone: BaseGeometry, blocked: BaseGeometry, r: float) -> np.ndarray:
    """Candidate centres for a base of radius `r` wholly inside `zone` and clear of impassable terrain,
    nearest the zone's centre first (ties west to east), so the same zone always fills alike.

    The grid starts a hair inside the usable area (the zone shrunk by `r`): starting exactly on its
    edge put the first row on the boundary, where it was rejected, so a zone had to be deeper than 4
    radii for any base to fit. A zone exactly one base deep now takes a row of bases.
    """
    minx, miny, maxx, maxy = zone.bounds
    step = 2 * r + SPACING
    lo_x, hi_x = minx + r + EDGE_GAP, maxx - r - EDGE_GAP
    lo_y, hi_y = miny + r + EDGE_GAP, maxy - r - EDGE_GAP
    if lo_x > hi_x or lo_y > hi_y:
        return np.zeros((0, 2))
    xs = np.arange(lo_x, hi_x + 1e-9, step)
    ys = np.arange(lo_y, hi_y + 1e-9, step)
    gx, gy = np.meshgrid(xs, ys)
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    inner = zone.buffer(-r, join_style="mitre")
    if inner.is_empty:
        return np.zeros((0, 2))
    ok = shapely.contains_xy(inner, pts[:, 0], pts[:, 1])
    if not blocked.is_empty:
        ok &= shapely.distance(blocked, shapely.points(pts)) >= r
    pts = pts[ok]
    c = zone.centroid
    order = np.lexsort((pts[:, 0], np.hypot(pts[:, 0] - c.x, pts[:, 1] - c.y).round(6)))
    return pts[order]


def _first_clear(
    pts: np.ndarray, xy: np.ndarray, radii: np.ndarray, r: float, others: list[int]
) -> int | None:
    """The first of `pts` where a base of radius `r` stands `SPACING` clear of every base in
    `others` (their centres `xy`, radii `radii`), or None. Every point is tested at once, with the
    operations of one point at a time per element (`x - xy[j, 0]`, then `r + radii[j] + SPACING -
    1e-9` left to right), so the first clear point is the one a loop over the points finds."""
    j = np.asarray(others, dtype=np.int64)
    need = r + radii[j] + SPACING - 1e-9
    gap = np.hypot(pts[:, 0:1] - xy[j, 0][None, :], pts[:, 1:2] - xy[j, 1][None, :])
    hit = np.flatnonzero((gap >= need[None, :]).all(axis=1))
    return int(hit[0]) if len(hit) else None


def auto_deploy(game: Ctx) -> None:
    """Place every model in its zone on a grid, nearest the zone's centre first, clear of terrain and bases.

    Deterministic: grid order is fixed, so the same scenario and troupes always start alike.
    """
    s = game.state
    # The placement is a function of the zones, the table's pieces and each player's bases in
    # order, so it is kept on the (shared, prepared) table under exactly those values: the next
    # game of the same scenario and troupes starts without building a grid.
    key = (
        tuple((z.player, tuple(map(tuple, z.polygon))) for z in game.scenario.deployment),
        tuple((m.player, float(s.radii[m.index])) for m in s.models),
    )
    cache = game.table.memo.setdefault("auto_deploy", {})
    assert isinstance(cache, dict)
    found = cache.get(key)
    if found is None:
        found = _deploy(game)
        if len(cache) > 64:
            cache.clear()
        cache[key] = found
    s.xy[:] = found
    game.moved()


def _deploy(game: Ctx) -> np.ndarray:
    """The placement `auto_deploy` keeps: everything read here beyond the table must be in its key."""
    s = game.state
    xy = s.xy.copy()
    placed: list[int] = []
    for p in range(len(s.players)):
        for m in game.player_models(p):
            r = float(s.radii[m.index])
            pts = _zone_grid(game, p, r)
            if len(pts) == 0:
                raise ValueError(f"deployment zone of {s.players[p].name} has no room for {m.id}")
            k = _first_clear(pts, xy, s.radii, r, placed)
            if k is None:
                raise ValueError(f"deployment zone of {s.players[p].name} is too small for its troupe")
            xy[m.index] = pts[k]
            placed.append(m.index)
    xy.setflags(write=False)
    return xy


def free_spot(game: Ctx, model: ModelState) -> tuple[float, float] | None:
    """A point in the model's deployment zone where it can stand now, clear of terrain and of every
    model on the table (used to bring models back, e.g. the Pursuit's reinforcements); None if full."""
    s = game.state
    r = float(s.radii[model.index])
    others = [o.index for o in s.models if o.on_table and o is not model]
    pts = _zone_grid(game, model.player, r)
    k = _first_clear(pts, s.xy, s.radii, r, others)
    if k is None:
        return None
    x, y = pts[k]
    return float(x), float(y)


def _zone_grid(game: Ctx, player: int, r: float) -> np.ndarray:
    """`_grid` of the player's zone for radius `r`, kept on the table (whose impassable pieces it
    depends on: a table with a piece added is another table, with its own memo) under the zone's
    outlines and the radius, so a returning model does not union and buffer the zone again."""
    key = (
        tuple(tuple(map(tuple, z.polygon)) for z in game.scenario.deployment if z.player == player),
        r,
    )
    cache = game.table.memo.setdefault("zone_grid", {})
    assert isinstance(cache, dict)
    found = cache.get(key)
    if found is None:
        found = _grid(zone_of(game, player), impassable_area(game), r)
        found.setflags(write=False)
        if len(cache) > 64:
            cache.clear()
        cache[key] = found
    return found
