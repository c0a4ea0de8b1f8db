"""What is physical: pushes and dragging bases, simulated with pymunk, judged by the geometry.

Design principle 9: shapely + numpy decide legality; pymunk simulates what moves physically (a
model knocked back by an Air Blast, a base dragged in the UI). The simulation runs in a fresh
one-thread space with a fixed time step, so the same push always ends in the same place, and
its result is then checked by the exact geometry of `paths` (and backed off if pymunk left the
base interpenetrating something, which a solver with slop does).

pymunk's `Space.segment_query` with a radius misses contacts: the spatial index is queried with
the bare segment's box, not the box swept by the radius. `segment_query_all` wraps it: it asks
the index for every shape in the swept box, then asks each shape itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pymunk

from skirmish.battlefield import portable
from skirmish.battlefield.measure import point_segment_distance, psd_xy, ssd_xy
from skirmish.battlefield.paths import Mover
from skirmish.battlefield.paths.kernel import _seg_clear
from skirmish.battlefield.paths.obstacles import BOX_SLACK
from skirmish.battlefield.slide import base_clear, edge_clear, first_stop, near_pieces
from skirmish.battlefield.table import Table

DT = 1.0 / 240.0
"""Fixed time step of every simulation."""

STEP_FRACTION = 0.5
"""A body moves at most this fraction of its radius per step, so it cannot tunnel through a base."""

MOVER, SOLID = 1, 2

REACH_MARGIN = 1.0
"""Shapes within a push's distance plus this (inches) of the mover's base are simulated."""

CLEAR_MARGIN = 1e-6
"""A push whose straight slide stays this far (inches) from every shape it approaches cannot make
a contact in the simulation (its steps leave the line by rounding, ~1e-13)."""


def build_space(
    table: Table,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    *,
    ignore: np.ndarray | None = None,
    walls: bool = True,
    reach: float | None = None,
) -> tuple[pymunk.Space, pymunk.Body]:
    """A one-thread space: the mover as a dynamic disc; other bases, impassable edges and the table
    edges as static shapes. Built fresh each time, in index order, so runs are reproducible.

    With `reach`, only bases and edges the mover could touch while its centre stays within
    `reach` of where it starts are added (a push of 3" needs a few of the table's shapes, and
    making a pymunk shape costs more than the whole simulation); shapes it cannot reach never
    make a contact, so they cannot change what happens.
    """
    space = pymunk.Space(threaded=False)
    space.iterations = 10
    space.gravity = (0.0, 0.0)
    static = space.static_body
    shapes: list[pymunk.Shape] = []
    skip = np.zeros(len(xy), dtype=bool)
    skip[mover] = True
    if ignore is not None:
        skip |= np.asarray(ignore, dtype=bool)
    r = float(radii[mover])
    if reach is not None:
        c = xy[mover]
        gap = np.sqrt(((xy - c) ** 2).sum(-1)) - radii - r
        skip |= gap > reach + REACH_MARGIN
    for j in np.flatnonzero(~skip).tolist():
        shapes.append(pymunk.Circle(static, float(radii[j]), (float(xy[j, 0]), float(xy[j, 1]))))
    edges = table.imp_edges
    if reach is not None and len(edges):
        c = xy[mover]
        d = point_segment_distance(c, edges[:, 0, :], edges[:, 1, :]) - r
        edges = edges[d <= reach + REACH_MARGIN]
    for a, b in edges.tolist():
        shapes.append(pymunk.Segment(static, (a[0], a[1]), (b[0], b[1]), 0.0))
    if walls:
        w, h = table.width, table.height
        for a, b in (((0, 0), (w, 0)), ((w, 0), (w, h)), ((w, h), (0, h)), ((0, h), (0, 0))):
            shapes.append(pymunk.Segment(static, a, b, 0.0))
    for s in shapes:
        s.collision_type = SOLID
        s.elasticity = 0.0
        s.friction = 0.0
    r = float(radii[mover])
    body = pymunk.Body(1.0, math.inf)
    body.position = (float(xy[mover, 0]), float(xy[mover, 1]))
    disc = pymunk.Circle(body, r)
    disc.collision_type = MOVER
    disc.elasticity = 0.0
    disc.friction = 0.0
    space.add(*shapes, body, disc)
    return space, body


def segment_query_all(
    space: pymunk.Space,
    start: tuple[float, float],
    end: tuple[float, float],
    radius: float,
    shape_filter: pymunk.ShapeFilter | None = None,
) -> list[pymunk.SegmentQueryInfo]:
    """Every shape a disc of `radius` touches sweeping from start to end, nearest first.

    Unlike `Space.segment_query`, never misses a shape that is only within reach because of the
    radius: candidates come from the box swept by the disc, then each shape's own exact query.
    """
    flt = shape_filter if shape_filter is not None else pymunk.ShapeFilter()
    bb = pymunk.BB(
        min(start[0], end[0]) - radius,
        min(start[1], end[1]) - radius,
        max(start[0], end[0]) + radius,
        max(start[1], end[1]) + radius,
    )
    hits = []
    for shape in space.bb_query(bb, flt):
        info = shape.segment_query(start, end, radius)
        if info is not None and info.shape is not None:
            hits.append(info)
    hits.sort(key=lambda i: (i.alpha, i.point.x, i.point.y))
    return hits


def _circle_entry(start: np.ndarray, unit: np.ndarray, c: np.ndarray, rad: np.ndarray) -> np.ndarray:
    """Distance along the ray at which a point enters each circle (c, rad); inf if never.

    A ray starting inside or on a circle while moving outward does not enter it (touching bases
    may separate); one starting on it and moving inward enters at 0.
    """
    w = start - c
    b = portable.dot2(w, unit)
    cc = (w * w).sum(-1) - rad * rad
    disc = b * b - cc
    t = -b - np.sqrt(np.maximum(disc, 0.0))
    entering = (disc > 0) & (b < 0) & (t >= -1e-9)
    return np.where(entering, np.maximum(t, 0.0), np.inf)


def max_free_distance(
    table: Table,
    mover: int,
    start: np.ndarray,
    unit: np.ndarray,
    length: float,
    xy: np.ndarray,
    radii: np.ndarray,
    ignore: np.ndarray | None,
) -> float:
    """Exact: how far the mover's base can slide along `unit` (up to `length`) before it would
    overlap a base, cut into an impassable piece or leave the table. Touching is allowed."""
    obs = Mover(table, mover, xy, radii, ignore=ignore).obstacles(start)
    r = obs.radius
    sx, sy = float(start[0]), float(start[1])
    ux, uy = float(unit[0]), float(unit[1])
    edges = near_pieces(table, sx, sy, length + r) if len(obs.edges) else []
    bases = list(zip(obs.cx.tolist(), obs.cy.tolist(), obs.clearance.tolist(), strict=True))
    best = sides_stop(
        table, r, (sx, sy), (ux, uy), length, first_stop(edges, bases, sx, sy, ux, uy, r, length)
    )
    lo_edge = r - 1e-9
    hx, hy = table.width - lo_edge, table.height - lo_edge
    near, pieces, tl, tl2 = obs.bases_py(), obs.kern.py, obs.tlim + BOX_SLACK, obs.tlim2

    def ok(d: float) -> bool:
        # `_off_table` and `not _violations(...).any()` for one segment, in plain floats (the
        # kernel's `_seg_clear`: the same formulas as `_violations`, stopping at the first hit).
        ex, ey = sx + ux * d, sy + uy * d
        if ex < lo_edge or ex > hx or ey < lo_edge or ey > hy:
            return False
        return _seg_clear(sx, sy, ex, ey, near, pieces, tl, tl2, False)

    return last_word(ok, best)


def sides_stop(
    table: Table,
    r: float,
    start: tuple[float, float] | np.ndarray,
    unit: tuple[float, float] | np.ndarray,
    length: float,
    best: float,
) -> float:
    """`best` (the first stop at a base or an impassable edge) lowered to where the centre would
    come within r of a table side, then backed off 1e-7 if anything stops the slide short. The
    slide's own caller passes plain floats, so the stop and every check of the bisection after it
    stay plain floats (numpy scalars give the same numbers, far slower each)."""
    for k, hi in ((0, table.width), (1, table.height)):
        if unit[k] > 1e-12:
            best = min(best, max(0.0, (hi - r - start[k]) / unit[k]))
        elif unit[k] < -1e-12:
            best = min(best, max(0.0, (start[k] - r) / -unit[k]))
    if best < length:
        best = max(0.0, best - 1e-7)
    return best


def last_word(ok: Callable[[float], bool], best: float) -> float:
    """The exact check has the last word: `best` if it is legal, else the largest legal distance
    a bisection finds below it (only if float noise disagrees)."""
    if ok(best):
        return best
    lo, hi = 0.0, best
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _first_stop_numpy(
    table: Table,
    mover: int,
    start: np.ndarray,
    unit: np.ndarray,
    length: float,
    xy: np.ndarray,
    radii: np.ndarray,
    ignore: np.ndarray | None,
) -> float:
    """`slide.first_stop` in numpy over every base and edge: the reference it is held to."""
    obs = Mover(table, mover, xy, radii, ignore=ignore).obstacles(start)
    r = obs.radius
    best = length
    if len(obs.centres):
        best = min(best, float(_circle_entry(start, unit, obs.centres, obs.clearance).min(initial=np.inf)))
    if len(obs.edges):
        a = obs.edges[:, 0, :]
        b = obs.edges[:, 1, :]
        ends = np.vstack([a, b])
        best = min(best, float(_circle_entry(start, unit, ends, np.full(len(ends), r)).min(initial=np.inf)))
        # The flat sides of each edge's capsule: lines offset by r on either side.
        e = b - a
        elen = np.sqrt((e * e).sum(-1))
        nrm = np.stack([-e[:, 1], e[:, 0]], axis=-1) / np.maximum(elen, 1e-300)[:, None]
        for sign in (1.0, -1.0):
            n = nrm * sign
            dist0 = ((start - a) * n).sum(-1) - r  # signed gap to the offset line
            rate = portable.dot2(n, unit)  # change of that gap per inch travelled
            with np.errstate(divide="ignore", invalid="ignore"):
                t = np.where(rate < 0, dist0 / -rate, np.inf)
            t = np.where((dist0 >= -1e-9) & (t >= 0), t, np.inf)
            finite = np.isfinite(t)
            if finite.any():
                hit = start[None, :] + np.where(finite, t, 0.0)[:, None] * unit[None, :]
                s = ((hit - a) * e).sum(-1) / np.maximum(elen * elen, 1e-300)
                t = np.where((s >= 0) & (s <= 1), t, np.inf)
                best = min(best, float(t.min(initial=np.inf)))
    return best


def push(
    table: Table,
    mover: int,
    direction: np.ndarray,
    distance: float,
    xy: np.ndarray,
    radii: np.ndarray,
    *,
    ignore: np.ndarray | None = None,
) -> np.ndarray:
    """New centre of the mover after being pushed `distance` inches along `direction`.

    Simulated: the disc moves at constant speed with a fixed step and stops at its first contact
    with a base, an impassable piece or the table edge. The result is then checked by the exact
    geometry along the straight push line and pulled back if pymunk left it overlapping.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    radii = np.asarray(radii, dtype=float).reshape(-1)
    start = xy[mover].copy()
    d = np.asarray(direction, dtype=float).reshape(2)
    norm = float(np.hypot(d[0], d[1]))
    if distance <= 0 or norm <= 1e-12:
        return start
    unit = d / norm
    if slides_clear(table, mover, start, unit, distance, xy, radii, ignore):
        along = distance  # what the simulation answers when nothing stops it
    else:
        along = _simulated(table, mover, start, unit, distance, xy, radii, ignore)
    # The geometry decides: the largest legal distance along the push line, up to pymunk's answer.
    along = max_free_distance(table, mover, start, unit, along, xy, radii, ignore)
    return start + unit * along


