"""Movement along paths (R-M2, R-M3, R-C3, R-E1, R-E2; design principle 10).

Every move is a polyline whose length is what it costs. One exact numpy kernel decides whether a
set of segments is legal (on the table, clear of impassable terrain and of other bases, no
enemy contact outside a charge); the path finder only proposes paths, and everything it returns
has passed that same kernel, so finder and checker cannot disagree.

The path finder is exact (R-C3 ruling): A* over the tangent graph of circles (other bases grown
by both radii, convex corners of impassable pieces grown by the mover's radius), whose edges are
common tangents and arcs, drawn as polylines within ARC_TOL; two economies keep it near a
millisecond: obstacles are added lazily (search with the obstacles met so far, check
the result against all, add the ones it hits, repeat: the first path that clears everything is
the shortest, since extra obstacles only lengthen paths), and edges are tested only when A*
expands a node.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import shapely

from skirmish.battlefield.measure import (
    CONTACT,
    OVERLAP_TOL,
    pair_indices,
    path_length,
    point_segment_distance,
    truncate_path,
)
from skirmish.battlefield.table import EdgeKernel, Table

LENGTH_TOL = 1e-6
"""A path may exceed its allowance by float noise only."""

NODE_MARGIN = 1e-4
"""The path finder's circles are this much larger than the exact clearance, so its tangent
segments and arcs pass the exact check with room to spare for float noise."""

ARC_TOL = 3e-4
"""A drawn arc (a polyline circumscribing the circle) is at most this much longer per radian
swept than the true arc: a path's polyline stays within 0.001" of the exact shortest length
for arcs totalling up to 3 radians (a 42-degree arc at radius 1 is drawn with 13 corners)."""

APPROACH = 0.001
"""A charge ends this far (edge to edge) from its target: touching, well inside CONTACT."""

RING = 24
"""Candidate end points around a goal disc when the straight approach is blocked."""

RING_BATCH = 10
"""Rings around an occupied goal tested per kernel call when looking for the nearest free one."""


@dataclass(frozen=True)
class PathProblem:
    """Why a path is illegal: the rule it breaks and a message naming what it hits."""

    rule: str
    message: str


# -- obstacles ----------------------------------------------------------------------------------

SMALL = 200
"""Questions of at most this many (segment, obstacle) pairs are answered in plain Python: for a
few segments numpy's per-call overhead (~1 us a call, ~40 calls a question) costs more than the
arithmetic, and a bounding-box test skips most obstacles before any arithmetic at all
(measured: Python wins up to ~16 segments against 15 obstacles, ~50 against the 2-4 obstacles
the path finder has included)."""

BOX_SLACK = 1e-9
"""Bounding-box prefilters are widened by this, so they never reject a pair the exact test would
call too close (float noise); both code paths then give the exact test's answer."""

_NO_EDGES = EdgeKernel(np.empty((0, 2, 2)), np.empty(0, dtype=np.int64), 0)


@dataclass
class _Obstacles:
    """What a mover must keep clear of: bases (centre, clearance) and impassable pieces (edges)."""

    centres: np.ndarray  # (b, 2)
    clearance: np.ndarray  # (b,) minimum centre distance
    model: np.ndarray  # (b,) model index of each base obstacle
    edges: np.ndarray  # (t, 2, 2) impassable edges
    edge_owner: np.ndarray  # (t,) which impassable piece (0..p-1)
    polys: np.ndarray  # (p,) prepared shapely polygons
    piece: np.ndarray  # (p,) table piece index
    radius: float  # the mover's radius (terrain clearance)
    kern: EdgeKernel  # the impassable edges, pre-digested (empty when flying)
    cx: np.ndarray  # (b,) base centres' x
    cy: np.ndarray  # (b,) base centres' y
    lim: np.ndarray  # (b,) clearance minus tolerance: closer than this is a violation
    lim2: np.ndarray  # (b,) its square (the kernels compare squared distances)
    tlim: float  # the mover's radius minus tolerance (terrain)
    tlim2: float
    _py: list[tuple[float, ...]] | None = None
    flying: bool = False
    """A flyer passes over impassable pieces but must land clear of them (goals are checked)."""

    @property
    def count(self) -> int:
        return len(self.centres) + len(self.polys)

    def bases_py(self) -> list[tuple[float, ...]]:
        """Bases as plain tuples for the pure-Python kernel, built on first use: centre, squared
        limit, and the box (x0, x1, y0, y1) outside which a segment's box cannot come too close."""
        if self._py is None:
            out: list[tuple[float, ...]] = []
            for cx, cy, lim, lim2 in zip(
                self.cx.tolist(), self.cy.tolist(), self.lim.tolist(), self.lim2.tolist(), strict=True
            ):
                w = lim + BOX_SLACK
                out.append((cx, cy, lim2, cx - w, cx + w, cy - w, cy + w))
            self._py = out
        return self._py


def _obstacles(
    table: Table,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray | None,
    start: np.ndarray,
    *,
    flying: bool,
    ignore: np.ndarray | None,
    target: int | None,
    contact: bool = True,
) -> _Obstacles:
    """Obstacles for a mover starting at `start`.

    Enemies get a clearance of CONTACT more than overlap (no contact outside a charge, R-M3),
    except an enemy the mover already touches at the start (it may move away along it, R-E2) and
    the charge target (which it may touch, R-C3).
    """
    n = len(xy)
    r = float(radii[mover])
    keep = np.ones(n, dtype=bool)
    keep[mover] = False
    if ignore is not None:
        keep &= ~np.asarray(ignore, dtype=bool)
    idx = np.flatnonzero(keep)
    centres = xy[idx]
    clear = radii[idx] + r
    if enemy is not None and contact:
        en = np.asarray(enemy, dtype=bool)[idx]
        d0 = np.sqrt(((centres - start) ** 2).sum(-1))
        touching = d0 <= clear + CONTACT + 1e-9
        grow = en & ~touching
        if target is not None:
            grow &= idx != target
        clear = clear + np.where(grow, CONTACT + 1e-7, 0.0)
    if flying or len(table.impassable_index) == 0:
        edges = np.empty((0, 2, 2))
        owner = np.empty(0, dtype=int)
        polys = np.empty(0, dtype=object)
        piece = np.empty(0, dtype=int)
        kern = _NO_EDGES
    else:
        edges, owner = table.imp_edges, table.imp_edge_owner
        piece = table.impassable_index
        polys = table.polygons[piece]
        kern = table.imp_kernel
    lim = clear - OVERLAP_TOL
    tlim = r - OVERLAP_TOL
    return _Obstacles(
        centres,
        clear,
        idx,
        edges,
        owner,
        polys,
        piece,
        r,
        kern,
        np.ascontiguousarray(centres[:, 0]),
        np.ascontiguousarray(centres[:, 1]),
        lim,
        lim * lim,
        tlim,
        tlim * tlim,
        flying=bool(flying and len(table.impassable_index)),
    )


