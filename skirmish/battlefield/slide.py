"""A push's straight slide in plain floats: the first stop along it and whether it meets anything.

`physics.push` asks two questions of every push before (and instead of) any simulation: does the
straight slide stay clear of everything it could meet (`slides_clear`), and how far can the base
slide before it would first touch a base, an impassable edge or leave the table
(`max_free_distance`). Both were numpy over every base and every impassable edge of the table,
a few dozen calls on arrays of a few dozen elements: per-call overhead, not arithmetic. Here each
quantity is the numpy formula written out element by element (+, -, *, / and sqrt round the same
either way, so the same floats), and the pieces whose bounding box is out of reach of the slide
are skipped: every stop an edge can cause lies at least its distance minus the radius along the
slide, so a piece farther than the slide's length plus the radius (and a margin far above float
noise) can neither stop it nor come near it. A property test holds both to the numpy versions.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from skirmish.battlefield.table import Table

FAR_MARGIN = 1.0
"""Inches beyond the slide's reach at which a piece is skipped (any float noise is ~1e-13)."""


class SlideEdge(NamedTuple):
    """One impassable edge a-b with what the slide formulas read of it (e = b - a, its length's
    square, the unit normal (-e_y, e_x) / |e|)."""

    ax: float
    ay: float
    bx: float
    by: float
    ex: float
    ey: float
    nx: float
    ny: float
    elen2: float


SlidePiece = tuple[tuple[float, float, float, float], tuple[SlideEdge, ...]]
"""A piece's box (min x, min y, max x, max y) and its edges."""


def slide_pieces(table: Table) -> tuple[SlidePiece, ...]:
    """The table's impassable edges grouped by piece (in `imp_edges` order), built once per table
    with numpy's element-wise formulas (`e = b - a`, `|e| = sqrt(e_x e_x + e_y e_y)`)."""
    found = table.memo.get("slide_pieces")
    if isinstance(found, tuple):
        return found
    groups: dict[int, list[SlideEdge]] = {}
    for (a, b), owner in zip(table.imp_edges.tolist(), table.imp_edge_owner.tolist(), strict=True):
        ex = b[0] - a[0]
        ey = b[1] - a[1]
        elen = math.sqrt(ex * ex + ey * ey)
        d = max(elen, 1e-300)
        groups.setdefault(int(owner), []).append(
            SlideEdge(a[0], a[1], b[0], b[1], ex, ey, -ey / d, ex / d, elen * elen)
        )
    out: list[SlidePiece] = []
    for edges in groups.values():
        xs = [v for e in edges for v in (e.ax, e.bx)]
        ys = [v for e in edges for v in (e.ay, e.by)]
        out.append(((min(xs), min(ys), max(xs), max(ys)), tuple(edges)))
    pieces = tuple(out)
    table.memo["slide_pieces"] = pieces
    return pieces


def near_pieces(table: Table, sx: float, sy: float, reach: float) -> list[SlideEdge]:
    """The edges of every piece whose box comes within `reach` (plus the margin) of (sx, sy)."""
    m = reach + FAR_MARGIN
    out: list[SlideEdge] = []
    for (x0, y0, x1, y1), edges in slide_pieces(table):
        if sx < x0 - m or sx > x1 + m or sy < y0 - m or sy > y1 + m:
            continue
        out.extend(edges)
    return out


def circle_entry(sx: float, sy: float, ux: float, uy: float, cx: float, cy: float, rad: float) -> float:
    """`physics._circle_entry` for one circle: how far along the ray the point enters it (inf if never)."""
    wx = sx - cx
    wy = sy - cy
    b = wx * ux + wy * uy
    cc = (wx * wx + wy * wy) - rad * rad
    disc = b * b - cc
    t = -b - math.sqrt(disc if disc > 0.0 else 0.0)
    if disc > 0 and b < 0 and t >= -1e-9:
        return t if t > 0.0 else 0.0
    return math.inf