def slides_clear(
    table: Table,
    mover: int,
    start: np.ndarray,
    unit: np.ndarray,
    distance: float,
    xy: np.ndarray,
    radii: np.ndarray,
    ignore: np.ndarray | None,
) -> bool:
    """Whether the simulated push cannot meet anything that stops it, so it would answer the whole
    `distance` (`_simulated`): then no space need be built (building one costs most of a push).

    The simulation stops only at a contact ahead (normal within ~84 degrees of the push), and
    bends the path only at a contact it approaches. Against each shape it could meet (every base
    but the mover and the ignored ones, every impassable edge, the four table sides) the straight
    slide from `start` either stays `CLEAR_MARGIN` away — no contact, since pymunk's discs and
    segments touch only when they overlap — or moves away from it from the first instant (the
    distance to a disc or segment is convex along a line, so it then never shrinks and any
    contact has its normal behind or beside: no stop, no bend), starting no deeper than the
    margin. Anything else (a shape ahead, a deep overlap) is left to the simulation."""
    r = float(radii[mover])
    sx, sy = float(start[0]), float(start[1])
    ux, uy = float(unit[0]), float(unit[1])
    ex, ey = sx + ux * distance, sy + uy * distance
    out = [False] * len(xy) if ignore is None else np.asarray(ignore, dtype=bool).tolist()
    for k, ((cx, cy), rk) in enumerate(zip(xy.tolist(), radii.tolist(), strict=True)):
        if k != mover and not out[k] and not base_clear(cx, cy, rk + r, sx, sy, ex, ey, ux, uy, CLEAR_MARGIN):
            return False
    w, h = table.width, table.height
    for (ax, ay), (bx, by) in (
        ((0.0, 0.0), (w, 0.0)),
        ((w, 0.0), (w, h)),
        ((w, h), (0.0, h)),
        ((0.0, h), (0.0, 0.0)),
    ):
        if not edge_clear(ax, ay, bx, by, sx, sy, ex, ey, ux, uy, r, CLEAR_MARGIN):
            return False
    # Pieces out of the slide's reach are clear both ways (see `slide`): only the near ones count.
    return all(
        edge_clear(e.ax, e.ay, e.bx, e.by, sx, sy, ex, ey, ux, uy, r, CLEAR_MARGIN)
        for e in near_pieces(table, sx, sy, distance + r)
    )