def _pip(edges: tuple[tuple[float, ...], ...], x: float, y: float) -> bool:
    """Even-odd point in polygon over every ring edge of a piece (holes and parts included).

    Only asked of points farther than the mover's radius from every edge (nearer ones are already
    violations), so boundary conventions never matter.
    """
    inside = False
    for ax, ay, ux, uy, _inv, _bx, by in edges:
        if (ay > y) != (by > y) and x < ax + (y - ay) * ux / uy:
            inside = not inside
    return inside


def _seg_hits(
    obs: _Obstacles,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    bsel: Iterable[int],
    psel: Iterable[int],
    ends_outside: bool,
    first: bool,
) -> tuple[list[int], list[int]]:
    """The bases and pieces that segment (x0, y0)-(x1, y1) comes too close to, in plain floats.

    The same formulas in the same order as the numpy kernels (IEEE doubles give the same
    answers), behind bounding-box rejections widened by BOX_SLACK. `first` stops at the first
    hit (the path finder only needs to know whether a segment is clear).
    """
    hit_b: list[int] = []
    hit_t: list[int] = []
    abx = x1 - x0
    aby = y1 - y0
    inv = 1.0 / max(abx * abx + aby * aby, 1e-300)
    lox, hix = (x0, x1) if x0 <= x1 else (x1, x0)
    loy, hiy = (y0, y1) if y0 <= y1 else (y1, y0)
    bases = obs.bases_py()
    for j in bsel:
        cx, cy, lim2, bx0, bx1, by0, by1 = bases[j]
        if bx1 < lox or bx0 > hix or by1 < loy or by0 > hiy:
            continue
        apx = cx - x0
        apy = cy - y0
        t = (apx * abx + apy * aby) * inv
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        dx = apx - t * abx
        dy = apy - t * aby
        if dx * dx + dy * dy < lim2:
            hit_b.append(j)
            if first:
                return hit_b, hit_t
    pieces = obs.kern.py
    tl = obs.tlim + BOX_SLACK
    tl2 = obs.tlim2
    for k in psel:
        (bx0, by0, bx1, by1), edges = pieces[k]
        if bx1 + tl < lox or bx0 - tl > hix or by1 + tl < loy or by0 - tl > hiy:
            continue
        hit = False
        for ax, ay, ux, uy, einv, bx, by in edges:
            # Segment ends to the edge.
            apx = x0 - ax
            apy = y0 - ay
            t = (apx * ux + apy * uy) * einv
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            dx = apx - t * ux
            dy = apy - t * uy
            if dx * dx + dy * dy < tl2:
                hit = True
                break
            bpx = x1 - ax
            bpy = y1 - ay
            t = (bpx * ux + bpy * uy) * einv
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            dx = bpx - t * ux
            dy = bpy - t * uy
            if dx * dx + dy * dy < tl2:
                hit = True
                break
            # Edge ends to the segment.
            qx = ax - x0
            qy = ay - y0
            t = (qx * abx + qy * aby) * inv
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            dx = qx - t * abx
            dy = qy - t * aby
            if dx * dx + dy * dy < tl2:
                hit = True
                break
            rx = bx - x0
            ry = by - y0
            t = (rx * abx + ry * aby) * inv
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            dx = rx - t * abx
            dy = ry - t * aby
            if dx * dx + dy * dy < tl2:
                hit = True
                break
            # A proper crossing.
            if (ux * apy - uy * apx) * (ux * bpy - uy * bpx) < 0.0 and (abx * qy - aby * qx) * (
                abx * ry - aby * rx
            ) < 0.0:
                hit = True
                break
        if not hit and not ends_outside:
            hit = _pip(edges, x0, y0) or _pip(edges, x1, y1)
        if hit:
            hit_t.append(k)
            if first:
                return hit_b, hit_t
    return hit_b, hit_t


