"""The segment and point kernels, tangents from a point, drawn arcs and the node sort, compiled.

Each is the reference function named in its docstring, statement for statement, on arrays:
the selected bases' rows (x, y, squared limit, box x0, x1, y0, y1; `_Obstacles.bases_arr`),
all impassable edges' rows (ax, ay, ux, uy, 1/|u|^2, bx, by; `EdgeKernel.rows`) and, per
selected piece, its box (min x, min y, max x, max y) and its edge range e0:e1.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from skirmish.battlefield.paths.jit.hypot import hypot


@njit(cache=True)
def pip(edges: np.ndarray, e0: int, e1: int, x: float, y: float) -> bool:
    """`kernel._pip` over edges e0:e1."""
    inside = False
    for e in range(e0, e1):
        ax = edges[e, 0]
        ay = edges[e, 1]
        ux = edges[e, 2]
        uy = edges[e, 3]
        by = edges[e, 6]
        if (ay > y) != (by > y) and x < ax + (y - ay) * ux / uy:
            inside = not inside
    return inside


@njit(cache=True)
def _d2(px: float, py: float, ux: float, uy: float, inv: float) -> float:
    """Squared distance from p (relative to a segment's start) to the segment a + t u, t in 0..1
    (1/|u|^2 = inv): the reference's inline formula, clamp included."""
    t = (px * ux + py * uy) * inv
    t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
    dx = px - t * ux
    dy = py - t * uy
    return dx * dx + dy * dy


@njit(cache=True)
def edges_near(
    edges: np.ndarray,
    e0: int,
    e1: int,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    abx: float,
    aby: float,
    inv: float,
    tl2: float,
) -> bool:
    """`kernel._edges_near` over edges e0:e1."""
    for e in range(e0, e1):
        ax = edges[e, 0]
        ay = edges[e, 1]
        ux = edges[e, 2]
        uy = edges[e, 3]
        einv = edges[e, 4]
        bx = edges[e, 5]
        by = edges[e, 6]
        apx = x0 - ax
        apy = y0 - ay
        if _d2(apx, apy, ux, uy, einv) < tl2:  # segment ends to the edge
            return True
        bpx = x1 - ax
        bpy = y1 - ay
        if _d2(bpx, bpy, ux, uy, einv) < tl2:
            return True
        qx = ax - x0
        qy = ay - y0
        if _d2(qx, qy, abx, aby, inv) < tl2:  # edge ends to the segment
            return True
        rx = bx - x0
        ry = by - y0
        if _d2(rx, ry, abx, aby, inv) < tl2:
            return True
        if (ux * apy - uy * apx) * (ux * bpy - uy * bpx) < 0.0 and (abx * qy - aby * qx) * (
            abx * ry - aby * rx
        ) < 0.0:
            return True
    return False


@njit(cache=True)
def seg_clear(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    bases: np.ndarray,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    tl: float,
    tl2: float,
    ends_outside: bool,
) -> bool:
    """`kernel._seg_clear` on the selected bases' rows and pieces (box, edge range)."""
    abx = x1 - x0
    aby = y1 - y0
    den = abx * abx + aby * aby
    inv = 1.0 / (1e-300 if den < 1e-300 else den)  # Python's max(den, 1e-300), NaN included
    lox, hix = (x0, x1) if x0 <= x1 else (x1, x0)
    loy, hiy = (y0, y1) if y0 <= y1 else (y1, y0)
    for j in range(bases.shape[0]):
        if bases[j, 4] < lox or bases[j, 3] > hix or bases[j, 6] < loy or bases[j, 5] > hiy:
            continue
        if _d2(bases[j, 0] - x0, bases[j, 1] - y0, abx, aby, inv) < bases[j, 2]:
            return False
    for k in range(pbox.shape[0]):
        if pbox[k, 2] + tl < lox or pbox[k, 0] - tl > hix or pbox[k, 3] + tl < loy or pbox[k, 1] - tl > hiy:
            continue
        if edges_near(edges, pe0[k], pe1[k], x0, y0, x1, y1, abx, aby, inv, tl2):
            return False
        if not ends_outside and (pip(edges, pe0[k], pe1[k], x0, y0) or pip(edges, pe0[k], pe1[k], x1, y1)):
            return False
    return True


@njit(cache=True)
def polyline_clear(
    x0: float,
    y0: float,
    pts: np.ndarray,
    lo: float,
    hx: float,
    hy: float,
    bases: np.ndarray,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    tl: float,
    tl2: float,
) -> bool:
    """The A* loop's test of an edge drawn as (x0, y0) then pts: every point on the table and
    every segment `seg_clear(..., ends_outside=True)`, in order, stopping at the first failure.

    `seg_clear`'s statements are written out in the loop rather than called per segment (a call
    takes its five array arguments' reference counts, atomic instructions; see `nodes_legal`)."""
    for i in range(pts.shape[0]):
        x1 = pts[i, 0]
        y1 = pts[i, 1]
        if x1 < lo or x1 > hx or y1 < lo or y1 > hy:
            return False
        abx = x1 - x0
        aby = y1 - y0
        den = abx * abx + aby * aby
        inv = 1.0 / (1e-300 if den < 1e-300 else den)  # Python's max(den, 1e-300), NaN included
        lox, hix = (x0, x1) if x0 <= x1 else (x1, x0)
        loy, hiy = (y0, y1) if y0 <= y1 else (y1, y0)
        hit = False
        for j in range(bases.shape[0]):
            if bases[j, 4] < lox or bases[j, 3] > hix or bases[j, 6] < loy or bases[j, 5] > hiy:
                continue
            if _d2(bases[j, 0] - x0, bases[j, 1] - y0, abx, aby, inv) < bases[j, 2]:
                hit = True
                break
        k = 0
        while not hit and k < pbox.shape[0]:
            far = pbox[k, 2] + tl < lox or pbox[k, 0] - tl > hix
            far = far or pbox[k, 3] + tl < loy or pbox[k, 1] - tl > hiy
            if not far and edges_near(edges, pe0[k], pe1[k], x0, y0, x1, y1, abx, aby, inv, tl2):
                hit = True
            k += 1
        if hit:
            return False
        x0 = x1
        y0 = y1
    return True


@njit(cache=True)
def point_near(
    x: float,
    y: float,
    bases: np.ndarray,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    tl: float,
    tl2: float,
    ends_outside: bool,
    ends: bool,
) -> bool:
    """`kernel._point_near` (`ends`: with its distances to each edge's two ends), or without
    them (`ends=False`) the point test of the numpy `_violations` (projection distance only)."""
    for j in range(bases.shape[0]):
        if bases[j, 4] < x or bases[j, 3] > x or bases[j, 6] < y or bases[j, 5] > y:
            continue
        apx = bases[j, 0] - x
        apy = bases[j, 1] - y
        if apx * apx + apy * apy < bases[j, 2]:
            return True
    for k in range(pbox.shape[0]):
        if pbox[k, 2] + tl < x or pbox[k, 0] - tl > x or pbox[k, 3] + tl < y or pbox[k, 1] - tl > y:
            continue
        for e in range(pe0[k], pe1[k]):
            ax = edges[e, 0]
            ay = edges[e, 1]
            ux = edges[e, 2]
            uy = edges[e, 3]
            apx = x - ax
            apy = y - ay
            if _d2(apx, apy, ux, uy, edges[e, 4]) < tl2:
                return True
            if ends:
                if apx * apx + apy * apy < tl2:
                    return True
                rx = edges[e, 5] - x
                ry = edges[e, 6] - y
                if rx * rx + ry * ry < tl2:
                    return True
        if not ends_outside and pip(edges, pe0[k], pe1[k], x, y):
            return True
    return False


@njit(cache=True)
def nodes_legal(
    xs: np.ndarray,
    ys: np.ndarray,
    nt: int,
    m: int,
    ok: np.ndarray,
    lo: float,
    hx: float,
    hy: float,
    bases: np.ndarray,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    tl: float,
    tl2: float,
    ends: bool,
) -> None:
    """ok[:m] for the graph's candidate nodes: on the table and not `point_near` the selected
    obstacles (`ends_outside=False`); points nt:2nt are the second ends of the bitangents 0:nt,
    and a bitangent is kept only with both ends, so ok[q] = ok[nt + q] = both, the second end
    asked only when the first is legal (as `search._graph_py` does; the test is pure).

    `point_near`'s statements are written out in the loop rather than called per point: a call
    takes its five array arguments' reference counts (NRT_incref / NRT_decref, atomic
    instructions numba's pruning leaves in), which were about a third of a search's time."""
    for q in range(m):
        if nt <= q < 2 * nt and not ok[q - nt]:
            ok[q] = False
            continue
        x = xs[q]
        y = ys[q]
        if x < lo or x > hx or y < lo or y > hy:
            ok[q] = False
            continue
        near = False
        for j in range(bases.shape[0]):
            if bases[j, 4] < x or bases[j, 3] > x or bases[j, 6] < y or bases[j, 5] > y:
                continue
            apx = bases[j, 0] - x
            apy = bases[j, 1] - y
            if apx * apx + apy * apy < bases[j, 2]:
                near = True
                break
        k = 0
        while not near and k < pbox.shape[0]:
            if not (pbox[k, 2] + tl < x or pbox[k, 0] - tl > x or pbox[k, 3] + tl < y or pbox[k, 1] - tl > y):
                for e in range(pe0[k], pe1[k]):
                    apx = x - edges[e, 0]
                    apy = y - edges[e, 1]
                    if _d2(apx, apy, edges[e, 2], edges[e, 3], edges[e, 4]) < tl2:
                        near = True
                        break
                    if ends:
                        if apx * apx + apy * apy < tl2:
                            near = True
                            break
                        rx = edges[e, 5] - x
                        ry = edges[e, 6] - y
                        if rx * rx + ry * ry < tl2:
                            near = True
                            break
                if not near and pip(edges, pe0[k], pe1[k], x, y):
                    near = True
            k += 1
        ok[q] = not near
    for q in range(nt):
        if not ok[nt + q]:
            ok[q] = False


@njit(cache=True)
def point_tangents(
    px: float, py: float, cx: np.ndarray, cy: np.ndarray, rad: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`tangents._point_tangents_py` as arrays: (disc, x, y) of the tangent points, then the
    circles the point lies on or in."""
    k = len(cx)
    ks = np.empty(k, dtype=np.int64)
    base = np.empty(k)
    alpha = np.empty(k)
    on = np.empty(k, dtype=np.int64)
    n = 0
    m = 0
    for q in range(k):
        ux = px - cx[q]
        uy = py - cy[q]
        d = math.sqrt(ux * ux + uy * uy)
        if d > rad[q] * (1 + 1e-12):
            ks[n] = q
            base[n] = math.atan2(uy, ux)
            alpha[n] = math.acos(rad[q] / d)
            n += 1
        else:
            on[m] = q
            m += 1
    disc = np.empty(2 * n, dtype=np.int64)
    xs = np.empty(2 * n)
    ys = np.empty(2 * n)
    for i in range(2 * n):
        r = i if i < n else i - n
        a = base[r] + alpha[r] if i < n else base[r] - alpha[r]
        q = ks[r]
        disc[i] = q
        xs[i] = cx[q] + rad[q] * math.cos(a)
        ys[i] = cy[q] + rad[q] * math.sin(a)
    return disc, xs, ys, on[:m]


@njit(cache=True)
def arc(
    cx: float, cy: float, rad: float, a0: float, sweep: float, turn: int, ex: float, ey: float, tol: float
) -> np.ndarray:
    """`tangents._arc` as a (k, 2) array."""
    if sweep <= 1e-12:
        out = np.empty((1, 2))
        out[0, 0] = ex
        out[0, 1] = ey
        return out
    step = math.sqrt(12.0 * tol / rad)
    k = int(math.ceil(sweep / step))
    if k < 1:
        k = 1
    d = sweep / k
    far = rad / math.cos(d / 2)
    out = np.empty((k + 1, 2))
    for i in range(k):
        out[i, 0] = cx + far * math.cos(a0 + turn * (i + 0.5) * d)
        out[i, 1] = cy + far * math.sin(a0 + turn * (i + 0.5) * d)
    out[k, 0] = ex
    out[k, 1] = ey
    return out


@njit(cache=True)
def filled(n: int, value: int) -> np.ndarray:
    """`np.full(n, value)` of int64 (numpy's own helpers each cost a compile of their own)."""
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = value
    return out


@njit(cache=True)
def _less(a: int, b: int, disc: np.ndarray, ang: np.ndarray) -> bool:
    """(disc[a], ang[a]) < (disc[b], ang[b]) as Python compares the tuples."""
    if disc[a] != disc[b]:
        return disc[a] < disc[b]
    return ang[a] < ang[b]


@njit(cache=True)
def stable_order(disc: np.ndarray, ang: np.ndarray) -> np.ndarray:
    """Indices sorted stably by (disc, ang): a bottom-up merge sort (any stable sort gives the
    same order as `sorted` with that key, ties kept in index order)."""
    n = len(disc)
    a = np.empty(n, dtype=np.int64)
    for i in range(n):
        a[i] = i
    b = np.empty(n, dtype=np.int64)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = lo + width if lo + width < n else n
            hi = lo + 2 * width if lo + 2 * width < n else n
            i, j, o = lo, mid, lo
            while i < mid and j < hi:
                if _less(a[j], a[i], disc, ang):
                    b[o] = a[j]
                    j += 1
                else:
                    b[o] = a[i]
                    i += 1
                o += 1
            while i < mid:
                b[o] = a[i]
                i += 1
                o += 1
            while j < hi:
                b[o] = a[j]
                j += 1
                o += 1
        a, b = b, a
        width *= 2
    return a


@njit(cache=True)
def probe(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """For `jit`'s start-up check: rows hypot(x, y), atan2(x, y), sin x, cos x, acos x (0 outside
    [-1, 1]) and x % 2 pi, compiled as the search compiles them."""
    out = np.empty((6, len(xs)))
    for i in range(len(xs)):
        x = xs[i]
        y = ys[i]
        out[0, i] = hypot(x, y)
        out[1, i] = math.atan2(x, y)
        out[2, i] = math.sin(x)
        out[3, i] = math.cos(x)
        out[4, i] = math.acos(x) if -1.0 <= x <= 1.0 else 0.0
        out[5, i] = x % (2 * math.pi)
    return out
