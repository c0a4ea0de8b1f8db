"""`search._astar` compiled: the tangent graph (`_graph_py`) and the A* loop in one numba call.

The same statements as the reference in the same order (see the package docstring for what
keeps them bit-identical); the obstacles are `kernel`'s arrays.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from skirmish.battlefield.paths.jit.hypot import hypot
from skirmish.battlefield.paths.jit.kernel import (
    arc,
    filled,
    nodes_legal,
    point_near,
    point_tangents,
    polyline_clear,
    stable_order,
)


@njit(cache=True)
def graph(
    cx: np.ndarray,
    cy: np.ndarray,
    rad: np.ndarray,
    sx: float,
    sy: float,
    gx: float,
    gy: float,
    bases: np.ndarray,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    tl: float,
    tl2: float,
    lo: float,
    hx: float,
    hy: float,
    blocked_small: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`search._graph_py` (and `_graph_numpy`, which builds the same nodes): per node its
    circle, angle, point and partner, node 0 the start."""
    k = len(cx)
    npair = k * (k - 1) // 2
    pi_ = np.empty(npair, dtype=np.int64)
    pj_ = np.empty(npair, dtype=np.int64)
    p = 0
    for i in range(k):
        for j in range(i + 1, k):
            pi_[p] = i
            pj_[p] = j
            p += 1
    cap = 4 * npair
    ad = np.empty(cap, dtype=np.int64)
    axs = np.empty(cap)
    ays = np.empty(cap)
    bd = np.empty(cap, dtype=np.int64)
    bxs = np.empty(cap)
    bys = np.empty(cap)
    nt = 0
    for sgn in range(4):
        s1 = 1.0 if sgn == 0 or sgn == 2 else -1.0
        s2 = 1.0 if sgn == 0 or sgn == 3 else -1.0
        for p in range(npair):
            i = pi_[p]
            j = pj_[p]
            dx = cx[j] - cx[i]
            dy = cy[j] - cy[i]
            z = dx * dx + dy * dy
            r1 = s1 * rad[i]
            r2 = s2 * rad[j]
            dr = r2 - r1
            dsc = z - dr * dr
            if dsc > 1e-12 and z > 1e-18:
                sq = math.sqrt(dsc)
                a = (dr * dx + dy * sq) / z
                b = (dr * dy - dx * sq) / z
                ad[nt] = i
                axs[nt] = cx[i] - r1 * a
                ays[nt] = cy[i] - r1 * b
                bd[nt] = j
                bxs[nt] = cx[j] - r2 * a
                bys[nt] = cy[j] - r2 * b
                nt += 1
    sd, stx, sty, s_on = point_tangents(sx, sy, cx, cy, rad)
    gd, gtx, gty, _ = point_tangents(gx, gy, cx, cy, rad)
    n_sd = len(sd)
    n_gd = len(gd)
    n_on = len(s_on)
    total = 2 * nt + n_sd + n_gd + n_on
    disc = np.empty(total, dtype=np.int64)
    xs = np.empty(total)
    ys = np.empty(total)
    partner = np.empty(total, dtype=np.int64)
    for q in range(nt):
        disc[q] = ad[q]
        xs[q] = axs[q]
        ys[q] = ays[q]
        partner[q] = 1 + nt + q
        disc[nt + q] = bd[q]
        xs[nt + q] = bxs[q]
        ys[nt + q] = bys[q]
        partner[nt + q] = 1 + q
    o = 2 * nt
    for q in range(n_sd):
        disc[o + q] = sd[q]
        xs[o + q] = stx[q]
        ys[o + q] = sty[q]
        partner[o + q] = 0
    o += n_sd
    for q in range(n_gd):
        disc[o + q] = gd[q]
        xs[o + q] = gtx[q]
        ys[o + q] = gty[q]
        partner[o + q] = -1
    o += n_gd
    for q in range(n_on):
        disc[o + q] = s_on[q]
        xs[o + q] = sx
        ys[o + q] = sy
        partner[o + q] = 0
    m = total - n_on
    # Above BLOCKED_SMALL (point, obstacle) pairs the reference asks numpy's `_violations`,
    # whose point test has no end-point distances.
    ends = m * (bases.shape[0] + pbox.shape[0]) <= blocked_small
    ok = np.empty(total, dtype=np.bool_)
    nodes_legal(xs, ys, nt, m, ok, lo, hx, hy, bases, edges, pbox, pe0, pe1, tl, tl2, ends)
    for q in range(m, total):
        ok[q] = True
    nk = 0
    for q in range(total):
        nk += ok[q]
    keep = np.empty(nk, dtype=np.int64)
    r = 0
    for q in range(total):
        if ok[q]:
            keep[r] = q
            r += 1
    kd = np.empty(nk, dtype=np.int64)
    ang = np.empty(nk)
    for r in range(nk):
        q = keep[r]
        kd[r] = disc[q]
        ang[r] = math.atan2(ys[q] - cy[disc[q]], xs[q] - cx[disc[q]])
    order = stable_order(kd, ang)
    new_id = filled(total + 1, -1)
    new_id[0] = 0
    for r in range(nk):
        new_id[1 + keep[order[r]]] = 1 + r
    node_disc = np.empty(nk + 1, dtype=np.int64)
    node_ang = np.empty(nk + 1)
    px = np.empty(nk + 1)
    py = np.empty(nk + 1)
    node_part = np.empty(nk + 1, dtype=np.int64)
    node_disc[0] = -1
    node_ang[0] = 0.0
    px[0] = sx
    py[0] = sy
    node_part[0] = -1
    for r in range(nk):
        q = keep[order[r]]
        node_disc[1 + r] = disc[q]
        node_ang[1 + r] = ang[order[r]]
        px[1 + r] = xs[q]
        py[1 + r] = ys[q]
        node_part[1 + r] = new_id[partner[q]] if partner[q] > 0 else partner[q]
    return node_disc, node_ang, px, py, node_part