def _slides_clear_numpy(
    table: Table,
    mover: int,
    start: np.ndarray,
    unit: np.ndarray,
    distance: float,
    xy: np.ndarray,
    radii: np.ndarray,
    ignore: np.ndarray | None,
) -> bool:
    """`slides_clear` in numpy over every base and edge: the reference it is held to."""
    r = float(radii[mover])
    sx, sy = float(start[0]), float(start[1])
    ux, uy = float(unit[0]), float(unit[1])
    ex, ey = sx + ux * distance, sy + uy * distance
    ends = np.array([sx, sy, ex, ey])  # the slide's ends, as the distance kernels take them
    s0x, s0y, s1x, s1y = ends[0:1], ends[1:2], ends[2:3], ends[3:4]
    skip = np.zeros(len(xy), dtype=bool)
    skip[mover] = True
    if ignore is not None:
        skip |= np.asarray(ignore, dtype=bool)
    keep = ~skip
    cx, cy = xy[keep, 0], xy[keep, 1]
    reach = radii[keep] + r
    wx, wy = sx - cx, sy - cy
    away = wx * ux + wy * uy >= 0.0
    start_gap = np.sqrt(wx * wx + wy * wy) - reach
    nearest = psd_xy(cx, cy, s0x, s0y, s1x, s1y) - reach
    if not np.all(np.where(away, start_gap >= -CLEAR_MARGIN, nearest >= CLEAR_MARGIN)):
        return False
    w, h = table.width, table.height
    sides = np.array([[[0.0, 0.0], [w, 0.0]], [[w, 0.0], [w, h]], [[w, h], [0.0, h]], [[0.0, h], [0.0, 0.0]]])
    edges = np.concatenate([table.imp_edges.reshape(-1, 2, 2), sides])
    ax, ay, bx, by = edges[:, 0, 0], edges[:, 0, 1], edges[:, 1, 0], edges[:, 1, 1]
    # The nearest point of each segment to the start, and whether the slide moves away from it.
    dx, dy = bx - ax, by - ay
    den = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.clip(np.where(den > 0, ((sx - ax) * dx + (sy - ay) * dy) / den, 0.0), 0.0, 1.0)
    qx, qy = sx - (ax + t * dx), sy - (ay + t * dy)
    away = qx * ux + qy * uy >= 0.0
    start_gap = np.sqrt(qx * qx + qy * qy) - r
    nearest = ssd_xy(ax, ay, bx, by, s0x, s0y, s1x, s1y) - r
    return bool(np.all(np.where(away, start_gap >= -CLEAR_MARGIN, nearest >= CLEAR_MARGIN)))


