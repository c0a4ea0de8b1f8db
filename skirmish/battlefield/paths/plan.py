"""The planners: moves with a purpose built on the search (R-M2 move toward, R-C3 charge, R-E2
retreat).

Each turns a goal into a question for `search` or a fan of candidates for `check` and trims the
answer to a budget; the top of the chain, so nothing in `paths` depends on a planner.
"""

from __future__ import annotations

import math

import numpy as np

from skirmish.battlefield import portable
from skirmish.battlefield.measure import path_length, truncate_path
from skirmish.battlefield.paths.check import _lands, _legal_points, check_straight_moves
from skirmish.battlefield.paths.obstacles import Mover, _Obstacles
from skirmish.battlefield.paths.search import RING, _search
from skirmish.battlefield.table import Table

APPROACH = 0.001
"""A charge ends this far (edge to edge) from its target: touching, well inside CONTACT."""


RING_BATCH = 10
"""Rings around an occupied goal tested per kernel call when looking for the nearest free one."""


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
    unit = np.stack([portable.cos(ang), portable.sin(ang)], axis=-1)
    for lo in range(0, len(rhos), RING_BATCH):
        batch = np.array(rhos[lo : lo + RING_BATCH])
        rings = (goal + batch[:, None, None] * unit[None]).reshape(-1, 2)
        hit = _legal_points(table, obs, rings).reshape(len(batch), RING).any(axis=1)
        if hit.any():
            return float(batch[int(np.argmax(hit))])
    return None


def move_toward(mover: Mover, goal: np.ndarray, budget: float) -> np.ndarray | None:
    """A legal path of length <= budget as far as possible along the shortest path toward `goal`.

    If the goal itself is occupied (a target's centre, a point in terrain) the path heads for
    the nearest free ring around it. The path never comes into contact with an enemy, so it is a
    failed charge's move (R-C3) as well as a plain move. None when no move is possible.
    """
    table = mover.table
    start = mover.xy[mover.index].copy()
    gl = np.asarray(goal, dtype=float).reshape(2)
    obs = mover.obstacles(start)
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
    if len(memo) >= PATH_MEMO:
        memo.pop(next(iter(memo)))
    memo[key] = found
    return None if found is None else (found[0].copy(), found[1])


PATH_MEMO = 256
"""Charge paths remembered per table (oldest forgotten first), keyed on every input exactly."""


def _charge_path_now(mover: Mover, target: int) -> tuple[np.ndarray, float] | None:
    table, xy, radii = mover.table, mover.xy, mover.radii
    start = xy[mover.index].copy()
    obs = mover.obstacles(start, target=target)
    goal_r = float(radii[mover.index] + radii[target]) + APPROACH
    path = _search(table, obs, start, xy[target], goal_r)
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