@njit(cache=True)
def _hlt(f: float, v: float, u: float, turn: float, c: float, heap: np.ndarray, b: int) -> bool:
    """Entry (f, v, u, turn, c) < entry heap[b] as Python compares the tuples: the first unequal
    item decides."""
    if f != heap[b, 0]:
        return f < heap[b, 0]
    if v != heap[b, 1]:
        return v < heap[b, 1]
    if u != heap[b, 2]:
        return u < heap[b, 2]
    if turn != heap[b, 3]:
        return turn < heap[b, 3]
    return c < heap[b, 4]


@njit(cache=True)
def _hlt_rows(heap: np.ndarray, a: int, b: int) -> bool:
    """Entry heap[a] < entry heap[b] (`_hlt`)."""
    return _hlt(heap[a, 0], heap[a, 1], heap[a, 2], heap[a, 3], heap[a, 4], heap, b)


@njit(cache=True)
def _hput(heap: np.ndarray, pos: int, f: float, v: float, u: float, turn: float, c: float) -> None:
    """heap[pos] = the entry (f, v, u, turn, c)."""
    heap[pos, 0] = f
    heap[pos, 1] = v
    heap[pos, 2] = u
    heap[pos, 3] = turn
    heap[pos, 4] = c


@njit(cache=True)
def _hmove(heap: np.ndarray, dst: int, src: int) -> None:
    """heap[dst] = heap[src]."""
    for i in range(5):
        heap[dst, i] = heap[src, i]


@njit(cache=True)
def _hsiftdown(heap: np.ndarray, startpos: int, pos: int) -> None:
    """`heapq._siftdown` (CPython's C `siftdown` is the same algorithm)."""
    f = heap[pos, 0]
    v = heap[pos, 1]
    u = heap[pos, 2]
    turn = heap[pos, 3]
    c = heap[pos, 4]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        if _hlt(f, v, u, turn, c, heap, parentpos):
            _hmove(heap, pos, parentpos)
            pos = parentpos
            continue
        break
    _hput(heap, pos, f, v, u, turn, c)