def _violations_py(
    obs: _Obstacles,
    p0: np.ndarray,
    p1: np.ndarray,
    base_sel: np.ndarray | None,
    piece_sel: np.ndarray | None,
    ends_outside: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """`_violations` for a few segments: `_seg_hits` on each."""
    m = len(p0)
    nb = len(obs.centres)
    npc = len(obs.polys)
    bad_b = np.zeros((m, nb), dtype=bool)
    bad_t = np.zeros((m, npc), dtype=bool)
    bsel = range(nb) if base_sel is None else base_sel.tolist()
    psel = range(npc) if piece_sel is None else piece_sel.tolist()
    for i, ((x0, y0), (x1, y1)) in enumerate(zip(p0.tolist(), p1.tolist(), strict=True)):
        hb, ht = _seg_hits(obs, x0, y0, x1, y1, bsel, psel, ends_outside, False)
        if hb:
            bad_b[i, hb] = True
        if ht:
            bad_t[i, ht] = True
    return bad_b, bad_t


def _seg_point_d2(
    px: np.ndarray,
    py: np.ndarray,
    ax: np.ndarray,
    ay: np.ndarray,
    ux: np.ndarray,
    uy: np.ndarray,
    inv: np.ndarray,
) -> np.ndarray:
    """Squared distance from points p to segments a + t u (t in 0..1), 1/|u|^2 given (broadcast)."""
    apx = px - ax
    apy = py - ay
    t = (apx * ux + apy * uy) * inv
    t = np.minimum(np.maximum(t, 0.0), 1.0)
    dx = apx - t * ux
    dy = apy - t * uy
    return dx * dx + dy * dy


def _violations(
    obs: _Obstacles,
    p0: np.ndarray,
    p1: np.ndarray,
    base_sel: np.ndarray | None = None,
    piece_sel: np.ndarray | None = None,
    ends_outside: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """(m, b) and (m, p) bool: segment i comes too close to base obstacle j / impassable piece j.

    Exact: a base is too close when its centre is nearer the segment than the clearance; a piece
    when the segment comes nearer than the mover's radius to one of its edges (segment-to-segment
    distance: the four end-to-segment distances, or a proper crossing) or an end lies inside it.
    Pieces whose bounding box (grown by the radius) misses a segment's box are skipped for it.
    `*_sel` restrict the obstacles tested (the lazily included ones); `ends_outside` skips the
    inside test when both ends are known to be legal points. `p0 is p1` asks about points.
    """
    m = len(p0)
    nb = len(obs.centres)
    npc = len(obs.polys)
    if m == 0:
        return np.zeros((0, nb), dtype=bool), np.zeros((0, npc), dtype=bool)
    work = m * ((nb if base_sel is None else len(base_sel)) + (npc if piece_sel is None else len(piece_sel)))
    if work <= SMALL:
        return _violations_py(obs, p0, p1, base_sel, piece_sel, ends_outside)
    points = p0 is p1
    x0 = p0[:, 0:1]
    y0 = p0[:, 1:2]
    x1 = p1[:, 0:1]
    y1 = p1[:, 1:2]
    if not points:
        abx = x1 - x0
        aby = y1 - y0
        inv = 1.0 / np.maximum(abx * abx + aby * aby, 1e-300)
    # Bases: the distance from each centre to each segment.
    if base_sel is None:
        cx, cy, lim2 = obs.cx, obs.cy, obs.lim2
    else:
        cx, cy, lim2 = obs.cx[base_sel], obs.cy[base_sel], obs.lim2[base_sel]
    if len(cx) == 0:
        hit_b = np.zeros((m, 0), dtype=bool)
    elif points:
        dx = cx - x0
        dy = cy - y0
        hit_b = dx * dx + dy * dy < lim2
    else:
        hit_b = _seg_point_d2(cx, cy, x0, y0, abx, aby, inv) < lim2
    if base_sel is None:
        bad_b = hit_b
    else:
        bad_b = np.zeros((m, nb), dtype=bool)
        bad_b[:, base_sel] = hit_b
    bad_t = np.zeros((m, npc), dtype=bool)
    if npc == 0:
        return bad_b, bad_t
    # Pieces: bounding boxes first.
    k = obs.kern
    if piece_sel is not None:
        piece_sel = np.unique(piece_sel)  # sorted: selected edges stay grouped in piece order
    box = k.box if piece_sel is None else k.box[piece_sel]
    if len(box) == 0:
        return bad_b, bad_t
    tl = obs.tlim + BOX_SLACK
    if points:
        lox = hix = x0
        loy = hiy = y0
    else:
        lox = np.minimum(x0, x1)
        hix = np.maximum(x0, x1)
        loy = np.minimum(y0, y1)
        hiy = np.maximum(y0, y1)
    near = (
        (lox <= box[:, 2] + tl) & (hix >= box[:, 0] - tl) & (loy <= box[:, 3] + tl) & (hiy >= box[:, 1] - tl)
    )
    cols = np.flatnonzero(near.any(axis=0))
    if len(cols) == 0:
        return bad_b, bad_t
    pcs = cols if piece_sel is None else np.asarray(piece_sel)[cols]
    rows = np.flatnonzero(near[:, cols].any(axis=1))
    e: slice | np.ndarray
    if len(pcs) == k.count:
        e = slice(None)
        starts = k.starts
    else:
        want = np.zeros(k.count, dtype=bool)
        want[pcs] = True
        e = want[k.owner]
        starts = np.concatenate([[0], np.cumsum(k.sizes[pcs])[:-1]])
    ax, ay, ux, uy, einv, bx, by = k.ax[e], k.ay[e], k.ux[e], k.uy[e], k.inv[e], k.bx[e], k.by[e]
    sx0, sy0 = (x0, y0) if len(rows) == m else (x0[rows], y0[rows])
    tl2 = obs.tlim2
    if points:
        hit = _seg_point_d2(sx0, sy0, ax, ay, ux, uy, einv) < tl2
    else:
        sx1, sy1 = (x1, y1) if len(rows) == m else (x1[rows], y1[rows])
        sbx, sby, sinv = (abx, aby, inv) if len(rows) == m else (abx[rows], aby[rows], inv[rows])
        d2 = np.minimum(
            np.minimum(
                _seg_point_d2(sx0, sy0, ax, ay, ux, uy, einv), _seg_point_d2(sx1, sy1, ax, ay, ux, uy, einv)
            ),
            np.minimum(
                _seg_point_d2(ax, ay, sx0, sy0, sbx, sby, sinv),
                _seg_point_d2(bx, by, sx0, sy0, sbx, sby, sinv),
            ),
        )
        # A proper crossing (the same cross products as the plain-Python kernel).
        apx = sx0 - ax
        apy = sy0 - ay
        bpx = sx1 - ax
        bpy = sy1 - ay
        qx = ax - sx0
        qy = ay - sy0
        rx = bx - sx0
        ry = by - sy0
        cross = ((ux * apy - uy * apx) * (ux * bpy - uy * bpx) < 0.0) & (
            (sbx * qy - sby * qx) * (sbx * ry - sby * rx) < 0.0
        )
        hit = (d2 < tl2) | cross
    per_piece = np.logical_or.reduceat(hit, starts, axis=1)
    if not ends_outside:
        for c, j in enumerate(pcs.tolist()):
            poly = obs.polys[j]
            if points:
                inside = shapely.contains_xy(poly, sx0[:, 0], sy0[:, 0])
            else:
                inside = shapely.contains_xy(poly, sx0[:, 0], sy0[:, 0]) | shapely.contains_xy(
                    poly, sx1[:, 0], sy1[:, 0]
                )
            per_piece[:, c] |= inside
    bad_t[np.ix_(rows, pcs)] = per_piece
    return bad_b, bad_t


def _off_table(table: Table, pts: np.ndarray, r: float) -> np.ndarray:
    lo = r - 1e-9
    return (
        (pts[:, 0] < lo) | (pts[:, 0] > table.width - lo) | (pts[:, 1] < lo) | (pts[:, 1] > table.height - lo)
    )


# -- checking -----------------------------------------------------------------------------------


def check_path(
    table: Table,
    path: np.ndarray,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    max_length: float,
    flying: bool = False,
    contact_target: int | None = None,
    ignore: np.ndarray | None = None,
) -> PathProblem | None:
    """The whole path's legality (R-M2, R-M3, R-C3); None when legal, else the first problem.

    Legal: finite points, length <= max_length, every point on the table (whole base), never
    closer to an impassable piece than the mover's radius (unless flying, R-B4), never
    overlapping another base, never within CONTACT of an enemy it did not start touching, and,
    for a charge, ending in base contact with `contact_target`.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    radii = np.asarray(radii, dtype=float).reshape(-1)
    p = np.asarray(path, dtype=float).reshape(-1, 2)
    if len(p) == 0:
        return PathProblem("R-M2", "the path is empty")
    if not np.isfinite(p).all():
        return PathProblem("R-M2", "the path has a non-finite point")
    length = path_length(p)
    if length > max_length + LENGTH_TOL:
        return PathProblem("R-M2", f'the path is {length:.2f}" long; the allowance is {max_length:.2f}"')
    r = float(radii[mover])
    if _off_table(table, p, r).any():
        return PathProblem("R-M2", "the path leaves the table")
    if flying and not table.clear_of_impassable(p[-1:], r)[0]:
        return PathProblem(
            "R-B4", "a flying model passes over impassable terrain but may not end its move on it"
        )
    p0 = p[:-1] if len(p) > 1 else p
    p1 = p[1:] if len(p) > 1 else p
    obs = _obstacles(
        table, mover, xy, radii, enemy, p[0], flying=flying, ignore=ignore, target=contact_target
    )
    bad_b, bad_t = _violations(obs, p0, p1)
    if bad_t.any():
        j = int(np.flatnonzero(bad_t.any(axis=0))[0])
        name = str(table.names[obs.piece[j]]).replace("_", " ")
        return PathProblem("R-M2", f"crosses impassable terrain ({name})")
    if bad_b.any():
        j = int(np.flatnonzero(bad_b.any(axis=0))[0])
        m = int(obs.model[j])
        d = point_segment_distance(xy[m], p0, p1).min()
        if d < radii[m] + r - OVERLAP_TOL:
            return PathProblem("R-M2", f"passes through the base of model {m}")
        return PathProblem("R-M3", f"comes into base contact with enemy model {m}")
    end = p[-1]
    en = np.asarray(enemy, dtype=bool)
    # Enemies touched at the start may be moved away along, but the move may not end in contact.
    gap = np.sqrt(((xy - end) ** 2).sum(-1)) - radii - r
    still = en & (gap <= CONTACT)
    still[mover] = False
    if ignore is not None:
        still &= ~np.asarray(ignore, dtype=bool)
    if contact_target is not None:
        still[contact_target] = False
        g = float(gap[contact_target])
        if g > CONTACT:
            return PathProblem("R-C3", f'ends {g:.2f}" from the target, not in base contact')
    if still.any():
        return PathProblem("R-M3", f"ends in base contact with enemy model {int(np.flatnonzero(still)[0])}")
    return None


def check_straight_moves(
    table: Table,
    mover: int,
    starts: np.ndarray,
    ends: np.ndarray,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    max_length: float,
    flying: bool = False,
    ignore: np.ndarray | None = None,
) -> np.ndarray:
    """Batch form of `check_path` for many straight moves of one mover: (m,) bool legal.

    The same rules as `check_path` (without a charge target); enemies touched at the start of
    each move may be moved away from. One set of numpy kernels for all the moves.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    radii = np.asarray(radii, dtype=float).reshape(-1)
    s = np.asarray(starts, dtype=float).reshape(-1, 2)
    e = np.asarray(ends, dtype=float).reshape(-1, 2)
    s = np.broadcast_to(s, e.shape) if len(s) == 1 else s
    r = float(radii[mover])
    obs = _obstacles(table, mover, xy, radii, None, s[0], flying=flying, ignore=ignore, target=None)
    if len(e) <= STRAIGHT_SMALL:
        ok_py = _straight_py(table, obs, s, e, np.asarray(enemy, dtype=bool)[obs.model], max_length)
        return ok_py & table.clear_of_impassable(e, r) if flying else ok_py
    d = e - s
    ok = np.sqrt((d * d).sum(-1)) <= max_length + LENGTH_TOL
    ok &= np.isfinite(e).all(axis=1) & ~_off_table(table, e, r) & ~_off_table(table, s, r)
    if flying:
        ok &= table.clear_of_impassable(e, r)
    bad_b, bad_t = _violations(obs, s, e)
    ok &= ~bad_b.any(axis=1) & ~bad_t.any(axis=1)
    en = np.asarray(enemy, dtype=bool)[obs.model]
    if en.any():
        c = obs.centres[en]
        lim = obs.clearance[en] + CONTACT
        at_start = np.sqrt(((s[:, None, :] - c[None]) ** 2).sum(-1)) <= lim[None] + 1e-9
        near = point_segment_distance(c[None], s[:, None, :], e[:, None, :]) <= lim[None]
        at_end = np.sqrt(((e[:, None, :] - c[None]) ** 2).sum(-1)) <= lim[None]
        ok &= ~((near & ~at_start) | at_end).any(axis=1)
    return ok


STRAIGHT_SMALL = 24
"""Batches of at most this many straight moves are checked in plain Python (see `SMALL`)."""


def _straight_py(
    table: Table, obs: _Obstacles, s: np.ndarray, e: np.ndarray, en: np.ndarray, max_length: float
) -> np.ndarray:
    """`check_straight_moves` for a few moves, in plain floats with the numpy path's formulas."""
    r = obs.radius
    lo = r - 1e-9
    hx = table.width - lo
    hy = table.height - lo
    ok = np.zeros(len(e), dtype=bool)
    bad_b, bad_t = _violations(obs, s, e)
    blocked: list[bool] = np.asarray(bad_b.any(axis=1) | bad_t.any(axis=1)).tolist()
    foes = [
        (cx, cy, c + CONTACT)
        for cx, cy, c, f in zip(
            obs.cx.tolist(), obs.cy.tolist(), obs.clearance.tolist(), en.tolist(), strict=True
        )
        if f
    ]
    for i, ((sx, sy), (ex, ey)) in enumerate(zip(s.tolist(), e.tolist(), strict=True)):
        if blocked[i] or not (math.isfinite(ex) and math.isfinite(ey)):
            continue
        if sx < lo or sx > hx or sy < lo or sy > hy or ex < lo or ex > hx or ey < lo or ey > hy:
            continue
        abx = ex - sx
        aby = ey - sy
        if math.sqrt(abx * abx + aby * aby) > max_length + LENGTH_TOL:
            continue
        den = max(abx * abx + aby * aby, 1e-300)
        good = True
        for cx, cy, lim in foes:
            dx = ex - cx
            dy = ey - cy
            if math.sqrt(dx * dx + dy * dy) <= lim:  # ends in contact
                good = False
                break
            apx = cx - sx
            apy = cy - sy
            t = (apx * abx + apy * aby) / den
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            dx = apx - t * abx
            dy = apy - t * aby
            if math.sqrt(dx * dx + dy * dy) <= lim:  # passes in contact, unless touching at the start
                dx = sx - cx
                dy = sy - cy
                if not math.sqrt(dx * dx + dy * dy) <= lim + 1e-9:
                    good = False
                    break
        ok[i] = good
    return ok


# -- searching ----------------------------------------------------------------------------------


def _convex_vertices(table: Table, k: int) -> np.ndarray:
    """The convex corners of impassable piece k (every ring, holes included), memoised on the table.

    A shortest path touches a piece grown by the mover's radius only along the arcs around its
    convex corners and the offset edges between them (the outer common tangents of neighbouring
    corner circles), so these corners, as circles of the mover's radius, are all the search needs.
    """
    key = ("convex_vertices", k)
    hit = table.memo.get(key)
    if hit is None:
        rings: list[np.ndarray] = []
        for part in shapely.get_parts(table.polygons[table.impassable_index[k]]):
            part = shapely.geometry.polygon.orient(part, 1.0)  # exterior ccw, holes cw: inside on the left
            for ring in [part.exterior, *part.interiors]:
                c = np.asarray(ring.coords, dtype=float)[:-1]
                e1 = c - np.roll(c, 1, axis=0)
                e2 = np.roll(c, -1, axis=0) - c
                rings.append(c[e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0] > 1e-12])
        hit = np.concatenate(rings) if rings else np.empty((0, 2))
        table.memo[key] = hit
    assert isinstance(hit, np.ndarray)
    return hit


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
    base = np.arctan2(uy[k], ux[k])
    alpha = np.arccos(rad[k] / d[k])
    disc = np.concatenate([k, k])
    ang = np.concatenate([base + alpha, base - alpha])
    r = rad[disc]
    return disc, cx[disc] + r * np.cos(ang), cy[disc] + r * np.sin(ang), np.flatnonzero(~out)


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


def _legal_points(
    table: Table,
    obs: _Obstacles,
    pts: np.ndarray,
    base_sel: np.ndarray | None = None,
    piece_sel: np.ndarray | None = None,
) -> np.ndarray:
    """Per point: on the table and clear of the obstacles (all, or only the selected ones)."""
    if len(pts) == 0:
        return np.zeros(0, dtype=bool)
    bad_b, bad_t = _violations(obs, pts, pts, base_sel, piece_sel)
    return ~_off_table(table, pts, obs.radius) & ~bad_b.any(axis=1) & ~bad_t.any(axis=1)


def _astar(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    inc_b: np.ndarray,
    inc_t: np.ndarray,
    ring: np.ndarray,
) -> np.ndarray | None:
    """A* from start to the disc (centre, goal_r) over the tangent graph of the included obstacles.

    The obstacles are circles (bases grown by both radii, convex corners of pieces grown by the
    mover's radius, see `_discs`): a shortest path among them is straight segments along common
    tangents and arcs along circles, so the graph's nodes are the tangent points (start to
    circle, circle to circle, goal centre to circle) and its edges those tangent segments and the
    arcs between angularly neighbouring points of one circle; each node also finishes straight
    toward the goal centre, stopping on the goal circle, or at one of the legal `ring` points.
    Costs are exact (arc length R x angle), so the path found is the exact shortest among the
    included obstacles (with NODE_MARGIN); it is drawn as a polyline (`_arc`) within ARC_TOL.

    Lazy in its edges: a node's edges are pushed unchecked and a segment (or drawn arc) is
    tested only when its entry comes off the heap, dropped if blocked. With a consistent
    heuristic (distance to the goal circle) this pops what checking every edge up front would.
    """
    cx, cy, rad = _discs(table, obs, inc_b, inc_t)
    sx, sy = float(start[0]), float(start[1])
    gx, gy = float(centre[0]), float(centre[1])
    # Tangent points: circle to circle (paired), start to circle, goal centre to circle.
    ba, bax, bay, bb, bbx, bby = _bitangents(cx, cy, rad)
    sd, stx, sty, s_on = _point_tangents(sx, sy, cx, cy, rad)
    gd, gtx, gty, _ = _point_tangents(gx, gy, cx, cy, rad)
    nt = len(ba)
    disc = np.concatenate([ba, bb, sd, gd, s_on])
    xs = np.concatenate([bax, bbx, stx, gtx, np.full(len(s_on), sx)])
    ys = np.concatenate([bay, bby, sty, gty, np.full(len(s_on), sy)])
    # partner: the other end of a node's tangent segment (node ids are 1 + position; 0 is the start).
    pos = np.arange(len(disc))
    partner = np.concatenate(
        [
            1 + nt + pos[:nt],
            1 + pos[:nt],
            np.zeros(len(sd), dtype=np.int64),
            np.full(len(gd), -1),
            np.zeros(len(s_on), dtype=np.int64),
        ]
    )
    legal = np.ones(len(disc), dtype=bool)
    # Nodes are judged against the included obstacles only: a node that only a left-out obstacle
    # forbids stays, so a path through it makes the lazy loop include that obstacle (dropping it
    # here would hide the route around that obstacle, and the loop would settle for a longer one).
    legal[: len(disc) - len(s_on)] = _legal_points(
        table, obs, np.stack([xs, ys], axis=-1)[: len(disc) - len(s_on)], inc_b, inc_t
    )
    legal[:nt] &= legal[nt : 2 * nt]
    legal[nt : 2 * nt] = legal[:nt]
    keep = np.flatnonzero(legal)
    # Renumber the kept nodes 1..n-1 (0 is the start) and order each circle's nodes by angle.
    ang = np.arctan2(ys[keep] - cy[disc[keep]], xs[keep] - cx[disc[keep]])
    order = np.lexsort((ang, disc[keep]))
    kept = keep[order]
    new_id = np.full(len(disc) + 1, -1, dtype=np.int64)
    new_id[0] = 0
    new_id[1 + kept] = 1 + np.arange(len(kept))
    part = partner[kept]
    part = np.where(part > 0, new_id[np.maximum(part, 0)], part)  # -1 stays -1 (goal tangents)
    n = 1 + len(kept)
    node_disc = [-1, *disc[kept].tolist()]
    node_ang = [0.0, *ang[order].tolist()]
    px = [sx, *xs[kept].tolist()]
    py = [sy, *ys[kept].tolist()]
    node_part = [-1, *part.tolist()]
    # Angular neighbours on each circle (cyclic), as next/prev node ids.
    nxt = list(range(n))
    prv = list(range(n))
    dl = node_disc
    lo = 1
    while lo < n:
        hi = lo
        while hi + 1 < n and dl[hi + 1] == dl[lo]:
            hi += 1
        if hi > lo:
            for v in range(lo, hi + 1):
                nxt[v] = v + 1 if v < hi else lo
                prv[v] = v - 1 if v > lo else hi
        lo = hi + 1
    start_children = [v for v in range(1, n) if node_part[v] == 0]
    rings = ring.tolist() if goal_r > 0 else []
    n_ring = len(rings)
    fin = n + n_ring  # the virtual straight finish (its end point depends on the parent)
    hl = [max(math.hypot(px[v] - gx, py[v] - gy) - goal_r, 0.0) for v in range(n)]
    cxl, cyl, radl = cx.tolist(), cy.tolist(), rad.tolist()
    bsel = inc_b.tolist()
    psel = inc_t.tolist()
    lo_x = obs.radius - 1e-9
    hi_x = table.width - lo_x
    hi_y = table.height - lo_x
    g = [math.inf] * (fin + 1)
    parent = [-1] * (fin + 1)
    geom: list[list[tuple[float, float]]] = [[] for _ in range(fin + 1)]
    closed = [False] * (fin + 1)
    heap: list[tuple[float, int, int, int, float]] = [(hl[0], 0, -1, 0, 0.0)]
    while heap:
        _, v, u, turn, gv = heapq.heappop(heap)
        if closed[v]:
            continue
        if u >= 0:
            x0, y0 = px[u], py[u]
            if v == fin:
                dx, dy = x0 - gx, y0 - gy
                dc = math.hypot(dx, dy)
                k = goal_r / dc if dc > 0 else 0.0
                pts = [(gx + dx * k, gy + dy * k)]
            elif v > n - 1:
                pts = [tuple(rings[v - n])]
            elif turn:
                j = node_disc[v]
                a0 = node_ang[u]
                sweep = (node_ang[v] - a0) * turn % (2 * math.pi)
                pts = _arc(cxl[j], cyl[j], radl[j], a0, sweep, turn, (px[v], py[v]))
            else:
                pts = [(px[v], py[v])]
            blocked = False
            for x1, y1 in pts:
                if x1 < lo_x or x1 > hi_x or y1 < lo_x or y1 > hi_y:
                    blocked = True
                    break
                hb, ht = _seg_hits(obs, x0, y0, x1, y1, bsel, psel, True, True)
                if hb or ht:
                    blocked = True
                    break
                x0, y0 = x1, y1
            if blocked:
                continue
            if v == fin and not (
                not any(_seg_hits(obs, x0, y0, x0, y0, bsel, psel, False, True))
                and _lands(table, obs, np.array([[x0, y0]]))[0]
            ):
                continue
            g[v] = gv
            parent[v] = u
            geom[v] = pts
        else:
            g[v] = 0.0
        closed[v] = True
        if v >= n or (goal_r > 0 and hl[v] <= 1e-9) or (goal_r == 0 and v < n and hl[v] <= 1e-12):
            chain: list[tuple[float, float]] = []
            w = v
            while parent[w] != -1:
                chain[:0] = geom[w]
                w = parent[w]
            chain.insert(0, (sx, sy))
            return np.array(chain)
        ux, uy = px[v], py[v]
        # Tangent segment, arcs to the circle's neighbours, then the finishes.
        targets = start_children if v == 0 else ([node_part[v]] if node_part[v] > 0 else [])
        for w in targets:
            if not closed[w]:
                c = gv + math.hypot(px[w] - ux, py[w] - uy)
                heapq.heappush(heap, (c + hl[w], w, v, 0, c))
        if v > 0 and nxt[v] != v:
            j = node_disc[v]
            for w, turn in ((nxt[v], 1), (prv[v], -1)):
                if not closed[w]:
                    sweep = (node_ang[w] - node_ang[v]) * turn % (2 * math.pi)
                    c = gv + radl[j] * sweep
                    heapq.heappush(heap, (c + hl[w], w, v, turn, c))
        dc = math.hypot(ux - gx, uy - gy)
        if dc > goal_r + 1e-12:
            c = gv + dc - goal_r
            heapq.heappush(heap, (c, fin, v, 0, c))
        for r, (qx, qy) in enumerate(rings):
            c = gv + math.hypot(qx - ux, qy - uy)
            heapq.heappush(heap, (c, n + r, v, 0, c))
    return None


def _legal_point_py(table: Table, obs: _Obstacles, x: float, y: float) -> bool:
    """`_legal_points` for one point in plain floats (on the table, clear of every obstacle)."""
    lo = obs.radius - 1e-9
    if x < lo or x > table.width - lo or y < lo or y > table.height - lo:
        return False
    hb, ht = _seg_hits(obs, x, y, x, y, range(len(obs.centres)), range(len(obs.polys)), False, True)
    return not hb and not ht


def _lands(table: Table, obs: _Obstacles, pts: np.ndarray) -> np.ndarray:
    """Per point: the mover may end there as far as terrain goes (only flyers need the check)."""
    if not obs.flying:
        return np.ones(len(pts), dtype=bool)
    return table.clear_of_impassable(pts, obs.radius)


SEARCH_MEMO = 1024
"""Searches remembered per table (one record per question, oldest forgotten first)."""


@dataclass
class _SearchRecord:
    """One search's answer and everything it asked of the obstacles it did not go around.

    `_search_now` judges every base only through "does this segment (or point) come too close
    to it": the straight first try, the goal and ring points, and each round's path; the rest of
    its work (the A* rounds) sees only the bases it included. So the same question with some
    bases moved has the same answer, bit for bit, if none of the moved bases was included and
    none comes too close to any of those probes, before or after its move (`_search`)."""

    cx: np.ndarray
    cy: np.ndarray
    clearance: np.ndarray
    lim2: np.ndarray
    included: frozenset[int]
    probes: list[tuple[float, float, float, float]]
    path: np.ndarray | None


def _probe_hit(cx: float, cy: float, lim2: float, probes: list[tuple[float, float, float, float]]) -> bool:
    """Whether a base (centre, squared limit) comes too close to any probe segment, by the same
    formula in the same order as `_seg_hits` and `_violations` (points are zero-length segments)."""
    for x0, y0, x1, y1 in probes:
        abx = x1 - x0
        aby = y1 - y0
        inv = 1.0 / max(abx * abx + aby * aby, 1e-300)
        apx = cx - x0
        apy = cy - y0
        t = (apx * abx + apy * aby) * inv
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        dx = apx - t * abx
        dy = apy - t * aby
        if dx * dx + dy * dy < lim2:
            return True
    return False


def _search(
    table: Table, obs: _Obstacles, start: np.ndarray, centre: np.ndarray, goal_r: float
) -> np.ndarray | None:
    """`_search_now`, memoised on the table: the same question (start, goal, mover, which models
    stand where by index) asked again after some models moved reuses the answer when the record
    proves the search would not have noticed them (see `_SearchRecord`)."""
    key = (
        start.tobytes(),
        centre.tobytes(),
        goal_r,
        obs.radius,
        obs.flying,
        obs.model.tobytes(),
        len(obs.polys),
    )
    memo = table.search_memo
    rec = memo.get(key)
    assert rec is None or isinstance(rec, _SearchRecord)
    if rec is not None and len(rec.cx) == len(obs.cx):
        changed = np.flatnonzero((rec.cx != obs.cx) | (rec.cy != obs.cy) | (rec.clearance != obs.clearance))
        ok = True
        for j in changed.tolist():
            if (
                j in rec.included
                or _probe_hit(float(rec.cx[j]), float(rec.cy[j]), float(rec.lim2[j]), rec.probes)
                or _probe_hit(float(obs.cx[j]), float(obs.cy[j]), float(obs.lim2[j]), rec.probes)
            ):
                ok = False
                break
        if ok:
            return None if rec.path is None else rec.path.copy()
    probes: list[tuple[float, float, float, float]] = []
    included: set[int] = set()
    path = _search_now(table, obs, start, centre, goal_r, probes, included)
    if key not in memo and len(memo) >= SEARCH_MEMO:
        memo.pop(next(iter(memo)))
    memo[key] = _SearchRecord(
        obs.cx.copy(),
        obs.cy.copy(),
        obs.clearance.copy(),
        obs.lim2.copy(),
        frozenset(included),
        probes,
        None if path is None else path.copy(),
    )
    return path


def _search_now(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    probes: list[tuple[float, float, float, float]],
    included: set[int],
) -> np.ndarray | None:
    """Shortest legal path from start to the disc (centre, goal_r), lazily adding obstacles.

    Every segment and point judged against all bases is appended to `probes`, and every base
    the search went around to `included` (what `_search` needs to reuse the answer)."""
    # Fast path: the straight line to the nearest point of the goal is the shortest when it is clear.
    dc = float(np.hypot(*(start - centre)))
    if goal_r > 0 and dc > goal_r:
        direct = centre + (start - centre) * (goal_r / dc)
    elif goal_r > 0:
        direct = None
    else:
        direct = centre
    inc_b = np.empty(0, dtype=int)
    inc_t = np.empty(0, dtype=int)
    if direct is not None:
        (x0, y0), (x1, y1) = start.tolist(), direct.tolist()
        probes.append((x0, y0, x1, y1))
        probes.append((x1, y1, x1, y1))
        hit_b, hit_t = _seg_hits(
            obs, x0, y0, x1, y1, range(len(obs.centres)), range(len(obs.polys)), False, False
        )
        if _legal_point_py(table, obs, x1, y1) and _lands(table, obs, direct[None, :])[0]:
            if not hit_b and not hit_t:
                return np.array([start, direct]) if dc > 1e-12 else start[None, :].copy()
            if dc > 1e-12:
                # A* around no obstacles would return this same straight line (the goal point is
                # legal), and the lazy loop would then add what it hits: start from there.
                inc_b = np.array(hit_b, dtype=np.int64)
                inc_t = np.array(hit_t, dtype=np.int64)
                included.update(hit_b)
    if goal_r > 0:
        ang = np.arange(RING) * (2 * math.pi / RING)
        ring = centre + goal_r * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
        probes.extend((x, y, x, y) for x, y in ring.tolist())
        ring = ring[_legal_points(table, obs, ring)]
        ring = ring[_lands(table, obs, ring)]
    else:
        ring = np.empty((0, 2))
        gx, gy = centre.tolist()
        probes.append((gx, gy, gx, gy))
        if not _legal_points(table, obs, centre[None, :])[0] or not _lands(table, obs, centre[None, :])[0]:
            return None
    for _ in range(obs.count + 1):
        path = _astar(table, obs, start, centre, goal_r, inc_b, inc_t, ring)
        if path is None:
            return None
        if len(path) == 1:
            return path
        pts = path.tolist()
        probes.extend((x0, y0, x1, y1) for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:], strict=True))
        bad_b, bad_t = _violations(obs, path[:-1], path[1:])
        new_b: set[int] = set(np.flatnonzero(bad_b.any(axis=0)).tolist())
        new_t: set[int] = set(np.flatnonzero(bad_t.any(axis=0)).tolist())
        have_b: set[int] = set(inc_b.tolist())
        have_t: set[int] = set(inc_t.tolist())
        if new_b <= have_b and new_t <= have_t:
            return path
        inc_b = np.array(sorted(have_b | new_b), dtype=np.int64)
        inc_t = np.array(sorted(have_t | new_t), dtype=np.int64)
        included.update(new_b)
    return None


