"""Measurement in numpy: edge-to-edge distances, base contact, polylines and segment kernels.

Distances between models are base edge to base edge (R-C6): centre distance minus both radii,
computed from arrays, never by buffering circles into shapely objects (creating one shapely
object costs microseconds; a numpy row of twenty distances costs less than one of them).

The segment kernels here (point-to-segment and segment-to-segment distances) are the exact
geometry every path check uses, so the path finder and the path checker cannot disagree.
"""

from __future__ import annotations

import functools
import math

import numpy as np

CONTACT = 0.01
"""Two bases are in base contact when their edge-to-edge distance is at most this (inches)."""

OVERLAP_TOL = 1e-6
"""Bases may touch; they overlap only when they interpenetrate by more than this (float noise)."""


@functools.lru_cache(maxsize=256)
def pair_indices(n: int) -> tuple[np.ndarray, np.ndarray]:
    """`np.triu_indices(n, 1)`, remembered (read-only): numpy builds them through a full mask,
    which costs more than the small searches that ask for them."""
    i, j = np.triu_indices(n, 1)
    i.flags.writeable = False
    j.flags.writeable = False
    return i, j


def stack_columns(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`np.stack([a, b], axis=-1)` of two 1-D float arrays (the same values), without
    `np.stack`'s per-call checks, which cost more than the copy in small batches."""
    out = np.empty((len(a), 2))
    out[:, 0] = a
    out[:, 1] = b
    return out


def edge_distances(xy: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """(n, n) edge-to-edge distances: centre distance minus both radii, 0 on the diagonal."""
    xy = np.asarray(xy, dtype=float)
    radii = np.asarray(radii, dtype=float)
    diff = xy[:, None, :] - xy[None, :, :]
    d = np.sqrt((diff * diff).sum(-1)) - radii[:, None] - radii[None, :]
    np.fill_diagonal(d, 0.0)
    return d


def edge_distance(a_xy: np.ndarray, a_r: float, b_xy: np.ndarray, b_r: float) -> float:
    """Edge-to-edge distance of two bases (plain floats: faster than numpy for one pair)."""
    dx = float(a_xy[0]) - float(b_xy[0])
    dy = float(a_xy[1]) - float(b_xy[1])
    return (dx * dx + dy * dy) ** 0.5 - float(a_r) - float(b_r)


def in_contact(xy: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """(n, n) bool: base contact (edge distance <= CONTACT), False on the diagonal."""
    c = edge_distances(xy, radii) <= CONTACT
    np.fill_diagonal(c, False)
    return c


def path_length(path: np.ndarray) -> float:
    """Length of a polyline (k, 2); a single point has length 0."""
    p = np.asarray(path, dtype=float).reshape(-1, 2)
    if len(p) < 2:
        return 0.0
    if len(p) <= 8:
        # Plain floats for short paths (the usual case): the same number, without six numpy calls.
        return path_length_py(p.tolist())
    d = np.diff(p, axis=0)
    return float(np.sqrt((d * d).sum(-1)).sum())


def path_length_py(pts: list[list[float]]) -> float:
    """`path_length` of a path of two or more points given as plain floats, for any
    length: each segment `math.sqrt(dx * dx + dy * dy)` (numpy's `np.diff`, squares, the two-term
    sum and its correctly rounded `sqrt`), then numpy's own sum of them (`_numpy_sum`: in order
    from 0 below eight segments, pairwise with eight accumulators above), so the same number
    without the arrays (a test holds the two equal for paths of every length to 200 points)."""
    sqrt = math.sqrt
    seg: list[float] = []
    (x0, y0), *rest = pts
    for x1, y1 in rest:
        dx = x1 - x0
        dy = y1 - y0
        seg.append(sqrt(dx * dx + dy * dy))
        x0, y0 = x1, y1
    return 0.0 + _numpy_sum(seg, 0, len(seg))


def _numpy_sum(a: list[float], lo: int, n: int) -> float:
    """numpy's pairwise sum of the float64 values `a[lo:lo + n]` (`pairwise_sum` in its loops):
    below 8 values one accumulator from 0, up to 128 eight accumulators combined as
    ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)) and then the rest in order, above that the
    two halves (the first a multiple of 8) summed apart and added."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    if n <= 128:
        r0, r1, r2, r3, r4, r5, r6, r7 = a[lo : lo + 8]
        i = lo + 8
        end = lo + n - (n % 8)
        while i < end:
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < lo + n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _numpy_sum(a, lo, n2) + _numpy_sum(a, lo + n2, n - n2)


def truncate_path(path: np.ndarray, length: float) -> np.ndarray:
    """The first `length` inches of the polyline (the whole of it if it is shorter)."""
    p = np.asarray(path, dtype=float).reshape(-1, 2)
    if len(p) < 2 or length <= 0:
        return p[:1].copy()
    if len(p) <= TRUNCATE_SHORT:
        return _truncate_short(p, float(length))
    d = np.diff(p, axis=0)
    seg = np.sqrt((d * d).sum(-1))
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    if length >= cum[-1]:
        return p.copy()
    i = int(np.searchsorted(cum, length, side="right")) - 1
    t = (length - cum[i]) / seg[i] if seg[i] > 0 else 0.0
    end = p[i] + t * d[i]
    return np.vstack([p[: i + 1], end[None, :]])


TRUNCATE_SHORT = 32
"""Polylines of at most this many points are cut in plain floats (`_truncate_short`): a path
with arcs has a few dozen points; the plain loop stops at the cut and wins up to ~40 points)."""


def _truncate_short(p: np.ndarray, length: float) -> np.ndarray:
    """`truncate_path` of a short polyline in plain floats, numpy's steps one by one: each
    segment's length (the sum of two squares, then the root), the running total (numpy's cumsum
    adds in order), the last vertex whose total is <= `length` (searchsorted, side right), and
    the cut point p + t d; the same numbers without a dozen numpy calls (a test holds them equal).
    Unlike a sum, numpy's cumsum adds in order at every length, so no length limit is needed
    for equality, only for speed."""
    pts = p.tolist()
    cum = 0.0
    x0, y0 = pts[0]
    for i in range(1, len(pts)):
        x1, y1 = pts[i]
        dx = x1 - x0
        dy = y1 - y0
        seg = math.sqrt(dx * dx + dy * dy)
        nxt = cum + seg
        if length < nxt:
            t = (length - cum) / seg if seg > 0 else 0.0
            return np.array([*pts[:i], [x0 + t * dx, y0 + t * dy]])
        cum = nxt
        x0, y0 = x1, y1
    return p.copy()


def psd_xy(
    px: np.ndarray, py: np.ndarray, ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray
) -> np.ndarray:
    """Point-to-segment distance on separate x/y arrays (broadcast): the hot kernel of paths.

    Written on components because numpy's per-call overhead, not arithmetic, dominates arrays of
    a few hundred elements, and `(..., 2)` reductions double the number of calls.
    """
    abx = bx - ax
    aby = by - ay
    apx = px - ax
    apy = py - ay
    t = (apx * abx + apy * aby) / np.maximum(abx * abx + aby * aby, 1e-300)
    t = np.minimum(np.maximum(t, 0.0), 1.0)
    dx = apx - t * abx
    dy = apy - t * aby
    return np.sqrt(dx * dx + dy * dy)


def point_segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points p to segments a-b; all (..., 2) and broadcast together."""
    return psd_xy(p[..., 0], p[..., 1], a[..., 0], a[..., 1], b[..., 0], b[..., 1])


def ssd_xy(
    ax: np.ndarray,
    ay: np.ndarray,
    bx: np.ndarray,
    by: np.ndarray,
    cx: np.ndarray,
    cy: np.ndarray,
    dx: np.ndarray,
    dy: np.ndarray,
) -> np.ndarray:
    """Distance between segments a-b and c-d on x/y components (broadcast); 0 when they cross."""
    ux = bx - ax
    uy = by - ay
    vx = dx - cx
    vy = dy - cy
    d1 = vx * (ay - cy) - vy * (ax - cx)
    d2 = vx * (by - cy) - vy * (bx - cx)
    d3 = ux * (cy - ay) - uy * (cx - ax)
    d4 = ux * (dy - ay) - uy * (dx - ax)
    proper = (d1 * d2 < 0) & (d3 * d4 < 0)
    m = np.minimum(
        np.minimum(psd_xy(ax, ay, cx, cy, dx, dy), psd_xy(bx, by, cx, cy, dx, dy)),
        np.minimum(psd_xy(cx, cy, ax, ay, bx, by), psd_xy(dx, dy, ax, ay, bx, by)),
    )
    return np.where(proper, 0.0, m)


def segment_segment_distance(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray:
    """Distance between segments a0-a1 and b0-b1 (broadcast, (..., 2)); 0 when they cross."""
    return ssd_xy(
        a0[..., 0], a0[..., 1], a1[..., 0], a1[..., 1], b0[..., 0], b0[..., 1], b1[..., 0], b1[..., 1]
    )


def on_table(xy: np.ndarray, radii: np.ndarray, width: float, height: float) -> np.ndarray:
    """Whether each whole base lies on the table (R-M2: a move ends on the table)."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    r = np.broadcast_to(np.asarray(radii, dtype=float), (len(xy),)) - 1e-9
    return (xy[:, 0] >= r) & (xy[:, 0] <= width - r) & (xy[:, 1] >= r) & (xy[:, 1] <= height - r)