@njit(cache=True)
def _hsiftup(heap: np.ndarray, endpos: int, pos: int) -> None:
    """`heapq._siftup` on heap[:endpos]."""
    startpos = pos
    f = heap[pos, 0]
    v = heap[pos, 1]
    u = heap[pos, 2]
    turn = heap[pos, 3]
    c = heap[pos, 4]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not _hlt_rows(heap, childpos, rightpos):
            childpos = rightpos
        _hmove(heap, pos, childpos)
        pos = childpos
        childpos = 2 * pos + 1
    _hput(heap, pos, f, v, u, turn, c)
    _hsiftdown(heap, startpos, pos)


@njit(cache=True)
def _hpush(heap: np.ndarray, size: int, f: float, v: int, u: int, turn: int, c: float) -> None:
    """`heapq.heappush(heap, (f, v, u, turn, c))`; heap[:size] is the heap before the push.

    The heap is one (cap, 5) float array of entries (f, v, u, turn, c), the node ids and turn
    exact as floats: a call takes one array's reference count, not four (numba's atomic
    NRT_incref / NRT_decref per array argument were a large part of a search's time)."""
    _hput(heap, size, f, v, u, turn, c)
    _hsiftdown(heap, 0, size)


@njit(cache=True)
def _hpop(heap: np.ndarray, size: int) -> tuple[float, int, int, int, float]:
    """`heapq.heappop` on heap[:size]: the smallest entry (the heap is then heap[:size - 1])."""
    f = heap[size - 1, 0]
    v = heap[size - 1, 1]
    u = heap[size - 1, 2]
    turn = heap[size - 1, 3]
    c = heap[size - 1, 4]
    if size - 1 == 0:
        return f, int(v), int(u), int(turn), c
    tf = heap[0, 0]
    tv = heap[0, 1]
    tu = heap[0, 2]
    tt = heap[0, 3]
    tc = heap[0, 4]
    _hput(heap, 0, f, v, u, turn, c)
    _hsiftup(heap, size - 1, 0)
    return tf, int(tv), int(tu), int(tt), tc


