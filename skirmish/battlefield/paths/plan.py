"""The planners: moves with a purpose built on the search (R-M2 move toward, R-C3 charge, R-E2
retreat).

Each turns a goal into a question for `search` or a fan of candidates for `check` and trims the
answer to a budget; the top of the chain, so nothing in `paths` depends on a planner.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from skirmish.battlefield import portable
from skirmish.battlefield.measure import path_length, truncate_path
from skirmish.battlefield.memo import remember
from skirmish.battlefield.paths import jit
from skirmish.battlefield.paths.check import _lands, _legal_points, check_straight_moves
from skirmish.battlefield.paths.kernel import near_flat
from skirmish.battlefield.paths.obstacles import Mover, _Obstacles
from skirmish.battlefield.paths.search import RING, _search, _search_record, _SearchRecord, ring_unit
from skirmish.battlefield.table import Table

APPROACH = 0.001
"""A charge ends this far (edge to edge) from its target: touching, well inside CONTACT."""


RING_BATCH = 10
"""Rings around an occupied goal tested per kernel call when looking for the nearest free one."""


@functools.lru_cache(maxsize=16)
def _rings(limit: float) -> tuple[tuple[float, ...], np.ndarray]:
    """The ring radii below `limit` (0.05, then x1.3 + 0.05) and the RING unit directions, the
    same numbers for every goal of a table size: worked out once (read-only)."""
    rhos = []
    rho = 0.05
    while rho < limit:
        rhos.append(rho)
        rho = rho * 1.3 + 0.05
    return tuple(rhos), ring_unit()


def _nearest_free_radius(table: Table, obs: _Obstacles, goal: np.ndarray) -> tuple[float | None, float]:
    """Smallest ring radius around an illegal goal that has a legal point on it (sampled), and
    the radius within which the answer depends on the bases (that ring's, or the last tested).

    The radii grow geometrically (0.05, then x1.3 + 0.05); they are tested a batch of rings at a
    time (one kernel call for the first ten usually finds it), smallest first.
    """
    rhos, unit = _rings(max(table.width, table.height))
    for lo in range(0, len(rhos), RING_BATCH):
        batch = np.array(rhos[lo : lo + RING_BATCH])
        rings = (goal + batch[:, None, None] * unit[None]).reshape(-1, 2)
        hit = _legal(table, obs, rings).reshape(len(batch), RING).any(axis=1)
        if hit.any():
            rho = float(batch[int(np.argmax(hit))])
            return rho, rho
    return None, float(rhos[-1]) if rhos else 0.0


def _legal(table: Table, obs: _Obstacles, pts: np.ndarray) -> np.ndarray:
    """`_legal_points` against every obstacle: compiled where the finder is loaded (the goal and
    ring points of a plan, often beside terrain with many edges), the same booleans."""
    fast = jit.legal_points(table, obs, pts)
    return _legal_points(table, obs, pts) if fast is None else fast


def move_toward(mover: Mover, goal: np.ndarray, budget: float) -> np.ndarray | None:
    """A legal path of length <= budget as far as possible along the shortest path toward `goal`.

    If the goal itself is occupied (a target's centre, a point in terrain) the path heads for
    the nearest free ring around it. The path never comes into contact with an enemy, so it is a
    failed charge's move (R-C3) as well as a plain move. None when no move is possible.

    Remembered on the table (see `_TowardRecord`): the engine's list, the bots' goal moves and a
    retried charge ask the same mover the same goal again, often after a friend moved elsewhere.
    """
    return move_toward_record(mover, goal, budget)[0]


def move_toward_record(
    mover: Mover, goal: np.ndarray, budget: float
) -> tuple[np.ndarray | None, _TowardRecord]:
    """`move_toward`, with the record that answers it (reused or just made): what it asked of
    the bases, which holds wherever every friend that moved since stayed clear of it (the
    movement listing keeps it with its own record, `movement._relisted`)."""
    gl = np.asarray(goal, dtype=float).reshape(2)
    xy, radii, index = mover.xy, mover.radii, mover.index
    en = mover.enemies
    gone = np.zeros(len(xy), dtype=bool) if mover.ignore is None else np.asarray(mover.ignore, dtype=bool)
    # Friends still on the table, other than the mover: the only bases a record may be reused across.
    free = ~en & ~gone
    free[index] = False
    key = (
        index,
        gl.tobytes(),
        float(budget),
        radii.tobytes(),
        mover.enemy is None,
        en.tobytes(),
        mover.ignore is None,
        gone.tobytes(),
        bool(mover.flying),
        xy[~free].tobytes(),
    )
    memo = mover.table.memo.setdefault("move_toward", {})
    assert isinstance(memo, dict)
    rec = memo.get(key)
    if isinstance(rec, _TowardRecord) and rec.xy.shape == xy.shape and _still_true(rec, xy, radii, index, gl):
        return (None if rec.path is None else rec.path.copy()), rec
    path, made = _move_toward_now(mover, gl, budget)
    remember(memo, key, made, TOWARD_MEMO)
    return path, made


TOWARD_MEMO = 1024
"""`move_toward` answers remembered per table (one record per question, oldest forgotten first)."""

MARGIN = 1e-6
"""A moved friend counts as near a probe within its clearance plus this (the kernels flag only
within the clearance minus OVERLAP_TOL): a conservative test, never a missed hit."""


@dataclass
class _TowardRecord:
    """One `move_toward` answer and everything it asked of the bases, so that the same question
    after some friends moved is answered without asking again when none of them mattered.

    The planner judges other bases only through point and segment questions: is the goal point
    legal, which is the smallest ring around it with a legal point (every point tested lies within
    `reach` of the goal, the radius of that ring), and the search, whose own record (`search.
    _SearchRecord`) lists its probes and the bases it went around. Truncating to the budget and a
    flyer's landing ask only the path and the terrain. So when every moved friend, before and after
    its move, is farther than its clearance (+ MARGIN) from the goal's `reach` disc and from every
    probe, and the search went around none of them, a fresh call gives this answer bit for bit
    (the enemies, the out-of-play, the radii, the mover and its start are in the key)."""

    xy: np.ndarray  # every centre where it holds (renewed in place by `_still_true`)
    reach: float  # the goal and ring tests probed points within this of the goal
    included: tuple[int, ...]  # models the search went around (a tuple: untracked by the collector)
    probes: tuple[float, ...]  # the search's segments and points, flat (`search._SearchRecord`)
    path: np.ndarray | None


def _still_true(rec: _TowardRecord, xy: np.ndarray, radii: np.ndarray, index: int, goal: np.ndarray) -> bool:
    """Whether `rec` is the answer at `xy` (see `_TowardRecord`): the models that moved since (a
    centre's 16 bytes differ) are friends (the rest is in the key) and none of them, before or
    after, is near what was asked. When it is, the record is renewed at `xy` (a fresh call there
    asks the same questions and gets the same answers, so the record is that call's), and the
    next question after one more move compares only that move."""
    now, was = xy.tobytes(), rec.xy.tobytes()
    if now == was:
        return True
    moved = [j for j in range(len(xy)) if now[16 * j : 16 * j + 16] != was[16 * j : 16 * j + 16]]
    r = float(radii[index])
    gx, gy = goal.tolist()
    old, new = rec.xy.tolist(), xy.tolist()
    rl = radii.tolist()
    for j in moved:
        if j in rec.included:
            return False
        c = rl[j] + r + MARGIN
        for px, py in (old[j], new[j]):
            if math.hypot(px - gx, py - gy) <= rec.reach + c or near_flat(px, py, c * c, rec.probes):
                return False
    rec.xy = xy.copy()
    return True


def _move_toward_now(mover: Mover, gl: np.ndarray, budget: float) -> tuple[np.ndarray | None, _TowardRecord]:
    """`move_toward` asked afresh, with the record of what it asked."""
    table = mover.table
    start = mover.xy[mover.index].copy()
    obs = mover.obstacles(start)
    searched: _SearchRecord | None = None
    if _legal(table, obs, gl[None, :])[0]:
        reach = 0.0
        path, searched = _search_record(table, obs, start, gl, 0.0)
    else:
        rho, reach = _nearest_free_radius(table, obs, gl)
        path = None
        if rho is not None:
            path, searched = _search_record(table, obs, start, gl, rho)
    out = _trimmed(table, obs, path, budget)
    return out, _record(mover, obs, reach, searched, out)


def _record(
    mover: Mover, obs: _Obstacles, reach: float, searched: _SearchRecord | None, out: np.ndarray | None
) -> _TowardRecord:
    """The `_TowardRecord` of one fresh call: the probes and included bases of the search's own
    record (the one that answered it, reused or made: `search._search_record`)."""
    probes: tuple[float, ...] = ()
    included: tuple[int, ...] = ()
    if searched is not None:
        probes = searched.probes
        model = obs.model.tolist()
        included = tuple(model[k] for k in searched.included)
    return _TowardRecord(mover.xy.copy(), reach, included, probes, None if out is None else out.copy())


def _trimmed(table: Table, obs: _Obstacles, path: np.ndarray | None, budget: float) -> np.ndarray | None:
    """The searched path cut to the budget (a flyer's stopping short of impassable terrain)."""
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
    # A path cut at `cut` inches measures `cut` to within float noise (some 1e-13), so only a
    # cut near nothing needs measuring again.
    if cut <= 1e-6 and path_length(path) <= 1e-9:
        return None
    return path


def charge_path(mover: Mover, target: int) -> tuple[np.ndarray, float] | None:
    """R-C3: the shortest path into base contact with `target`, and its length (the charge range).

    The path ends touching the target (edge distance APPROACH, well inside CONTACT), comes into
    contact with no other enemy, and goes around bases and impassable terrain. None if no point
    of contact can be reached. Memoised on the table, keyed on every input exactly.
    """
    gone = None if mover.ignore is None else np.asarray(mover.ignore, dtype=bool)
    key = (
        "charge",
        mover.index,
        target,
        bool(mover.flying),
        mover.xy.tobytes(),
        mover.radii.tobytes(),
        mover.enemies.tobytes(),
        None if gone is None else gone.tobytes(),
    )
    memo = mover.table.path_memo
    if key in memo:
        # The same question again (a bot measured this charge, the engine now resolves it).
        hit = memo[key]
        return None if hit is None else (hit[0].copy(), hit[1])
    found = _charge_path_now(mover, target)
    remember(memo, key, found, PATH_MEMO)
    return None if found is None else (found[0].copy(), found[1])


PATH_MEMO = 256
"""Charge paths remembered per table (oldest forgotten first), keyed on every input exactly."""

FLOOR_SLACK = 1e-6
"""`charge_floor` stays this far below the straight distance: float noise in a path's length
(its end on the goal disc, the sum of its segments) is some 1e-13 on a table of inches."""


def charge_floor(mover: Mover, target: int) -> float:
    """A length no `charge_path` to `target` is shorter than, without searching (R-C3): the
    straight distance from the start to the nearest point of the goal disc (the path ends on that
    disc, and no path is shorter than the straight line), less FLOOR_SLACK. A caller that only
    needs to know whether a charge is within reach skips the search when this is beyond it."""
    xy = mover.xy
    sx, sy = xy[mover.index].tolist()
    gx, gy = xy[target].tolist()
    return math.hypot(sx - gx, sy - gy) - _charge_goal_r(mover, target) - FLOOR_SLACK


def _charge_goal_r(mover: Mover, target: int) -> float:
    """The radius of the disc a charge path ends on (base contact, APPROACH inside CONTACT): one
    formula for the search and for the floor, which is sound only while the two agree."""
    return float(mover.radii[mover.index] + mover.radii[target]) + APPROACH


def _charge_path_now(mover: Mover, target: int) -> tuple[np.ndarray, float] | None:
    table, xy = mover.table, mover.xy
    start = xy[mover.index].copy()
    obs = mover.obstacles(start, target=target)
    path = _search(table, obs, start, xy[target], _charge_goal_r(mover, target))
    if path is None or not _lands(table, obs, path[-1:])[0]:
        return None
    return path, path_length(path)


def retreat_path(mover: Mover, away_from: np.ndarray, distance: float) -> np.ndarray | None:
    """R-E2: a legal straight move of up to `distance` that ends as far as possible from a point.

    Candidate moves fan out from straight away (0°, ±15°, ... ±90°) at several lengths, checked
    in one batch; the legal one ending farthest from `away_from` wins (the shorter on a tie, then
    the fan order). None if every candidate is illegal.
    """
    start = mover.xy[mover.index].copy()
    away = np.asarray(away_from, dtype=float).reshape(2)
    d = start - away
    base_ang = math.atan2(d[1], d[0]) if float(np.hypot(*d)) > 1e-12 else 0.0
    offs = np.deg2rad(np.array([0, 15, -15, 30, -30, 45, -45, 60, -60, 75, -75, 90, -90], dtype=float))
    ang = base_ang + offs
    fracs = np.linspace(1.0, 0.1, 10)
    dirs = np.stack([portable.cos(ang), portable.sin(ang)], axis=-1)
    ends = (start[None, None, :] + distance * fracs[None, :, None] * dirs[:, None, :]).reshape(-1, 2)
    ok = check_straight_moves(mover, start[None, :], ends, max_length=distance)
    if not ok.any():
        return None
    far = np.sqrt(((ends - away) ** 2).sum(-1))
    score = np.where(ok, far, -np.inf)
    best = int(np.argmax(score))
    return np.vstack([start, ends[best]])
