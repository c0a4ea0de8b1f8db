"""`check._straight_py` compiled: a small batch of straight moves from one start, checked in one
numba call (the movement listing asks one such batch per movable model after every action).

The same tests in the same order as the reference: the segment against every base and piece
(`kernel.seg_clear`, the test `_blocked` answers), finite end, both ends on the table, the
length against the allowance, then each enemy's contact (ends in it; passes in it without
touching it at the start), with the reference's formulas (a division, not a reciprocal).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from skirmish.battlefield.paths.jit.kernel import seg_clear


@njit(cache=True)
def straight_moves(
    s: np.ndarray,
    e: np.ndarray,
    bases: np.ndarray,
    clear: np.ndarray,
    foe: np.ndarray,
    contact: float,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    tl: float,
    tl2: float,
    lo: float,
    hx: float,
    hy: float,
    limit: float,
) -> np.ndarray:
    """Per move s[i] -> e[i] (s[0] for every move when s has one row): legal as `_straight_py`
    judges it, against every base's row and clearance (`foe`: an enemy, kept out of contact,
    `contact` beyond its clearance) and every piece (box, edge range); `limit` is the allowance
    plus LENGTH_TOL, `lo`/`hx`/`hy` the table's bounds for the mover's centre."""
    m = e.shape[0]
    ok = np.zeros(m, dtype=np.bool_)
    nf = 0
    for j in range(foe.shape[0]):
        nf += foe[j]
    foes = np.empty((nf, 3))  # the reference's (x, y, clearance + CONTACT) per enemy, in order
    f = 0
    for j in range(foe.shape[0]):
        if foe[j]:
            foes[f, 0] = bases[j, 0]
            foes[f, 1] = bases[j, 1]
            foes[f, 2] = clear[j] + contact
            f += 1
    for i in range(m):
        sx = s[0, 0] if s.shape[0] == 1 else s[i, 0]
        sy = s[0, 1] if s.shape[0] == 1 else s[i, 1]
        ex = e[i, 0]
        ey = e[i, 1]
        if not seg_clear(sx, sy, ex, ey, bases, edges, pbox, pe0, pe1, tl, tl2, False):
            continue
        if not (math.isfinite(ex) and math.isfinite(ey)):
            continue
        if sx < lo or sx > hx or sy < lo or sy > hy or ex < lo or ex > hx or ey < lo or ey > hy:
            continue
        abx = ex - sx
        aby = ey - sy
        if math.sqrt(abx * abx + aby * aby) > limit:
            continue
        den = abx * abx + aby * aby
        den = 1e-300 if den < 1e-300 else den  # Python's max(den, 1e-300), NaN included
        good = True
        for f in range(foes.shape[0]):
            cx = foes[f, 0]
            cy = foes[f, 1]
            lim = foes[f, 2]
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


@njit(cache=True)
def straight_moves_at(
    s: np.ndarray,
    e: np.ndarray,
    xy: np.ndarray,
    radii: np.ndarray,
    mover: int,
    out: np.ndarray,
    enemy: np.ndarray,
    contact: float,
    overlap_tol: float,
    box_slack: float,
    edges: np.ndarray,
    pbox: np.ndarray,
    pe0: np.ndarray,
    pe1: np.ndarray,
    tl: float,
    tl2: float,
    lo: float,
    hx: float,
    hy: float,
    limit: float,
) -> np.ndarray:
    """`straight_moves` on the mover's obstacle set without contact rules (`Mover.obstacles(...,
    contact=False)`), its base rows made here from every centre and radius: each model other
    than `mover` and the out-of-play (`out`) in index order, clearance `radii[k] + radii[mover]`,
    its row by `obstacles._obstacles`' formulas in their order (limit = clearance - overlap_tol,
    squared; box half-width limit + box_slack), so the same rows bit for bit; `enemy` is the
    enemy mask over every model."""
    n = xy.shape[0]
    r = radii[mover]
    nb = 0
    for k in range(n):
        if k != mover and not out[k]:
            nb += 1
    bases = np.empty((nb, 7))
    clear = np.empty(nb)
    foe = np.empty(nb, dtype=np.bool_)
    i = 0
    for k in range(n):
        if k == mover or out[k]:
            continue
        c = radii[k] + r
        lim = c - overlap_tol
        w = lim + box_slack
        cx = xy[k, 0]
        cy = xy[k, 1]
        bases[i, 0] = cx
        bases[i, 1] = cy
        bases[i, 2] = lim * lim
        bases[i, 3] = cx - w
        bases[i, 4] = cx + w
        bases[i, 5] = cy - w
        bases[i, 6] = cy + w
        clear[i] = c
        foe[i] = enemy[k]
        i += 1
    return straight_moves(s, e, bases, clear, foe, contact, edges, pbox, pe0, pe1, tl, tl2, lo, hx, hy, limit)
