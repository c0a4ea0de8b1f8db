"""The exact segment kernel: which bases and pieces a set of segments comes too close to.

Two implementations of the same formulas in the same order: plain floats for a few segments
(`_seg_hits`, `_violations_py`), numpy for many (`_violations`); IEEE doubles make them agree
bit for bit, and a property test holds them to it. They are a module of their own because
everything above (checks, the path finder, physics) must ask this one kernel, so finder and
checker cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import shapely

from skirmish.battlefield.paths.obstacles import BOX_SLACK, _Obstacles

SMALL = 200
"""Questions of at most this many (segment, obstacle) pairs are answered in plain Python: for a
few segments numpy's per-call overhead (~1 us a call, ~40 calls a question) costs more than the
arithmetic, and a bounding-box test skips most obstacles before any arithmetic at all
(measured: Python wins up to ~16 segments against 15 obstacles, ~50 against the 2-4 obstacles
the path finder has included)."""


BLOCKED_SMALL = 1000
"""`_blocked` answers up to this many (segment, obstacle) pairs in plain Python: it stops at each
segment's first hit and builds no matrices, so plain floats win further than for `_violations`
(measured on a random-bot game's straight-move batches of <= 24 moves against ~11 obstacles:
7.5 ms a game at 1000 against 9.2 at 200; the heuristic bot's neither way)."""


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


def _edges_near(
    edges: tuple[tuple[float, ...], ...],
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    abx: float,
    aby: float,
    inv: float,
    tl2: float,
) -> bool:
    """Whether segment (x0, y0)-(x1, y1) (direction (abx, aby), 1/|ab|^2 = inv) comes within
    sqrt(tl2) of one of a piece's edges or properly crosses one, in plain floats (the
    segment-to-segment distance of `_violations`: four end-to-segment distances, then a crossing)."""
    for ax, ay, ux, uy, einv, bx, by in edges:
        # Segment ends to the edge.
        apx = x0 - ax
        apy = y0 - ay
        t = (apx * ux + apy * uy) * einv
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        dx = apx - t * ux
        dy = apy - t * uy
        if dx * dx + dy * dy < tl2:
            return True
        bpx = x1 - ax
        bpy = y1 - ay
        t = (bpx * ux + bpy * uy) * einv
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        dx = bpx - t * ux
        dy = bpy - t * uy
        if dx * dx + dy * dy < tl2:
            return True
        # Edge ends to the segment.
        qx = ax - x0
        qy = ay - y0
        t = (qx * abx + qy * aby) * inv
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        dx = qx - t * abx
        dy = qy - t * aby
        if dx * dx + dy * dy < tl2:
            return True
        rx = bx - x0
        ry = by - y0
        t = (rx * abx + ry * aby) * inv
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        dx = rx - t * abx
        dy = ry - t * aby
        if dx * dx + dy * dy < tl2:
            return True
        # A proper crossing.
        if (ux * apy - uy * apx) * (ux * bpy - uy * bpx) < 0.0 and (abx * qy - aby * qx) * (
            abx * ry - aby * rx
        ) < 0.0:
            return True
    return False


def _seg_clear(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    bases: Sequence[tuple[float, ...]],
    pieces: Sequence[tuple[tuple[float, float, float, float], tuple[tuple[float, ...], ...]]],
    tl: float,
    tl2: float,
    ends_outside: bool = True,
) -> bool:
    """`not any(_seg_hits(..., first=True))` for the path finder's inner loop and small batches:
    the selected bases' tuples (`bases_py`) and pieces (`EdgeKernel.py`) are picked once per
    search or batch instead of once per segment, and nothing but the answer is built (same
    formulas, same order, same bounding-box rejections; `tl` is the widened terrain box margin,
    `tl2` the squared terrain limit)."""
    abx = x1 - x0
    aby = y1 - y0
    inv = 1.0 / max(abx * abx + aby * aby, 1e-300)
    lox, hix = (x0, x1) if x0 <= x1 else (x1, x0)
    loy, hiy = (y0, y1) if y0 <= y1 else (y1, y0)
    for cx, cy, lim2, bx0, bx1, by0, by1 in bases:
        if bx1 < lox or bx0 > hix or by1 < loy or by0 > hiy:
            continue
        apx = cx - x0
        apy = cy - y0
        t = (apx * abx + apy * aby) * inv
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        dx = apx - t * abx
        dy = apy - t * aby
        if dx * dx + dy * dy < lim2:
            return False
    for (bx0, by0, bx1, by1), edges in pieces:
        if bx1 + tl < lox or bx0 - tl > hix or by1 + tl < loy or by0 - tl > hiy:
            continue
        if _edges_near(edges, x0, y0, x1, y1, abx, aby, inv, tl2):
            return False
        if not ends_outside and (_pip(edges, x0, y0) or _pip(edges, x1, y1)):
            return False
    return True


def _point_near(
    x: float,
    y: float,
    bases: Sequence[tuple[float, ...]],
    pieces: Sequence[tuple[tuple[float, float, float, float], tuple[tuple[float, ...], ...]]],
    tl: float,
    tl2: float,
    ends_outside: bool,
) -> bool:
    """`any(_seg_hits(obs, x, y, x, y, ..., first=True))` for a point, with what a zero-length
    segment makes of `_seg_hits`'s formulas written out: its direction is 0 and 1/|ab|^2 is
    1e300, so every projection onto it is t = +-0.0 and each distance to it is the plain
    distance to (x, y) (x - 0.0 is x exactly); its two ends are one point, so the second end's
    test repeats the first and the crossing test's product is a square, never negative. The
    same floats, so the same answers (a property test holds it to `_seg_hits`)."""
    for cx, cy, lim2, bx0, bx1, by0, by1 in bases:
        if bx1 < x or bx0 > x or by1 < y or by0 > y:
            continue
        apx = cx - x
        apy = cy - y
        if apx * apx + apy * apy < lim2:
            return True
    for (bx0, by0, bx1, by1), edges in pieces:
        if bx1 + tl < x or bx0 - tl > x or by1 + tl < y or by0 - tl > y:
            continue
        for ax, ay, ux, uy, einv, bx, by in edges:
            apx = x - ax
            apy = y - ay
            t = (apx * ux + apy * uy) * einv
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            dx = apx - t * ux
            dy = apy - t * uy
            if dx * dx + dy * dy < tl2 or apx * apx + apy * apy < tl2:
                return True
            rx = bx - x
            ry = by - y
            if rx * rx + ry * ry < tl2:
                return True
        if not ends_outside and _pip(edges, x, y):
            return True
    return False


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
        hit = _edges_near(edges, x0, y0, x1, y1, abx, aby, inv, tl2)
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


def _blocked(
    obs: _Obstacles,
    p0: np.ndarray,
    p1: np.ndarray,
    base_sel: np.ndarray | None = None,
    piece_sel: np.ndarray | None = None,
    ends_outside: bool = False,
) -> np.ndarray:
    """(m,) bool: segment i comes too close to some (selected) obstacle, i.e. `_violations`
    reduced over the obstacles. Small questions stop at each segment's first hit and build no
    matrices (the same kernel answers, so the same booleans); big ones reduce `_violations`."""
    m = len(p0)
    nb = len(obs.centres) if base_sel is None else len(base_sel)
    npc = len(obs.polys) if piece_sel is None else len(piece_sel)
    if m * (nb + npc) > BLOCKED_SMALL:
        bad_b, bad_t = _violations(obs, p0, p1, base_sel, piece_sel, ends_outside)
        return np.asarray(bad_b.any(axis=1) | bad_t.any(axis=1))
    out = np.zeros(m, dtype=bool)
    bases, pieces = obs.bases_py(), obs.kern.py
    sel_b = bases if base_sel is None else [bases[j] for j in base_sel.tolist()]
    sel_p = pieces if piece_sel is None else [pieces[k] for k in piece_sel.tolist()]
    tl, tl2 = obs.tlim + BOX_SLACK, obs.tlim2
    if p0 is p1:
        for i, (x, y) in enumerate(p0.tolist()):
            if _point_near(x, y, sel_b, sel_p, tl, tl2, ends_outside):
                out[i] = True
        return out
    for i, ((x0, y0), (x1, y1)) in enumerate(zip(p0.tolist(), p1.tolist(), strict=True)):
        if not _seg_clear(x0, y0, x1, y1, sel_b, sel_p, tl, tl2, ends_outside):
            out[i] = True
    return out


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


def near_segment(
    cx: float, cy: float, lim2: float, probes: Iterable[tuple[float, float, float, float]]
) -> bool:
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


def near_flat(cx: float, cy: float, lim2: float, flat: Sequence[float]) -> bool:
    """`near_segment` over probes kept flat (x0, y0, x1, y1, x0, ...: the search records' form):
    the same formula in the same order, so the same answer (a test holds the two equal)."""
    it = iter(flat)
    for x0, y0, x1, y1 in zip(it, it, it, it, strict=True):
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