def _simulated(
    table: Table,
    mover: int,
    start: np.ndarray,
    unit: np.ndarray,
    distance: float,
    xy: np.ndarray,
    radii: np.ndarray,
    ignore: np.ndarray | None,
) -> float:
    """How far pymunk's disc slides along `unit` before its first contact ahead (`distance` if none)."""
    r = float(radii[mover])
    space, body = build_space(table, mover, xy, radii, ignore=ignore, reach=distance)
    touched = [False]

    def begin(arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        # Only a contact ahead stops the push (one it starts touching behind or beside does not).
        n = arbiter.normal
        if n.x * unit[0] + n.y * unit[1] > 0.1:
            touched[0] = True

    space.on_collision(MOVER, SOLID, begin=begin)
    per_step = STEP_FRACTION * r
    steps = max(1, math.ceil(distance / per_step))
    speed = distance / (steps * DT)
    vel = (float(unit[0]) * speed, float(unit[1]) * speed)
    for _ in range(steps):
        body.velocity = vel
        space.step(DT)
        if touched[0]:
            break
    if not touched[0]:
        return distance
    moved = np.array([body.position.x, body.position.y]) - start
    return float(np.clip(portable.dot2(moved, unit), 0.0, distance))


def drag_to(
    table: Table,
    mover: int,
    target: np.ndarray,
    xy: np.ndarray,
    radii: np.ndarray,
    *,
    ignore: np.ndarray | None = None,
) -> np.ndarray:
    """Where a base dragged in a straight line toward `target` stops: its first contact (for the UI).

    Uses the wrapped swept query against the same static shapes as a push, then the geometry.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    radii = np.asarray(radii, dtype=float).reshape(-1)
    start = xy[mover].copy()
    goal = np.asarray(target, dtype=float).reshape(2)
    length = float(np.hypot(*(goal - start)))
    if length <= 1e-12:
        return start
    unit = (goal - start) / length
    space, _ = build_space(table, mover, xy, radii, ignore=ignore)
    flt = pymunk.ShapeFilter()
    hits = [
        h
        for h in segment_query_all(space, tuple(start), tuple(goal), float(radii[mover]), flt)
        if h.shape.collision_type == SOLID and h.alpha > 0
    ]
    along = length * hits[0].alpha if hits else length
    along = max_free_distance(table, mover, start, unit, along, xy, radii, ignore)
    return start + unit * along
