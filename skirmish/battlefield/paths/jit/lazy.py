"""`search._search_now` compiled: the straight first try, the goal and ring points, and the lazy
loop (A* around the included obstacles, then which left-out obstacles its path comes too close
to) in one numba call.

The reference spends most of a search in Python around the compiled A*: a kernel call per probe,
set and array conversions per round. Here every test is the compiled kernel of the reference's
own test (`kernel.point_near` with or without end-point distances, as `_blocked` picks by its
size; the segment test of `_seg_hits`, which numpy's `_violations` answers the same), in the
same order, so the path, the probes and the included bases are the reference's exactly.

This module is what `jit.compiled()` returns: the compiled finder's entry points are its
`search_now` and, imported here so that one loaded module holds them all, `astar` (one A* call)
and `straight_moves` / `straight_moves_at` (a small batch of straight moves).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from skirmish.battlefield.paths.jit.kernel import _d2, edges_near, nodes_legal, pip, point_near
from skirmish.battlefield.paths.jit.search import astar
from skirmish.battlefield.paths.jit.straight import straight_moves, straight_moves_at

__all__ = ["astar", "legal_points", "search_now", "straight_moves", "straight_moves_at"]


@njit(cache=True)
def _hits(
    path: np.ndarray,
    bases: np.ndarray,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    tl: float,
    tl2: float,
    skip_b: np.ndarray,
    skip_t: np.ndarray,
    hit_b: np.ndarray,
    hit_t: np.ndarray,
) -> None:
    """`kernel._seg_hits(..., ends_outside=False, first=False)` of each segment of the polyline
    `path` over the obstacles not skipped: marks in `hit_b` / `hit_t` each base and piece one
    comes too close to (one call a polyline: a call takes its array arguments' reference counts,
    atomic instructions)."""
    for i in range(path.shape[0] - 1):
        x0 = path[i, 0]
        y0 = path[i, 1]
        x1 = path[i + 1, 0]
        y1 = path[i + 1, 1]
        abx = x1 - x0
        aby = y1 - y0
        den = abx * abx + aby * aby
        inv = 1.0 / (1e-300 if den < 1e-300 else den)  # Python's max(den, 1e-300), NaN included
        lox, hix = (x0, x1) if x0 <= x1 else (x1, x0)
        loy, hiy = (y0, y1) if y0 <= y1 else (y1, y0)
        for j in range(bases.shape[0]):
            if skip_b[j] or hit_b[j]:
                continue
            if bases[j, 4] < lox or bases[j, 3] > hix or bases[j, 6] < loy or bases[j, 5] > hiy:
                continue
            if _d2(bases[j, 0] - x0, bases[j, 1] - y0, abx, aby, inv) < bases[j, 2]:
                hit_b[j] = True
        for k in range(pbox.shape[0]):
            if skip_t[k] or hit_t[k]:
                continue
            far = pbox[k, 2] + tl < lox or pbox[k, 0] - tl > hix
            if far or pbox[k, 3] + tl < loy or pbox[k, 1] - tl > hiy:
                continue
            if (
                edges_near(edges, pe0[k], pe1[k], x0, y0, x1, y1, abx, aby, inv, tl2)
                or pip(edges, pe0[k], pe1[k], x0, y0)
                or pip(edges, pe0[k], pe1[k], x1, y1)
            ):
                hit_t[k] = True


@njit(cache=True)
def _legal(
    x: float,
    y: float,
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
) -> bool:
    """`check._legal_points` for one point of a batch: on the table and clear of every obstacle
    (`ends`: the plain-float point test, for batches `_blocked` answers in plain floats)."""
    if x < lo or x > hx or y < lo or y > hy:
        return False
    return not point_near(x, y, bases, edges, pbox, pe0, pe1, tl, tl2, False, ends)


@njit(cache=True)
def legal_points(
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
    ends: bool,
) -> np.ndarray:
    """`check._legal_points` against every obstacle, point by point (`_legal`'s test, written
    out in `kernel.nodes_legal`; `ends` as `_blocked` picks it for the batch's size): the
    planners' goal and ring tests in one call."""
    out = np.empty(pts.shape[0], dtype=np.bool_)
    xs = np.ascontiguousarray(pts[:, 0])
    ys = np.ascontiguousarray(pts[:, 1])
    nodes_legal(xs, ys, 0, pts.shape[0], out, lo, hx, hy, bases, edges, pbox, pe0, pe1, tl, tl2, ends)
    return out


@njit(cache=True)
def _add(probes: np.ndarray, n: int, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """Probe n (x0, y0, x1, y1), the buffer grown when full; returns the buffer."""
    if n >= probes.shape[0]:
        grown = np.empty((2 * n + 8, 4))
        for i in range(n):  # element loops: a slice assignment costs seconds to compile
            for c in range(4):
                grown[i, c] = probes[i, c]
        probes = grown
    probes[n, 0] = x0
    probes[n, 1] = y0
    probes[n, 2] = x1
    probes[n, 3] = y1
    return probes


@njit(cache=True)
def _add_path(probes: np.ndarray, n: int, path: np.ndarray) -> np.ndarray:
    """Probes n, n + 1, ...: the segments of `path` in order (`_add` each, in one call)."""
    for i in range(path.shape[0] - 1):
        probes = _add(probes, n + i, path[i, 0], path[i, 1], path[i + 1, 0], path[i + 1, 1])
    return probes


@njit(cache=True)
def search_now(
    sx: float,
    sy: float,
    gx: float,
    gy: float,
    goal_r: float,
    dc: float,
    bases: np.ndarray,
    clear: np.ndarray,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    verts: np.ndarray,
    v0: np.ndarray,
    v1: np.ndarray,
    corner_r: float,
    node_margin: float,
    unit: np.ndarray,
    direct_lands: bool,
    ring_lands: np.ndarray,
    tl: float,
    tl2: float,
    lo: float,
    width: float,
    height: float,
    blocked_small: int,
    arc_tol: float,
) -> tuple[bool, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`search._search_now` for a mover that does not fly, on every base's row (`bases_arr`)
    and clearance, every piece's box and edge range, and every piece's convex corners
    (verts[v0[k]:v1[k]], circles of radius `corner_r`); `dc` is |start - centre| as the
    reference computes it (numpy's hypot) and `unit` the RING directions.

    A flyer may end only where it lands (`check._lands`, a shapely question): the caller answers
    it for the straight try's end (`direct_lands`) and the ring (`ring_lands`); the A* rounds do
    not ask it of their straight finishes, so the caller asks it of every round's end (returned)
    and runs the reference when one does not land (only then could the two differ: until a
    finish the reference refuses for its landing, both pop the same entries).

    Returns (found, path, probes (q, 4), included bases, every round's end (k, 2))."""
    nb = bases.shape[0]
    npc = pbox.shape[0]
    hx = width - lo
    hy = height - lo
    probes = np.empty((32, 4))
    nprobe = 0
    inc_b = np.zeros(nb, dtype=np.bool_)
    inc_t = np.zeros(npc, dtype=np.bool_)
    none_b = np.zeros(nb, dtype=np.bool_)
    none_t = np.zeros(npc, dtype=np.bool_)
    nothing = np.empty((0, 2))
    ends_one = nb + npc <= blocked_small
    # The straight first try toward the goal's nearest point.
    direct = True
    x1 = gx
    y1 = gy
    if goal_r > 0 and dc > goal_r:
        k = goal_r / dc
        x1 = gx + (sx - gx) * k
        y1 = gy + (sy - gy) * k
    elif goal_r > 0:
        direct = False
    if direct:
        probes = _add(probes, nprobe, sx, sy, x1, y1)
        probes = _add(probes, nprobe + 1, x1, y1, x1, y1)
        nprobe += 2
        seg = np.empty((2, 2))
        seg[0, 0] = sx
        seg[0, 1] = sy
        seg[1, 0] = x1
        seg[1, 1] = y1
        _hits(seg, bases, edges, pbox, pe0, pe1, tl, tl2, none_b, none_t, inc_b, inc_t)
        if _legal(x1, y1, lo, hx, hy, bases, edges, pbox, pe0, pe1, tl, tl2, True) and direct_lands:
            if not inc_b.any() and not inc_t.any():
                if dc > 1e-12:
                    out = np.empty((2, 2))
                    out[0, 0] = sx
                    out[0, 1] = sy
                    out[1, 0] = x1
                    out[1, 1] = y1
                else:
                    out = np.empty((1, 2))
                    out[0, 0] = sx
                    out[0, 1] = sy
                return True, out, probes[:nprobe], np.empty(0, dtype=np.int64), nothing[:0]
            if not dc > 1e-12:
                inc_b[:] = False
                inc_t[:] = False
        else:
            inc_b[:] = False
            inc_t[:] = False
    # The goal's ring of end points (a disc), or the goal point itself.
    if goal_r > 0:
        nr = unit.shape[0]
        ends_ring = nr * (nb + npc) <= blocked_small
        qxs = np.empty(nr)
        qys = np.empty(nr)
        for r in range(nr):
            qxs[r] = gx + goal_r * unit[r, 0]
            qys[r] = gy + goal_r * unit[r, 1]
            probes = _add(probes, nprobe, qxs[r], qys[r], qxs[r], qys[r])
            nprobe += 1
        keep = np.empty(nr, dtype=np.bool_)
        nodes_legal(qxs, qys, 0, nr, keep, lo, hx, hy, bases, edges, pbox, pe0, pe1, tl, tl2, ends_ring)
        keep &= ring_lands
        ring = np.empty((keep.sum(), 2))
        q = 0
        for r in range(nr):
            if keep[r]:
                ring[q, 0] = gx + goal_r * unit[r, 0]
                ring[q, 1] = gy + goal_r * unit[r, 1]
                q += 1
    else:
        ring = nothing
        probes = _add(probes, nprobe, gx, gy, gx, gy)
        nprobe += 1
        if (
            not _legal(gx, gy, lo, hx, hy, bases, edges, pbox, pe0, pe1, tl, tl2, ends_one)
            or not direct_lands
        ):
            return False, nothing, probes[:nprobe], _included(inc_b), nothing[:0]
    new_b = np.zeros(nb, dtype=np.bool_)
    new_t = np.zeros(npc, dtype=np.bool_)
    rounds = nb + npc + 1
    ends = np.empty((rounds, 2))
    nend = 0
    for _ in range(rounds):
        # The included obstacles as `_discs` and `jit.arrays` give them to A*.
        sel_b = _included(inc_b)
        sel_t = _included(inc_t)
        nv = 0
        for k in sel_t:
            nv += v1[k] - v0[k]
        nd = len(sel_b) + nv
        cx = np.empty(nd)
        cy = np.empty(nd)
        rad = np.empty(nd)
        sb = np.empty((len(sel_b), 7))
        for i in range(len(sel_b)):
            j = sel_b[i]
            cx[i] = bases[j, 0]
            cy[i] = bases[j, 1]
            rad[i] = clear[j] + node_margin
            for c in range(7):
                sb[i, c] = bases[j, c]
        d = len(sel_b)
        sbox = np.empty((len(sel_t), 4))
        s0 = np.empty(len(sel_t), dtype=np.int64)
        s1 = np.empty(len(sel_t), dtype=np.int64)
        for i in range(len(sel_t)):
            k = sel_t[i]
            for v in range(v0[k], v1[k]):
                cx[d] = verts[v, 0]
                cy[d] = verts[v, 1]
                rad[d] = corner_r
                d += 1
            for c in range(4):
                sbox[i, c] = pbox[k, c]
            s0[i] = pe0[k]
            s1[i] = pe1[k]
        found, path = astar(
            cx, cy, rad, sx, sy, gx, gy, goal_r, sb, edges, sbox, s0, s1, tl, tl2, lo, width, height, ring,
            blocked_small, arc_tol,
        )  # fmt: skip
        if not found:
            return False, nothing, probes[:nprobe], _included(inc_b), ends[:nend]
        ends[nend, 0] = path[path.shape[0] - 1, 0]
        ends[nend, 1] = path[path.shape[0] - 1, 1]
        nend += 1
        if path.shape[0] == 1:
            return True, path, probes[:nprobe], _included(inc_b), ends[:nend]
        probes = _add_path(probes, nprobe, path)
        nprobe += path.shape[0] - 1
        # Only the obstacles left out can add to the graph.
        new_b[:] = False
        new_t[:] = False
        _hits(path, bases, edges, pbox, pe0, pe1, tl, tl2, inc_b, inc_t, new_b, new_t)
        if not new_b.any() and not new_t.any():
            return True, path, probes[:nprobe], _included(inc_b), ends[:nend]
        inc_b |= new_b
        inc_t |= new_t
    return False, nothing, probes[:nprobe], _included(inc_b), ends[:nend]


@njit(cache=True)
def _included(mask: np.ndarray) -> np.ndarray:
    """The indices set in `mask`, ascending (the reference's sorted selection)."""
    out = np.empty(mask.sum(), dtype=np.int64)
    q = 0
    for i in range(len(mask)):
        if mask[i]:
            out[q] = i
            q += 1
    return out
