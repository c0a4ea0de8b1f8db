"""Legality of whole paths, batches of straight moves and single points (R-M2, R-M3, R-C3, R-B4).

Rules on top of the kernel: length against the allowance, staying on the table, landing clear
of terrain when flying, and enemy contact at the end. The path finder (`search`) proposes
paths and asks these same point checks, so it sits above this module, never beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from skirmish.battlefield.measure import (
    CONTACT,
    OVERLAP_TOL,
    path_length,
    path_length_py,
    point_segment_distance,
)
from skirmish.battlefield.memo import remember
from skirmish.battlefield.paths.kernel import _blocked, _seg_clear, _seg_hits, _violations
from skirmish.battlefield.paths.obstacles import BOX_SLACK, Mover, _Obstacles
from skirmish.battlefield.table import Table

LENGTH_TOL = 1e-6
"""A path may exceed its allowance by float noise only."""


@dataclass(frozen=True)
class PathProblem:
    """Why a path is illegal: the rule it breaks and a message naming what it hits."""

    rule: str
    message: str


def _off_table(table: Table, pts: np.ndarray, r: float) -> np.ndarray:
    lo = r - 1e-9
    return (
        (pts[:, 0] < lo) | (pts[:, 0] > table.width - lo) | (pts[:, 1] < lo) | (pts[:, 1] > table.height - lo)
    )


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
    if len(pts) == 1:
        # One point (a goal): `_off_table`'s comparisons in plain floats, and no kernel call
        # when it is off the table (`_blocked` asks nothing of the table, so skipping it is safe).
        x, y = pts[0].tolist()
        lo = obs.radius - 1e-9
        if x < lo or x > table.width - lo or y < lo or y > table.height - lo:
            return np.zeros(1, dtype=bool)
        return ~_blocked(obs, pts, pts, base_sel, piece_sel)
    return ~_off_table(table, pts, obs.radius) & ~_blocked(obs, pts, pts, base_sel, piece_sel)


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
    return landing(table, pts, obs.radius)


LANDING_MEMO = 512
"""Landing answers remembered per table (oldest forgotten first)."""


def landing(table: Table, pts: np.ndarray, radius: float) -> np.ndarray:
    """`table.clear_of_impassable(pts, radius)` (R-B4), remembered on the table keyed on the
    points' bytes and the radius: a flyer listed again from the same place asks the same straight
    ends, goal ring and trimmed ends again, and each asks shapely a distance per point. A copy
    each time (the caller may keep or change it)."""
    p = np.ascontiguousarray(pts, dtype=float).reshape(-1, 2)
    key = (p.tobytes(), float(radius))
    memo = table.memo.setdefault("landings", {})
    assert isinstance(memo, dict)
    hit = memo.get(key)
    if hit is None:
        hit = np.asarray(table.clear_of_impassable(p, radius), dtype=bool)
        remember(memo, key, hit, LANDING_MEMO)
    return hit.copy()


def check_path(
    mover: Mover, path: np.ndarray, *, max_length: float, contact_target: int | None = None
) -> PathProblem | None:
    """The whole path's legality (R-M2, R-M3, R-C3); None when legal, else the first problem.

    Legal: finite points, length <= max_length, every point on the table (whole base), never
    closer to an impassable piece than the mover's radius (unless flying, R-B4), never
    overlapping another base, never within CONTACT of an enemy it did not start touching, and,
    for a charge, ending in base contact with `contact_target`.

    A short legal path (the usual case: every declared move of a replay) is recognised in plain
    floats first (`_legal_short`); anything else, and every problem's message, is the reference's.
    """
    if _legal_short(mover, path, max_length, contact_target):
        return None
    return _check_path_reference(mover, path, max_length=max_length, contact_target=contact_target)


SHORT_PATH = 64
"""Paths of at most this many points are first tried by `_legal_short` (a path with arcs has a
few dozen; each segment's test is a handful of bounding boxes in plain floats)."""


def _legal_short(mover: Mover, path: np.ndarray, max_length: float, contact_target: int | None) -> bool:
    """True only when `_check_path_reference` would answer None: the same tests with the same
    floats (the segment test is `_seg_clear`, the kernel's stop-at-the-first-
    hit form of `_seg_hits`; the end gaps are numpy's `sqrt(dx*dx + dy*dy) - r_k - r` element by
    element). False when the path is not short or anything fails: the reference then decides.
    A straight path is judged without an obstacle set (`_straight_clear`)."""
    screened = _screened(mover, path, max_length, contact_target)
    if screened is None:
        return False
    p, pts, r = screened
    if len(pts) == 2:
        return _straight_clear(mover, pts, r, contact_target)
    return _clear_with_set(mover, p, pts, r, contact_target)


def _screened(
    mover: Mover, path: np.ndarray, max_length: float, contact_target: int | None
) -> tuple[np.ndarray, list[list[float]], float] | None:
    """`_legal_short`'s first tests (shape, finite points, length, the table's edge, a flyer's
    landing, the target's index): None when one fails, else the path as an array and as plain
    floats, and the mover's radius."""
    p = np.asarray(path, dtype=float)
    if p.ndim != 2 or p.shape[1] != 2 or not 2 <= len(p) <= SHORT_PATH:
        return None
    pts: list[list[float]] = p.tolist()
    if not _finite(pts) or path_length_py(pts) > max_length + LENGTH_TOL:
        return None
    table = mover.table
    r = mover.radius
    if _leaves(table, pts, r) or (mover.flying and not landing(table, p[-1:], r)[0]):
        return None
    if contact_target is not None and not 0 <= contact_target < len(mover.xy):
        return None
    return p, pts, r


def _straight_clear(mover: Mover, pts: list[list[float]], r: float, contact_target: int | None) -> bool:
    """The rest of `_legal_short` for a straight (two-point) path, without an obstacle set.

    `_legal_short` asks `mover.obstacles(start, target=...)` for the bases' rows and then
    `_seg_clear`; the applied move's set was seldom asked before (the listing judges its straight
    lines with the compiled batch, which builds no set) and is never asked again (the mover leaves
    its start), so building, patching and keeping it cost more than the test. Here each base's
    row is worked out with `_obstacles`' formulas in its loop (clearance r_k + r, an enemy not
    touching the start and not the target grown by CONTACT + 1e-7, the limit clearance -
    OVERLAP_TOL, squared, the box half-width limit + BOX_SLACK; the mover and the out-of-play
    skipped) and tested at once with `_seg_clear`'s formulas, then the pieces as `_seg_clear`
    tests them (none for a flyer or a bare table, as `_assemble` gives) and the end gaps: the same
    floats, so the same answer (a test holds it to the obstacle-set form)."""
    (sx, sy), (ex, ey) = pts
    table = mover.table
    rl: list[float] = mover.radii.tolist()
    xy: list[list[float]] = mover.xy.tolist()
    n = len(xy)
    foe = None if mover.enemy is None else np.asarray(mover.enemy, dtype=bool).tolist()
    out = [False] * n if mover.ignore is None else np.asarray(mover.ignore, dtype=bool).tolist()
    me = mover.index
    sqrt = math.sqrt
    grow_by = CONTACT + 1e-7
    abx = ex - sx
    aby = ey - sy
    inv = 1.0 / max(abx * abx + aby * aby, 1e-300)
    lox, hix = (sx, ex) if sx <= ex else (ex, sx)
    loy, hiy = (sy, ey) if sy <= ey else (ey, sy)
    for k in range(n):
        if k == me or out[k]:
            continue
        cx, cy = xy[k]
        c = rl[k] + r
        if foe is not None and foe[k] and k != contact_target:
            dx = cx - sx
            dy = cy - sy
            if not sqrt(dx * dx + dy * dy) <= c + CONTACT + 1e-9:  # not touching at the start
                c = c + grow_by
        lim = c - OVERLAP_TOL
        w = lim + BOX_SLACK
        if cx + w < lox or cx - w > hix or cy + w < loy or cy - w > hiy:
            continue
        apx = cx - sx
        apy = cy - sy
        t = (apx * abx + apy * aby) * inv
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        dx = apx - t * abx
        dy = apy - t * aby
        if dx * dx + dy * dy < lim * lim:
            return False
    if not mover.flying and len(table.impassable_index):
        tlim = r - OVERLAP_TOL
        if not _seg_clear(sx, sy, ex, ey, (), table.imp_kernel.py, tlim + BOX_SLACK, tlim * tlim, False):
            return False
    for k in range(n):
        x, y = xy[k]
        if k == contact_target:
            dx = x - ex
            dy = y - ey
            if sqrt(dx * dx + dy * dy) - rl[k] - r > CONTACT:
                return False
        elif foe is not None and foe[k] and k != me and not out[k]:
            dx = x - ex
            dy = y - ey
            if sqrt(dx * dx + dy * dy) - rl[k] - r <= CONTACT:
                return False
    return True


def _legal_short_with_set(
    mover: Mover, path: np.ndarray, max_length: float, contact_target: int | None
) -> bool:
    """`_legal_short` as it was before `_straight_clear`: every path through the obstacle set
    (`mover.obstacles`), the reference a test holds the straight form to."""
    screened = _screened(mover, path, max_length, contact_target)
    if screened is None:
        return False
    p, pts, r = screened
    return _clear_with_set(mover, p, pts, r, contact_target)


def _clear_with_set(
    mover: Mover, p: np.ndarray, pts: list[list[float]], r: float, contact_target: int | None
) -> bool:
    """`_legal_short`'s segment and end tests on the obstacle set (any path of two or more points)."""
    n = len(mover.xy)
    obs = mover.obstacles(p[0], target=contact_target)
    bases: Sequence[tuple[float, ...]] = obs.bases_py()
    pieces: Sequence[_Piece] = obs.kern.py
    tl, tl2 = obs.tlim + BOX_SLACK, obs.tlim2
    if len(pts) > 2:
        bases, pieces = _near_path(pts, bases, pieces, tl)
    x0, y0 = pts[0]
    for x1, y1 in pts[1:]:
        if not _seg_clear(x0, y0, x1, y1, bases, pieces, tl, tl2, False):
            return False
        x0, y0 = x1, y1
    ex, ey = pts[-1]
    rl: list[float] = mover.radii.tolist()
    xy: list[list[float]] = mover.xy.tolist()
    foe = [False] * n if mover.enemy is None else np.asarray(mover.enemy, dtype=bool).tolist()
    out = [False] * n if mover.ignore is None else np.asarray(mover.ignore, dtype=bool).tolist()
    sqrt = math.sqrt
    for k, (x, y) in enumerate(xy):
        if k == contact_target:
            dx = x - ex
            dy = y - ey
            if sqrt(dx * dx + dy * dy) - rl[k] - r > CONTACT:
                return False
        elif foe[k] and k != mover.index and not out[k]:
            dx = x - ex
            dy = y - ey
            if sqrt(dx * dx + dy * dy) - rl[k] - r <= CONTACT:
                return False
    return True


_Piece = tuple[tuple[float, float, float, float], tuple[tuple[float, ...], ...]]
"""A piece as `_seg_clear` takes it (`EdgeKernel.py`): its box, then its edges."""


def _near_path(
    pts: list[list[float]], bases: Sequence[tuple[float, ...]], pieces: Sequence[_Piece], tl: float
) -> tuple[list[tuple[float, ...]], list[_Piece]]:
    """The bases and pieces `_seg_clear` might test for some segment of the path: those its box
    rejections pass against the whole path's bounding box, with the same comparisons. Every
    segment's box lies inside the path's, so a base or piece rejected here is rejected for each
    segment, and `_seg_clear` on what is left answers as on everything (in the same order)."""
    xs = [x for x, _ in pts]
    ys = [y for _, y in pts]
    lox, hix, loy, hiy = min(xs), max(xs), min(ys), max(ys)
    near_bases = [b for b in bases if not (b[4] < lox or b[3] > hix or b[6] < loy or b[5] > hiy)]
    near_pieces = [
        pc
        for pc in pieces
        if not (pc[0][2] + tl < lox or pc[0][0] - tl > hix or pc[0][3] + tl < loy or pc[0][1] - tl > hiy)
    ]
    return near_bases, near_pieces


def _check_path_reference(
    mover: Mover, path: np.ndarray, *, max_length: float, contact_target: int | None = None
) -> PathProblem | None:
    """`check_path` in numpy, test by test: the reference `_legal_short` is held to, and the one
    that names every problem."""
    table, xy, radii, flying = mover.table, mover.xy, mover.radii, mover.flying
    p = np.asarray(path, dtype=float).reshape(-1, 2)
    if len(p) == 0:
        return PathProblem("R-M2", "the path is empty")
    short = len(p) <= SCREENED_PATH
    pts = p.tolist() if short else None
    if not (_finite(pts) if pts is not None else np.isfinite(p).all()):
        return PathProblem("R-M2", "the path has a non-finite point")
    length = path_length(p)
    if length > max_length + LENGTH_TOL:
        return PathProblem("R-M2", f'the path is {length:.2f}" long; the allowance is {max_length:.2f}"')
    r = mover.radius
    if _leaves(table, pts, r) if pts is not None else _off_table(table, p, r).any():
        return PathProblem("R-M2", "the path leaves the table")
    if flying and not landing(table, p[-1:], r)[0]:
        return PathProblem(
            "R-B4", "a flying model passes over impassable terrain but may not end its move on it"
        )
    p0 = p[:-1] if len(p) > 1 else p
    p1 = p[1:] if len(p) > 1 else p
    obs = mover.obstacles(p[0], target=contact_target)
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
    en = mover.enemies
    # Enemies touched at the start may be moved away along, but the move may not end in contact.
    gap = np.sqrt(((xy - end) ** 2).sum(-1)) - radii - r
    still = en & (gap <= CONTACT)
    still[mover.index] = False
    if mover.ignore is not None:
        still &= ~np.asarray(mover.ignore, dtype=bool)
    if contact_target is not None:
        still[contact_target] = False
        g = float(gap[contact_target])
        if g > CONTACT:
            return PathProblem("R-C3", f'ends {g:.2f}" from the target, not in base contact')
    if still.any():
        return PathProblem("R-M3", f"ends in base contact with enemy model {int(np.flatnonzero(still)[0])}")
    return None


SCREENED_PATH = 8
"""Paths of at most this many points (every listed move but a long arc) are screened for finite
points and the table's edge in plain floats (`_finite`, `_leaves`) by the reference: the same
comparisons as numpy's, without an array per test."""


def _finite(pts: list[list[float]]) -> bool:
    """`np.isfinite(p).all()` of a short path's points."""
    return all(math.isfinite(x) and math.isfinite(y) for x, y in pts)


def _leaves(table: Table, pts: list[list[float]], r: float) -> bool:
    """`_off_table(table, p, r).any()` of a short path's (finite) points: the same comparisons."""
    lo = r - 1e-9
    hx = table.width - lo
    hy = table.height - lo
    return any(x < lo or x > hx or y < lo or y > hy for x, y in pts)


def check_straight_moves(
    mover: Mover, starts: np.ndarray, ends: np.ndarray, *, max_length: float
) -> np.ndarray:
    """Batch form of `check_path` for many straight moves of one mover: (m,) bool legal.

    The same rules as `check_path` (without a charge target); enemies touched at the start of
    each move may be moved away from. One set of numpy kernels for all the moves.
    """
    table, flying = mover.table, mover.flying
    s = np.asarray(starts, dtype=float).reshape(-1, 2)
    e = np.asarray(ends, dtype=float).reshape(-1, 2)
    s = np.broadcast_to(s, e.shape) if len(s) == 1 else s
    r = mover.radius
    obs = mover.obstacles(s[0], contact=False)
    if len(e) <= STRAIGHT_SMALL:
        ok_py = _straight_py(table, obs, s, e, mover.enemies[obs.model], max_length)
        return ok_py & landing(table, e, r) if flying else ok_py
    d = e - s
    ok = np.sqrt((d * d).sum(-1)) <= max_length + LENGTH_TOL
    ok &= np.isfinite(e).all(axis=1) & ~_off_table(table, e, r) & ~_off_table(table, s, r)
    if flying:
        ok &= landing(table, e, r)
    bad_b, bad_t = _violations(obs, s, e)
    ok &= ~bad_b.any(axis=1) & ~bad_t.any(axis=1)
    en = mover.enemies[obs.model]
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
    blocked: list[bool] = _blocked(obs, s, e).tolist()
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
