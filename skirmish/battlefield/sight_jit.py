"""The sight kernel (R-B3) compiled with numba, pair by pair: the fan, then the exact candidate
lines, stopping at a pair's first clear line.

`sight.sight_pairs` costs 0.5-1.5 ms a call whatever the batch (some hundred numpy calls), and the
pairs that reach its exact stage are nearly all blocked, so every candidate line of theirs must be
tested. Here each pair's fan lines (`sight._lines`) and candidate lines (`sight._candidates`:
common tangents, tangents from the corners in the discs' hull, lines through two such corners,
each cut to its piece between the discs by `_between`) are built and tested (`sight._clear`: the
blocker boxes, `_meets_blockers`' orientation tests, the dense room and Cyrus-Beck lengths) with
the reference's formulas written out element by element. +, -, *, /, sqrt and comparisons round
the same compiled as in numpy (numba compiles without fast-math: nothing is reordered or fused),
atan2, asin, cos and sin are the C library's calls that `portable` makes through `math` (the
start-up check compares them), so every line is clear exactly when the kernel says so; a pair's
answer is the `or` of its lines', in any order.

The one test not written out is `shapely.intersects_xy` of a line's first end with the blocker
union (asked only of lines that meet a blocker's box but cross no edge): a point strictly outside
every part's bounding box is outside (exact comparisons); a pair left with such a line and no
other clear one is answered PENDING, and the caller asks the numpy kernel about it.

Tables covered are those of `sight_plain.PlainFan` (convex big dense regions, at most two, whose
sums add alike in any order) without bases blocking sight.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

DENSE_LIMIT = 3.0
INSET = 0.999
PENDING = 2
"""`sight.DENSE_LIMIT`, `sight.INSET` and `sight_plain.PENDING`, written here: numba keeps a
function's machine code keyed on its own file only, so a constant imported from elsewhere could
go stale in the cache (the loader checks the three are equal)."""


@njit(cache=True)
def _line(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    ia: int,
    ib: int,
    inside: np.ndarray,
    bboxes: np.ndarray,
    eax: np.ndarray,
    eay: np.ndarray,
    eex: np.ndarray,
    eey: np.ndarray,
    uboxes: np.ndarray,
    dboxes: np.ndarray,
    ddiag: np.ndarray,
    hnx: np.ndarray,
    hny: np.ndarray,
    hna: np.ndarray,
    hstart: np.ndarray,
) -> int:
    """`sight._clear` of one line between bases ia and ib: 1 clear, 0 blocked, PENDING clear
    unless its first end lies in the blocker union (a part's box holds it)."""
    lox = x0 if x0 <= x1 else x1
    hix = x1 if x0 <= x1 else x0
    loy = y0 if y0 <= y1 else y1
    hiy = y1 if y0 <= y1 else y0
    status = 1
    for k in range(bboxes.shape[0]):
        if lox <= bboxes[k, 2] and hix >= bboxes[k, 0] and loy <= bboxes[k, 3] and hiy >= bboxes[k, 1]:
            dx = x1 - x0
            dy = y1 - y0
            for e in range(eax.shape[0]):
                ax = eax[e]
                ay = eay[e]
                ex = eex[e]
                ey = eey[e]
                rax = ax - x0
                ray = ay - y0
                o1 = dx * ray - dy * rax
                o2 = dx * (ray + ey) - dy * (rax + ex)
                o3 = ey * rax - ex * ray
                o4 = ex * (y1 - ay) - ey * (x1 - ax)
                if o1 * o2 <= 0 and o3 * o4 <= 0 and (o1 != 0 or o2 != 0):
                    return 0
            for u in range(uboxes.shape[0]):
                if not (x0 < uboxes[u, 0] or x0 > uboxes[u, 2] or y0 < uboxes[u, 1] or y0 > uboxes[u, 3]):
                    status = PENDING
                    break
            break
    nr = dboxes.shape[0]
    if nr == 0:
        return status
    room = 0.0
    for r in range(nr):
        c = (
            lox <= dboxes[r, 2]
            and hix >= dboxes[r, 0]
            and loy <= dboxes[r, 3]
            and hiy >= dboxes[r, 1]
            and not inside[r, ia]
            and not inside[r, ib]
        )
        room += ddiag[r] if c else 0.0
    if not room > DENSE_LIMIT:
        return status
    dx = x1 - x0
    dy = y1 - y0
    length = math.sqrt(dx * dx + dy * dy)
    total = 0.0
    for r in range(nr):
        c = (
            lox <= dboxes[r, 2]
            and hix >= dboxes[r, 0]
            and loy <= dboxes[r, 3]
            and hiy >= dboxes[r, 1]
            and not inside[r, ia]
            and not inside[r, ib]
        )
        if not c:
            continue
        t0 = -math.inf
        t1 = math.inf
        for h in range(hstart[r], hstart[r + 1]):
            nx = hnx[h]
            ny = hny[h]
            num = hna[h] - (nx * x0 + ny * y0)
            den = nx * dx + ny * dy
            ratio = num / (den if den != 0 else 1.0)
            if den < 0:
                enter = ratio
            elif den == 0 and num <= 0:
                enter = math.inf
            else:
                enter = -math.inf
            leave = ratio if den > 0 else math.inf
            if enter > t0:
                t0 = enter
            if leave < t1:
                t1 = leave
        t0 = t0 if t0 > 0.0 else 0.0
        t1 = t1 if t1 < 1.0 else 1.0
        span = t1 - t0
        total += (span if span > 0.0 else 0.0) * length
    if total > DENSE_LIMIT + 1e-9:
        return 0
    return status


@njit(cache=True)
def _cut(
    qx: float,
    qy: float,
    ux: float,
    uy: float,
    cax: float,
    cay: float,
    ra: float,
    cbx: float,
    cby: float,
    rb: float,
    out: np.ndarray,
) -> bool:
    """`sight._between` of one line q + t u: its shortest piece from disc a to disc b into `out`
    (x0, y0, x1, y1); False when it misses a disc (or has no direction)."""
    n = math.sqrt(ux * ux + uy * uy)
    ok = n > 1e-15
    s = n if ok else 1.0
    ux = ux / s
    uy = uy / s
    wx = cax - qx
    wy = cay - qy
    ta = wx * ux + wy * uy
    px = wx - ta * ux
    py = wy - ta * uy
    h2 = ra * ra - (px * px + py * py)
    ha = math.sqrt(h2 if h2 > 0.0 else 0.0)
    ma = h2 >= (-1e-12 * ra) * ra
    wx = cbx - qx
    wy = cby - qy
    tb = wx * ux + wy * uy
    px = wx - tb * ux
    py = wy - tb * uy
    h2 = rb * rb - (px * px + py * py)
    hb = math.sqrt(h2 if h2 > 0.0 else 0.0)
    mb = h2 >= (-1e-12 * rb) * rb
    if not (ok and ma and mb):
        return False
    a_lo = ta - ha
    a_hi = ta + ha
    b_lo = tb - hb
    b_hi = tb + hb
    if a_hi <= b_lo:
        t0 = a_hi
        t1 = b_lo
    elif b_hi <= a_lo:
        t0 = a_lo
        t1 = b_hi
    else:
        t0 = a_hi
        t1 = a_hi
    out[0] = qx + t0 * ux
    out[1] = qy + t0 * uy
    out[2] = qx + t1 * ux
    out[3] = qy + t1 * uy
    return True


@njit(cache=True)
def _psd(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """`measure.psd_xy` of one point and segment."""
    abx = bx - ax
    aby = by - ay
    apx = px - ax
    apy = py - ay
    den = abx * abx + aby * aby
    t = (apx * abx + apy * aby) / (den if den > 1e-300 else 1e-300)
    t = t if t > 0.0 else 0.0
    t = t if t < 1.0 else 1.0
    dx = apx - t * abx
    dy = apy - t * aby
    return math.sqrt(dx * dx + dy * dy)


@njit(cache=True)
def pairs_see(
    xy: np.ndarray,
    radii: np.ndarray,
    pi: np.ndarray,
    pj: np.ndarray,
    fan: bool,
    exact: bool,
    first: bool,
    fan_off: np.ndarray,
    inside: np.ndarray,
    bboxes: np.ndarray,
    eax: np.ndarray,
    eay: np.ndarray,
    eex: np.ndarray,
    eey: np.ndarray,
    uboxes: np.ndarray,
    dboxes: np.ndarray,
    ddiag: np.ndarray,
    hnx: np.ndarray,
    hny: np.ndarray,
    hna: np.ndarray,
    hstart: np.ndarray,
    verts: np.ndarray,
) -> np.ndarray:
    """Per pair (pi[k], pj[k]): 1 some line clear, 0 none, PENDING the kernel must decide, -1 not
    asked (after the first pair seen, with `first`). With `fan`, its lines (`sight._FAN_ALL`,
    `fan_off`) are tested; with `exact`, the exact candidate lines after them."""
    m = pi.shape[0]
    res = np.full(m, -1, dtype=np.int8)
    seg = np.empty(4)
    nv = verts.shape[0]
    sel = np.empty(nv, dtype=np.bool_)
    for k in range(m):
        a = pi[k]
        b = pj[k]
        ax = xy[a, 0]
        ay = xy[a, 1]
        bx = xy[b, 0]
        by = xy[b, 1]
        status = 0
        if a == b:
            status = 1
        if status != 1 and fan:
            dx = bx - ax
            dy = by - ay
            norm = math.sqrt(dx * dx + dy * dy)
            safe = norm if norm > 0 else 1.0
            nx = -dy / safe
            ny = dx / safe
            ra0 = radii[a]
            rb0 = radii[b]
            for f in range(fan_off.shape[0]):
                sa = fan_off[f, 0] * ra0
                sb = fan_off[f, 1] * rb0
                s = _line(
                    ax + sa * nx, ay + sa * ny, bx + sb * nx, by + sb * ny,
                    a, b, inside, bboxes, eax, eay, eex, eey, uboxes, dboxes, ddiag, hnx, hny, hna, hstart,
                )  # fmt: skip
                if s == 1:
                    status = 1
                    break
                if s == PENDING:
                    status = PENDING
        if status != 1 and exact:
            ra = INSET * radii[a]
            rb = INSET * radii[b]
            # Common tangents: the sign pairs (outer, outer, inner, inner) of `sight._SIGNS`.
            dx = bx - ax
            dy = by - ay
            z = dx * dx + dy * dy
            for g in range(4):
                s1 = 1.0 if g == 0 or g == 2 else -1.0
                s2 = 1.0 if g == 0 or g == 3 else -1.0
                a1 = s1 * ra
                dr = s2 * rb - a1
                disc = z - dr * dr
                if not (disc >= 0 and z > 1e-18):
                    continue
                sq = math.sqrt(disc)
                nx = (dr * dx + dy * sq) / z
                ny = (dr * dy - dx * sq) / z
                if _cut(ax - a1 * nx, ay - a1 * ny, -ny, nx, ax, ay, ra, bx, by, rb, seg):
                    s = _line(
                        seg[0], seg[1], seg[2], seg[3],
                        a, b, inside, bboxes, eax, eay, eex, eey, uboxes, dboxes, ddiag,
                        hnx, hny, hna, hstart,
                    )  # fmt: skip
                    if s == 1:
                        status = 1
                        break
                    if s == PENDING:
                        status = PENDING
            if status != 1 and nv:
                reach = (ra if ra >= rb else rb) + 1e-9
                for v in range(nv):
                    sel[v] = _psd(verts[v, 0], verts[v, 1], ax, ay, bx, by) <= reach
                # Tangents from each corner in the hull to each disc (a's first, then b's).
                for disc_b in range(2):
                    cx = bx if disc_b else ax
                    cy = by if disc_b else ay
                    r = rb if disc_b else ra
                    for v in range(nv):
                        if not sel[v] or status == 1:
                            continue
                        vx = verts[v, 0]
                        vy = verts[v, 1]
                        ddx = cx - vx
                        ddy = cy - vy
                        dist = math.sqrt(ddx * ddx + ddy * ddy)
                        if not dist > r:
                            continue
                        base = math.atan2(ddy, ddx)
                        off = math.asin(r / dist)
                        for sgn in range(2):
                            ang = base + off if sgn == 0 else base - off
                            if _cut(vx, vy, math.cos(ang), math.sin(ang), ax, ay, ra, bx, by, rb, seg):
                                s = _line(
                                    seg[0], seg[1], seg[2], seg[3],
                                    a, b, inside, bboxes, eax, eay, eex, eey, uboxes, dboxes, ddiag,
                                    hnx, hny, hna, hstart,
                                )  # fmt: skip
                                if s == 1:
                                    status = 1
                                    break
                                if s == PENDING:
                                    status = PENDING
                # Lines through two corners in the hull.
                for v in range(nv):
                    if not sel[v] or status == 1:
                        continue
                    for w in range(v + 1, nv):
                        if not sel[w]:
                            continue
                        vx = verts[v, 0]
                        vy = verts[v, 1]
                        if _cut(vx, vy, verts[w, 0] - vx, verts[w, 1] - vy, ax, ay, ra, bx, by, rb, seg):
                            s = _line(
                                seg[0], seg[1], seg[2], seg[3],
                                a, b, inside, bboxes, eax, eay, eex, eey, uboxes, dboxes, ddiag,
                                hnx, hny, hna, hstart,
                            )  # fmt: skip
                            if s == 1:
                                status = 1
                                break
                            if s == PENDING:
                                status = PENDING
        res[k] = status
        if first and status == 1:
            break
    return res


@njit(cache=True)
def probe(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """atan2, asin, cos and sin as compiled here, for the start-up check against `math`."""
    out = np.empty((4, x.shape[0]))
    for k in range(x.shape[0]):
        out[0, k] = math.atan2(y[k], x[k])
        out[1, k] = math.asin(math.sin(x[k]) * 0.999)
        out[2, k] = math.cos(x[k])
        out[3, k] = math.sin(y[k])
    return out