def _prepare(xy: np.ndarray, radii: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(xy, dtype=float).reshape(-1, 2), np.asarray(radii, dtype=float).reshape(-1)


def shortest_path(
    table: Table,
    start: np.ndarray,
    goal: np.ndarray,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    *,
    flying: bool = False,
    ignore: np.ndarray | None = None,
    enemy: np.ndarray | None = None,
) -> np.ndarray | None:
    """Shortest path (k, 2) from start to goal around impassable terrain and other bases.

    With `enemy` given, enemies are also kept out of base contact (R-M3). None if the goal is
    illegal or unreachable. The path is the exact shortest around the circles of `_astar`,
    drawn with arcs as polylines (at most ARC_TOL per radian long).
    """
    xy, radii = _prepare(xy, radii)
    s = np.asarray(start, dtype=float).reshape(2)
    gl = np.asarray(goal, dtype=float).reshape(2)
    obs = _obstacles(table, mover, xy, radii, enemy, s, flying=flying, ignore=ignore, target=None)
    return _search(table, obs, s, gl, 0.0)


def _nearest_free_radius(table: Table, obs: _Obstacles, goal: np.ndarray) -> float | None:
    """Smallest ring radius around an illegal goal that has a legal point on it (sampled).

    The radii grow geometrically (0.05, then x1.3 + 0.05); they are tested a batch of rings at a
    time (one kernel call for the first ten usually finds it), smallest first.
    """
    limit = max(table.width, table.height)
    rhos = []
    rho = 0.05
    while rho < limit:
        rhos.append(rho)
        rho = rho * 1.3 + 0.05
    ang = np.arange(RING) * (2 * math.pi / RING)
    unit = np.stack([np.cos(ang), np.sin(ang)], axis=-1)
    for lo in range(0, len(rhos), RING_BATCH):
        batch = np.array(rhos[lo : lo + RING_BATCH])
        rings = (goal + batch[:, None, None] * unit[None]).reshape(-1, 2)
        hit = _legal_points(table, obs, rings).reshape(len(batch), RING).any(axis=1)
        if hit.any():
            return float(batch[int(np.argmax(hit))])
    return None


def move_toward(
    table: Table,
    mover: int,
    goal: np.ndarray,
    budget: float,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    flying: bool = False,
    ignore: np.ndarray | None = None,
) -> np.ndarray | None:
    """A legal path of length <= budget as far as possible along the shortest path toward `goal`.

    If the goal itself is occupied (a target's centre, a point in terrain) the path heads for
    the nearest free ring around it. The path never comes into contact with an enemy, so it is a
    failed charge's move (R-C3) as well as a plain move. None when no move is possible.
    """
    xy, radii = _prepare(xy, radii)
    start = xy[mover].copy()
    gl = np.asarray(goal, dtype=float).reshape(2)
    obs = _obstacles(table, mover, xy, radii, enemy, start, flying=flying, ignore=ignore, target=None)
    if _legal_points(table, obs, gl[None, :])[0]:
        path = _search(table, obs, start, gl, 0.0)
    else:
        rho = _nearest_free_radius(table, obs, gl)
        path = None if rho is None else _search(table, obs, start, gl, rho)
    if path is None or budget <= 0:
        return None
    cut = min(budget, path_length(path))
    path = truncate_path(path, cut)
    while obs.flying and not _lands(table, obs, path[-1:])[0]:
        # A flyer's move may cross impassable terrain but not end on it: stop short of it.
        cut -= 0.25
        if cut <= 1e-9:
            return None
        path = truncate_path(path, cut)
    if path_length(path) <= 1e-9:
        return None
    return path


def charge_path(
    table: Table,
    mover: int,
    target: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    flying: bool = False,
    ignore: np.ndarray | None = None,
) -> tuple[np.ndarray, float] | None:
    """R-C3: the shortest path into base contact with `target`, and its length (the charge range).

    The path ends touching the target (edge distance APPROACH, well inside CONTACT), comes into
    contact with no other enemy, and goes around bases and impassable terrain. None if no point
    of contact can be reached.
    """
    xy, radii = _prepare(xy, radii)
    en = np.asarray(enemy, dtype=bool)
    gone = None if ignore is None else np.asarray(ignore, dtype=bool)
    key = (
        "charge",
        mover,
        target,
        bool(flying),
        xy.tobytes(),
        radii.tobytes(),
        en.tobytes(),
        None if gone is None else gone.tobytes(),
    )
    memo = table.path_memo
    if key in memo:
        # The same question again (a bot measured this charge, the engine now resolves it).
        hit = memo[key]
        return None if hit is None else (hit[0].copy(), hit[1])
    found = _charge_path_now(table, mover, target, xy, radii, en, flying, gone)
    if len(memo) >= PATH_MEMO:
        memo.pop(next(iter(memo)))
    memo[key] = found
    return None if found is None else (found[0].copy(), found[1])


PATH_MEMO = 256
"""Charge paths remembered per table (oldest forgotten first), keyed on every input exactly."""


def _charge_path_now(
    table: Table,
    mover: int,
    target: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    flying: bool,
    ignore: np.ndarray | None,
) -> tuple[np.ndarray, float] | None:
    start = xy[mover].copy()
    obs = _obstacles(table, mover, xy, radii, enemy, start, flying=flying, ignore=ignore, target=target)
    goal_r = float(radii[mover] + radii[target]) + APPROACH
    path = _search(table, obs, start, xy[target], goal_r)
    if path is None or not _lands(table, obs, path[-1:])[0]:
        return None
    return path, path_length(path)


def retreat_path(
    table: Table,
    mover: int,
    away_from: np.ndarray,
    distance: float,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    flying: bool = False,
    ignore: np.ndarray | None = None,
) -> np.ndarray | None:
    """R-E2: a legal straight move of up to `distance` that ends as far as possible from a point.

    Candidate moves fan out from straight away (0°, ±15°, ... ±90°) at several lengths, checked
    in one batch; the legal one ending farthest from `away_from` wins (the shorter on a tie, then
    the fan order). None if every candidate is illegal.
    """
    xy, radii = _prepare(xy, radii)
    start = xy[mover].copy()
    away = np.asarray(away_from, dtype=float).reshape(2)
    d = start - away
    base_ang = math.atan2(d[1], d[0]) if float(np.hypot(*d)) > 1e-12 else 0.0
    offs = np.deg2rad(np.array([0, 15, -15, 30, -30, 45, -45, 60, -60, 75, -75, 90, -90], dtype=float))
    ang = base_ang + offs
    fracs = np.linspace(1.0, 0.1, 10)
    dirs = np.stack([np.cos(ang), np.sin(ang)], axis=-1)
    ends = (start[None, None, :] + distance * fracs[None, :, None] * dirs[:, None, :]).reshape(-1, 2)
    ok = check_straight_moves(
        table,
        mover,
        start[None, :],
        ends,
        xy,
        radii,
        enemy,
        max_length=distance,
        flying=flying,
        ignore=ignore,
    )
    if not ok.any():
        return None
    far = np.sqrt(((ends - away) ** 2).sum(-1))
    score = np.where(ok, far, -np.inf)
    best = int(np.argmax(score))
    return np.vstack([start, ends[best]])
