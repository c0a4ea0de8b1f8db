"""The tangent graph's geometry: the circles a shortest path may wrap around, their common
tangents and the arcs drawn between them.

Pure geometry of circles (no legality, no search), split from `search` so that A* reads as a
search; it depends only on the obstacles, so it sits beside `check` in the layers.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import shapely

from skirmish.battlefield import portable
from skirmish.battlefield.measure import pair_indices
from skirmish.battlefield.paths.obstacles import _Obstacles
from skirmish.battlefield.table import Table

NODE_MARGIN = 1e-4
"""The path finder's circles are this much larger than the exact clearance, so its tangent
segments and arcs pass the exact check with room to spare for float noise."""


ARC_TOL = 3e-4
"""A drawn arc (a polyline circumscribing the circle) is at most this much longer per radian
swept than the true arc: a path's polyline stays within 0.001" of the exact shortest length
for arcs totalling up to 3 radians (a 42-degree arc at radius 1 is drawn with 13 corners)."""


def _convex_vertices(table: Table, k: int) -> np.ndarray:
    """The convex corners of impassable piece k (every ring, holes included), memoised on the table.

    A shortest path touches a piece grown by the mover's radius only along the arcs around its
    convex corners and the offset edges between them (the outer common tangents of neighbouring
    corner circles), so these corners, as circles of the mover's radius, are all the search needs.
    """
    key = ("convex_vertices", k)
    hit = table.memo.get(key)
    if hit is None:
        hit = table.memo[key] = _corners(shapely.to_wkb(table.polygons[table.impassable_index[k]]))
    assert isinstance(hit, np.ndarray)
    return hit


@functools.lru_cache(maxsize=256)
def _corners(wkb: bytes) -> np.ndarray:
    """`_convex_vertices` of the piece whose exact shape `wkb` is (read-only), kept for the
    process: every game's table, and every table an Earth Wall makes, holds the same pieces
    again, and the corners are a function of the shape alone."""
    rings: list[np.ndarray] = []
    for part in shapely.get_parts(shapely.from_wkb(wkb)):
        part = shapely.geometry.polygon.orient(part, 1.0)  # exterior ccw, holes cw: inside on the left
        for ring in [part.exterior, *part.interiors]:
            c = np.asarray(ring.coords, dtype=float)[:-1]
            e1 = c - np.roll(c, 1, axis=0)
            e2 = np.roll(c, -1, axis=0) - c
            rings.append(c[e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0] > 1e-12])
    out = np.concatenate(rings) if rings else np.empty((0, 2))
    out.flags.writeable = False
    return out


def _discs(
    table: Table, obs: _Obstacles, inc_b: np.ndarray, inc_t: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Circles the path may wrap around: each included base at its clearance, each convex corner
    of each included piece at the mover's radius, all NODE_MARGIN larger (x, y, radius)."""
    xs = [obs.cx[inc_b]]
    ys = [obs.cy[inc_b]]
    rs = [obs.clearance[inc_b] + NODE_MARGIN]
    for k in inc_t.tolist():
        v = _convex_vertices(table, k)
        xs.append(v[:, 0])
        ys.append(v[:, 1])
        rs.append(np.full(len(v), obs.radius + NODE_MARGIN))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(rs)