@njit(cache=True)
def astar(
    cx: np.ndarray,
    cy: np.ndarray,
    rad: np.ndarray,
    sx: float,
    sy: float,
    gx: float,
    gy: float,
    goal_r: float,
    bases: np.ndarray,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    tl: float,
    tl2: float,
    lo: float,
    width: float,
    height: float,
    ring: np.ndarray,
    blocked_small: int,
    arc_tol: float,
) -> tuple[bool, np.ndarray]:
    """`search._astar` for a mover that does not fly: (found, path)."""
    hx = width - lo
    hy = height - lo
    node_disc, node_ang, px, py, node_part = graph(
        cx, cy, rad, sx, sy, gx, gy, bases, edges, pbox, pe0, pe1, tl, tl2, lo, hx, hy, blocked_small
    )
    n = len(node_disc)
    nxt = np.empty(n, dtype=np.int64)
    prv = np.empty(n, dtype=np.int64)
    for v in range(n):
        nxt[v] = v
        prv[v] = v
    first = 1
    while first < n:
        last = first
        while last + 1 < n and node_disc[last + 1] == node_disc[first]:
            last += 1
        if last > first:
            for v in range(first, last + 1):
                nxt[v] = v + 1 if v < last else first
                prv[v] = v - 1 if v > first else last
        first = last + 1
    n_ring = ring.shape[0] if goal_r > 0 else 0
    fin = n + n_ring
    hl = np.empty(n)
    for v in range(n):
        h = hypot(px[v] - gx, py[v] - gy) - goal_r
        hl[v] = 0.0 if h < 0.0 else h  # Python's max(h, 0.0)
    two_pi = 2 * math.pi
    parent = filled(fin + 1, -1)
    g0 = np.zeros(fin + 1, dtype=np.int64)  # node v's incoming edge is points gbuf[g0[v]:g1[v]]
    g1 = np.zeros(fin + 1, dtype=np.int64)
    gbuf = np.empty((64, 2))
    gn = 0
    closed = np.zeros(fin + 1, dtype=np.bool_)
    # Every expansion pushes at most 4 + n_ring entries (the start's also its n - 1 children).
    cap = 1 + n + n * (4 + n_ring)
    heap = np.empty((cap, 5))
    one = np.empty((1, 2))  # a one-point edge's pts (copied into gbuf when kept): no allocation a pop
    size = 0
    _hpush(heap, size, hl[0], 0, -1, 0, 0.0)
    size += 1
    while size > 0:
        _, v, u, turn, gv = _hpop(heap, size)
        size -= 1
        if closed[v]:
            continue
        if u >= 0:
            x0 = px[u]
            y0 = py[u]
            if v == fin:
                dx = x0 - gx
                dy = y0 - gy
                dc = hypot(dx, dy)
                kk = goal_r / dc if dc > 0 else 0.0
                pts = one
                pts[0, 0] = gx + dx * kk
                pts[0, 1] = gy + dy * kk
            elif v > n - 1:
                pts = one
                pts[0, 0] = ring[v - n, 0]
                pts[0, 1] = ring[v - n, 1]
            elif turn:
                j = node_disc[v]
                a0 = node_ang[u]
                sweep = (node_ang[v] - a0) * turn % two_pi
                pts = arc(cx[j], cy[j], rad[j], a0, sweep, turn, px[v], py[v], arc_tol)
            else:
                pts = one
                pts[0, 0] = px[v]
                pts[0, 1] = py[v]
            if not polyline_clear(x0, y0, pts, lo, hx, hy, bases, edges, pbox, pe0, pe1, tl, tl2):
                continue
            x0 = pts[pts.shape[0] - 1, 0]
            y0 = pts[pts.shape[0] - 1, 1]
            if v == fin and point_near(x0, y0, bases, edges, pbox, pe0, pe1, tl, tl2, False, True):
                continue
            parent[v] = u
            k = pts.shape[0]
            if gn + k > gbuf.shape[0]:
                grown = np.empty((2 * (gn + k), 2))
                for i in range(gn):  # element loops: a slice assignment costs seconds to compile
                    grown[i, 0] = gbuf[i, 0]
                    grown[i, 1] = gbuf[i, 1]
                gbuf = grown
            for i in range(k):
                gbuf[gn + i, 0] = pts[i, 0]
                gbuf[gn + i, 1] = pts[i, 1]
            g0[v] = gn
            gn += k
            g1[v] = gn
        closed[v] = True
        if v >= n or (goal_r > 0 and hl[v] <= 1e-9) or (goal_r == 0 and v < n and hl[v] <= 1e-12):
            count = 1
            w = v
            while parent[w] != -1:
                count += g1[w] - g0[w]
                w = parent[w]
            out = np.empty((count, 2))
            w = v
            end = count
            while parent[w] != -1:
                k = g1[w] - g0[w]
                for i in range(k):
                    out[end - k + i, 0] = gbuf[g0[w] + i, 0]
                    out[end - k + i, 1] = gbuf[g0[w] + i, 1]
                end -= k
                w = parent[w]
            out[0, 0] = sx
            out[0, 1] = sy
            return True, out
        ux = px[v]
        uy = py[v]
        if v == 0:
            for w in range(1, n):
                if node_part[w] == 0 and not closed[w]:
                    c = gv + hypot(px[w] - ux, py[w] - uy)
                    _hpush(heap, size, c + hl[w], w, v, 0, c)
                    size += 1
        elif node_part[v] > 0:
            w = node_part[v]
            if not closed[w]:
                c = gv + hypot(px[w] - ux, py[w] - uy)
                _hpush(heap, size, c + hl[w], w, v, 0, c)
                size += 1
        if v > 0 and nxt[v] != v:
            j = node_disc[v]
            for side in range(2):
                w = nxt[v] if side == 0 else prv[v]
                t = 1 if side == 0 else -1
                if not closed[w]:
                    sweep = (node_ang[w] - node_ang[v]) * t % two_pi
                    c = gv + rad[j] * sweep
                    _hpush(heap, size, c + hl[w], w, v, t, c)
                    size += 1
        dc = hypot(ux - gx, uy - gy)
        if dc > goal_r + 1e-12:
            c = gv + dc - goal_r
            _hpush(heap, size, c, fin, v, 0, c)
            size += 1
        for r in range(n_ring):
            c = gv + hypot(ring[r, 0] - ux, ring[r, 1] - uy)
            _hpush(heap, size, c, n + r, v, 0, c)
            size += 1
    return False, np.empty((0, 2))