def first_stop(
    edges: list[SlideEdge],
    bases: list[tuple[float, float, float]],
    sx: float,
    sy: float,
    ux: float,
    uy: float,
    r: float,
    length: float,
) -> float:
    """The first distance along the slide (at most `length`) at which a base of radius `r`
    would enter a base's clearance circle (centre, clearance) or an edge's capsule: the part of
    `physics.max_free_distance` before the table sides, with its formulas in its order."""
    best = length
    for cx, cy, clear in bases:
        t = circle_entry(sx, sy, ux, uy, cx, cy, clear)
        if t < best:
            best = t
    for e in edges:
        t = circle_entry(sx, sy, ux, uy, e.ax, e.ay, r)
        if t < best:
            best = t
        t = circle_entry(sx, sy, ux, uy, e.bx, e.by, r)
        if t < best:
            best = t
        # The flat sides of the edge's capsule: lines offset by r on either side.
        for nx, ny in ((e.nx, e.ny), (-e.nx, -e.ny)):
            rate = nx * ux + ny * uy
            if not rate < 0:
                continue
            dist0 = ((sx - e.ax) * nx + (sy - e.ay) * ny) - r
            t = dist0 / -rate
            if not (dist0 >= -1e-9 and t >= 0):
                continue
            hx = sx + t * ux
            hy = sy + t * uy
            s = ((hx - e.ax) * e.ex + (hy - e.ay) * e.ey) / max(e.elen2, 1e-300)
            if s >= 0 and s <= 1 and t < best:
                best = t
    return best


def psd(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """`measure.psd_xy` for one point and one segment."""
    abx = bx - ax
    aby = by - ay
    apx = px - ax
    apy = py - ay
    t = (apx * abx + apy * aby) / max(abx * abx + aby * aby, 1e-300)
    t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
    dx = apx - t * abx
    dy = apy - t * aby
    return math.sqrt(dx * dx + dy * dy)


def ssd(ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float) -> float:
    """`measure.ssd_xy` for one pair of segments a-b, c-d (0 when they cross)."""
    ux = bx - ax
    uy = by - ay
    vx = dx - cx
    vy = dy - cy
    d1 = vx * (ay - cy) - vy * (ax - cx)
    d2 = vx * (by - cy) - vy * (bx - cx)
    d3 = ux * (cy - ay) - uy * (cx - ax)
    d4 = ux * (dy - ay) - uy * (dx - ax)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return 0.0
    return min(
        min(psd(ax, ay, cx, cy, dx, dy), psd(bx, by, cx, cy, dx, dy)),
        min(psd(cx, cy, ax, ay, bx, by), psd(dx, dy, ax, ay, bx, by)),
    )


def edge_clear(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    sx: float,
    sy: float,
    ex: float,
    ey: float,
    ux: float,
    uy: float,
    r: float,
    margin: float,
) -> bool:
    """`physics.slides_clear`'s test of one segment a-b against the slide (sx, sy)-(ex, ey): the
    slide moves away from its nearest point from the start, or stays `margin` clear of it."""
    dx = bx - ax
    dy = by - ay
    den = dx * dx + dy * dy
    t = ((sx - ax) * dx + (sy - ay) * dy) / den if den > 0 else 0.0
    t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
    qx = sx - (ax + t * dx)
    qy = sy - (ay + t * dy)
    if qx * ux + qy * uy >= 0.0:
        return math.sqrt(qx * qx + qy * qy) - r >= -margin
    return ssd(ax, ay, bx, by, sx, sy, ex, ey) - r >= margin


def base_clear(
    cx: float,
    cy: float,
    reach: float,
    sx: float,
    sy: float,
    ex: float,
    ey: float,
    ux: float,
    uy: float,
    margin: float,
) -> bool:
    """`physics.slides_clear`'s test of one base (centre, radii summed) against the slide."""
    wx = sx - cx
    wy = sy - cy
    if wx * ux + wy * uy >= 0.0:
        return math.sqrt(wx * wx + wy * wy) - reach >= -margin
    return psd(cx, cy, sx, sy, ex, ey) - reach >= margin