def _bitangents(cx: np.ndarray, cy: np.ndarray, rad: np.ndarray) -> tuple[np.ndarray, ...]:
    """The common tangents of every pair of circles: (disc a, point on a, disc b, point on b).

    For signed radii r1 = +-R_a, r2 = +-R_b the line n.(p - c_a) + r1 = 0 with |n| = 1 and
    n.(c_b - c_a) = r2 - r1 touches both (the outer tangents for equal signs, the inner ones for
    opposite signs); its feet are c_a - r1 n and c_b - r2 n. Pairs where one circle holds the
    other (or, for inner tangents, where they overlap) have none.
    """
    i, j = pair_indices(len(cx))
    dx = cx[j] - cx[i]
    dy = cy[j] - cy[i]
    z = dx * dx + dy * dy
    out: list[list[np.ndarray]] = [[], [], [], [], [], []]
    for s1, s2 in ((1.0, 1.0), (-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0)):
        r1 = s1 * rad[i]
        r2 = s2 * rad[j]
        dr = r2 - r1
        disc = z - dr * dr
        ok = (disc > 1e-12) & (z > 1e-18)
        if not ok.any():
            continue
        ii, jj = i[ok], j[ok]
        sq = np.sqrt(disc[ok])
        zz = z[ok]
        a = (dr[ok] * dx[ok] + dy[ok] * sq) / zz
        b = (dr[ok] * dy[ok] - dx[ok] * sq) / zz
        out[0].append(ii)
        out[1].append(cx[ii] - r1[ok] * a)
        out[2].append(cy[ii] - r1[ok] * b)
        out[3].append(jj)
        out[4].append(cx[jj] - r2[ok] * a)
        out[5].append(cy[jj] - r2[ok] * b)
    if not out[0]:
        e = np.empty(0)
        return np.empty(0, dtype=np.int64), e, e, np.empty(0, dtype=np.int64), e, e
    return tuple(np.concatenate(col) for col in out)


def _point_tangents(
    px: float, py: float, cx: np.ndarray, cy: np.ndarray, rad: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Tangent points from (px, py) to every circle it lies outside: (disc, x, y), and the circles
    it lies on or in (within float noise of the margin), where it becomes a node of the circle."""
    ux = px - cx
    uy = py - cy
    d = np.sqrt(ux * ux + uy * uy)
    out = d > rad * (1 + 1e-12)
    k = np.flatnonzero(out)
    base = portable.arctan2(uy[k], ux[k])
    alpha = portable.arccos(rad[k] / d[k])
    disc = np.concatenate([k, k])
    ang = np.concatenate([base + alpha, base - alpha])
    r = rad[disc]
    return disc, cx[disc] + r * portable.cos(ang), cy[disc] + r * portable.sin(ang), np.flatnonzero(~out)


def _point_tangents_py(
    px: float, py: float, cxl: list[float], cyl: list[float], radl: list[float]
) -> tuple[list[int], list[float], list[float], list[int]]:
    """`_point_tangents` for a few circles, as lists: the same formulas in the same order in plain
    floats, and numpy for the transcendental functions, on arrays of the same values and lengths."""
    ks: list[int] = []
    uxs: list[float] = []
    uys: list[float] = []
    ratio: list[float] = []
    on: list[int] = []
    for q, (cx, cy, rad) in enumerate(zip(cxl, cyl, radl, strict=True)):
        ux = px - cx
        uy = py - cy
        d = math.sqrt(ux * ux + uy * uy)
        if d > rad * (1 + 1e-12):
            ks.append(q)
            uxs.append(ux)
            uys.append(uy)
            ratio.append(rad / d)
        else:
            on.append(q)
    base = portable.arctan2(np.array(uys, dtype=float), np.array(uxs, dtype=float))
    alpha = portable.arccos(np.array(ratio, dtype=float))
    ang = np.concatenate([base + alpha, base - alpha])
    disc = ks + ks
    xs = [cxl[q] + radl[q] * c for q, c in zip(disc, portable.cos(ang).tolist(), strict=True)]
    ys = [cyl[q] + radl[q] * s for q, s in zip(disc, portable.sin(ang).tolist(), strict=True)]
    return disc, xs, ys, on


def _arc(
    cx: float, cy: float, rad: float, a0: float, sweep: float, turn: int, end: tuple[float, float]
) -> list[tuple[float, float]]:
    """The polyline drawn for an arc of a circle: corners of a polygon circumscribing it, then the
    arc's end point. Its pieces are fine enough that it is at most ARC_TOL longer than the arc
    per radian (so every piece keeps the circle's radius from its centre: legal as the arc is)."""
    if sweep <= 1e-12:
        return [end]
    step = math.sqrt(12.0 * ARC_TOL / rad)
    k = max(1, math.ceil(sweep / step))
    d = sweep / k
    far = rad / math.cos(d / 2)
    pts = [
        (cx + far * math.cos(a0 + turn * (i + 0.5) * d), cy + far * math.sin(a0 + turn * (i + 0.5) * d))
        for i in range(k)
    ]
    pts.append(end)
    return pts
