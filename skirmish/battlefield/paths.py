"""Movement along paths (R-M2, R-M3, R-C3, R-E1, R-E2; design principle 10).

Every move is a polyline whose length is what it costs. One exact numpy kernel decides whether a
set of segments is legal (on the table, clear of impassable terrain and of other bases, no
enemy contact outside a charge); the path finder only proposes paths, and everything it returns
has passed that same kernel, so finder and checker cannot disagree.

The path finder is a visibility graph over grown obstacles (impassable pieces grown by the
mover's radius, other bases grown by both radii) searched with A*, with two economies that keep
it near a millisecond: obstacles are added lazily (search with the obstacles met so far, check
the result against all, add the ones it hits, repeat: the first path that clears everything is
the shortest, since extra obstacles only lengthen paths), and edges are tested only when A*
expands a node.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import numpy as np
import shapely

from skirmish.battlefield.measure import (
    CONTACT,
    OVERLAP_TOL,
    path_length,
    point_segment_distance,
    ssd_xy,
    truncate_path,
)
from skirmish.battlefield.table import Table

LENGTH_TOL = 1e-6
"""A path may exceed its allowance by float noise only."""

BASE_SIDES = 8
"""Grown bases become regular octagons circumscribing the true circle (paths ~1-2% long at worst)."""

NODE_MARGIN = 1e-4
"""Path-finder corners sit this far outside the exact clearance, so they pass the exact check."""

APPROACH = 0.001
"""A charge ends this far (edge to edge) from its target: touching, well inside CONTACT."""

RING = 24
"""Candidate end points around a goal disc when the straight approach is blocked."""


@dataclass(frozen=True)
class PathProblem:
    """Why a path is illegal: the rule it breaks and a message naming what it hits."""

    rule: str
    message: str


# -- obstacles ----------------------------------------------------------------------------------


@dataclass
class _Obstacles:
    """What a mover must keep clear of: bases (centre, clearance) and impassable pieces (edges)."""

    centres: np.ndarray  # (b, 2)
    clearance: np.ndarray  # (b,) minimum centre distance
    model: np.ndarray  # (b,) model index of each base obstacle
    edges: np.ndarray  # (t, 2, 2) impassable edges
    edge_owner: np.ndarray  # (t,) which impassable piece (0..p-1)
    polys: np.ndarray  # (p,) prepared shapely polygons
    piece: np.ndarray  # (p,) table piece index
    radius: float  # the mover's radius (terrain clearance)
    ea: np.ndarray  # (K, 2) every obstacle as segments: base centres (degenerate), then edges
    eb: np.ndarray  # (K, 2)
    lim: np.ndarray  # (K,) clearance minus tolerance for each segment
    col_owner: np.ndarray  # (K,) obstacle id: bases 0..b-1, pieces b..b+p-1
    onehot: np.ndarray  # (K, b+p) float32 one-hot of col_owner, to reduce columns by obstacle

    @property
    def count(self) -> int:
        return len(self.centres) + len(self.polys)


def _obstacles(
    table: Table,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray | None,
    start: np.ndarray,
    *,
    flying: bool,
    ignore: np.ndarray | None,
    target: int | None,
    contact: bool = True,
) -> _Obstacles:
    """Obstacles for a mover starting at `start`.

    Enemies get a clearance of CONTACT more than overlap (no contact outside a charge, R-M3),
    except an enemy the mover already touches at the start (it may move away along it, R-E2) and
    the charge target (which it may touch, R-C3).
    """
    n = len(xy)
    r = float(radii[mover])
    keep = np.ones(n, dtype=bool)
    keep[mover] = False
    if ignore is not None:
        keep &= ~np.asarray(ignore, dtype=bool)
    idx = np.flatnonzero(keep)
    centres = xy[idx]
    clear = radii[idx] + r
    if enemy is not None and contact:
        en = np.asarray(enemy, dtype=bool)[idx]
        d0 = np.sqrt(((centres - start) ** 2).sum(-1))
        touching = d0 <= clear + CONTACT + 1e-9
        grow = en & ~touching
        if target is not None:
            grow &= idx != target
        clear = clear + np.where(grow, CONTACT + 1e-7, 0.0)
    if flying or len(table.impassable_index) == 0:
        edges = np.empty((0, 2, 2))
        owner = np.empty(0, dtype=int)
        polys = np.empty(0, dtype=object)
        piece = np.empty(0, dtype=int)
    else:
        edges, owner = table.imp_edges, table.imp_edge_owner
        piece = table.impassable_index
        polys = table.polygons[piece]
    nb = len(centres)
    ea = np.vstack([centres, edges[:, 0, :]])
    eb = np.vstack([centres, edges[:, 1, :]])
    lim = np.concatenate([clear, np.full(len(edges), r)]) - OVERLAP_TOL
    col_owner = np.concatenate([np.arange(nb), nb + owner]).astype(int)
    onehot = (col_owner[:, None] == np.arange(nb + len(polys))[None, :]).astype(np.float32)
    return _Obstacles(centres, clear, idx, edges, owner, polys, piece, r, ea, eb, lim, col_owner, onehot)


def _violations(
    obs: _Obstacles,
    p0: np.ndarray,
    p1: np.ndarray,
    base_sel: np.ndarray | None = None,
    piece_sel: np.ndarray | None = None,
    ends_outside: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """(m, b) and (m, p) bool: segment i comes too close to base obstacle j / impassable piece j.

    Exact: bases are degenerate segments (their centre) with the base clearance, impassable
    pieces are their edges with the mover's radius, all measured by one segment-to-segment
    distance call (numpy call overhead, not arithmetic, dominates these sizes); an end inside a
    piece also counts. `*_sel` restrict the obstacles tested (the lazily included ones);
    `ends_outside` skips the inside test when both ends are known to be legal points.
    """
    m = len(p0)
    nb = len(obs.centres)
    npc = len(obs.polys)
    if m == 0:
        return np.zeros((0, nb), dtype=bool), np.zeros((0, npc), dtype=bool)
    if base_sel is None and piece_sel is None:
        cols = slice(None)
        ea, eb, lim, onehot = obs.ea, obs.eb, obs.lim, obs.onehot
    else:
        want = np.zeros(nb + npc, dtype=bool)
        want[np.arange(nb) if base_sel is None else base_sel] = True
        want[nb + (np.arange(npc) if piece_sel is None else piece_sel)] = True
        cols = want[obs.col_owner]
        ea, eb, lim, onehot = obs.ea[cols], obs.eb[cols], obs.lim[cols], obs.onehot[cols]
    if len(ea):
        d = ssd_xy(
            p0[:, 0:1],
            p0[:, 1:2],
            p1[:, 0:1],
            p1[:, 1:2],
            ea[None, :, 0],
            ea[None, :, 1],
            eb[None, :, 0],
            eb[None, :, 1],
        )
        bad = ((d < lim[None, :]).astype(np.float32) @ onehot) > 0
    else:
        bad = np.zeros((m, nb + npc), dtype=bool)
    if npc and not ends_outside:
        pieces = np.arange(npc) if piece_sel is None else piece_sel
        for j in pieces.tolist():
            poly = obs.polys[j]
            bad[:, nb + j] |= shapely.contains_xy(poly, p0[:, 0], p0[:, 1]) | shapely.contains_xy(
                poly, p1[:, 0], p1[:, 1]
            )
    return bad[:, :nb], bad[:, nb:]


def _off_table(table: Table, pts: np.ndarray, r: float) -> np.ndarray:
    lo = r - 1e-9
    return (
        (pts[:, 0] < lo) | (pts[:, 0] > table.width - lo) | (pts[:, 1] < lo) | (pts[:, 1] > table.height - lo)
    )


# -- checking -----------------------------------------------------------------------------------


def check_path(
    table: Table,
    path: np.ndarray,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    max_length: float,
    flying: bool = False,
    contact_target: int | None = None,
    ignore: np.ndarray | None = None,
) -> PathProblem | None:
    """The whole path's legality (R-M2, R-M3, R-C3); None when legal, else the first problem.

    Legal: finite points, length <= max_length, every point on the table (whole base), never
    closer to an impassable piece than the mover's radius (unless flying, R-B4), never
    overlapping another base, never within CONTACT of an enemy it did not start touching, and,
    for a charge, ending in base contact with `contact_target`.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    radii = np.asarray(radii, dtype=float).reshape(-1)
    p = np.asarray(path, dtype=float).reshape(-1, 2)
    if len(p) == 0:
        return PathProblem("R-M2", "the path is empty")
    if not np.isfinite(p).all():
        return PathProblem("R-M2", "the path has a non-finite point")
    length = path_length(p)
    if length > max_length + LENGTH_TOL:
        return PathProblem("R-M2", f'the path is {length:.2f}" long; the allowance is {max_length:.2f}"')
    r = float(radii[mover])
    if _off_table(table, p, r).any():
        return PathProblem("R-M2", "the path leaves the table")
    p0 = p[:-1] if len(p) > 1 else p
    p1 = p[1:] if len(p) > 1 else p
    obs = _obstacles(
        table, mover, xy, radii, enemy, p[0], flying=flying, ignore=ignore, target=contact_target
    )
    bad_b, bad_t = _violations(obs, p0, p1)
    if bad_t.any():
        j = int(np.flatnonzero(bad_t.any(axis=0))[0])
        return PathProblem("R-M2", f"crosses impassable terrain `{table.names[obs.piece[j]]}`")
    if bad_b.any():
        j = int(np.flatnonzero(bad_b.any(axis=0))[0])
        m = int(obs.model[j])
        d = point_segment_distance(xy[m], p0, p1).min()
        if d < radii[m] + r - OVERLAP_TOL:
            return PathProblem("R-M2", f"passes through the base of model {m}")
        return PathProblem("R-M3", f"comes into base contact with enemy model {m}")
    end = p[-1]
    en = np.asarray(enemy, dtype=bool)
    # Enemies touched at the start may be moved away along, but the move may not end in contact.
    gap = np.sqrt(((xy - end) ** 2).sum(-1)) - radii - r
    still = en & (gap <= CONTACT)
    still[mover] = False
    if ignore is not None:
        still &= ~np.asarray(ignore, dtype=bool)
    if contact_target is not None:
        still[contact_target] = False
        g = float(gap[contact_target])
        if g > CONTACT:
            return PathProblem("R-C3", f'ends {g:.2f}" from the target, not in base contact')
    if still.any():
        return PathProblem("R-M3", f"ends in base contact with enemy model {int(np.flatnonzero(still)[0])}")
    return None


def check_straight_moves(
    table: Table,
    mover: int,
    starts: np.ndarray,
    ends: np.ndarray,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    max_length: float,
    flying: bool = False,
    ignore: np.ndarray | None = None,
) -> np.ndarray:
    """Batch form of `check_path` for many straight moves of one mover: (m,) bool legal.

    The same rules as `check_path` (without a charge target); enemies touched at the start of
    each move may be moved away from. One set of numpy kernels for all the moves.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    radii = np.asarray(radii, dtype=float).reshape(-1)
    s = np.asarray(starts, dtype=float).reshape(-1, 2)
    e = np.asarray(ends, dtype=float).reshape(-1, 2)
    s = np.broadcast_to(s, e.shape) if len(s) == 1 else s
    r = float(radii[mover])
    d = e - s
    ok = np.sqrt((d * d).sum(-1)) <= max_length + LENGTH_TOL
    ok &= np.isfinite(e).all(axis=1) & ~_off_table(table, e, r) & ~_off_table(table, s, r)
    obs = _obstacles(table, mover, xy, radii, None, s[0], flying=flying, ignore=ignore, target=None)
    bad_b, bad_t = _violations(obs, s, e)
    ok &= ~bad_b.any(axis=1) & ~bad_t.any(axis=1)
    en = np.asarray(enemy, dtype=bool)[obs.model]
    if en.any():
        c = obs.centres[en]
        lim = obs.clearance[en] + CONTACT
        at_start = np.sqrt(((s[:, None, :] - c[None]) ** 2).sum(-1)) <= lim[None] + 1e-9
        near = point_segment_distance(c[None], s[:, None, :], e[:, None, :]) <= lim[None]
        at_end = np.sqrt(((e[:, None, :] - c[None]) ** 2).sum(-1)) <= lim[None]
        ok &= ~((near & ~at_start) | at_end).any(axis=1)
    return ok


# -- searching ----------------------------------------------------------------------------------


def _base_nodes(obs: _Obstacles, sel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if len(sel) == 0:
        return np.empty((0, 2)), np.empty(0, dtype=int)
    ang = (np.arange(BASE_SIDES) + 0.5) * (2 * math.pi / BASE_SIDES)
    unit = np.stack([np.cos(ang), np.sin(ang)], axis=-1)
    rad = (obs.clearance[sel] + NODE_MARGIN) / math.cos(math.pi / BASE_SIDES)
    pts = obs.centres[sel, None, :] + rad[:, None, None] * unit[None]
    return pts.reshape(-1, 2), np.repeat(sel, BASE_SIDES)


def _legal_points(table: Table, obs: _Obstacles, pts: np.ndarray) -> np.ndarray:
    if len(pts) == 0:
        return np.zeros(0, dtype=bool)
    bad_b, bad_t = _violations(obs, pts, pts)
    return ~_off_table(table, pts, obs.radius) & ~bad_b.any(axis=1) & ~bad_t.any(axis=1)


def _astar(
    table: Table,
    obs: _Obstacles,
    start: np.ndarray,
    centre: np.ndarray,
    goal_r: float,
    inc_b: np.ndarray,
    inc_t: np.ndarray,
    ring: np.ndarray,
) -> np.ndarray | None:
    """A* from start to the disc (centre, goal_r) around the included obstacles only."""
    r = obs.radius
    bn, _ = _base_nodes(obs, inc_b)
    if len(inc_t):
        tn, towner = table.grown_nodes(r)
        tn = tn[np.isin(towner, inc_t)]
    else:
        tn = np.empty((0, 2))
    corners = np.vstack([bn, tn])
    corners = corners[_legal_points(table, obs, corners)] if len(corners) else corners
    goal_pts = ring if goal_r > 0 else centre[None, :]
    nodes = np.vstack([start[None, :], goal_pts, corners])
    n_goal = len(goal_pts)
    is_goal = np.zeros(len(nodes), dtype=bool)
    is_goal[1 : 1 + n_goal] = True
    dist_c = np.sqrt(((nodes - centre) ** 2).sum(-1))
    h = np.maximum(dist_c - goal_r, 0.0)
    h[is_goal] = 0.0
    g = np.full(len(nodes) + 1, np.inf)
    parent = np.full(len(nodes) + 1, -1)
    closed = np.zeros(len(nodes) + 1, dtype=bool)
    finish: dict[int, np.ndarray] = {}
    g[0] = 0.0
    heap: list[tuple[float, int]] = [(float(h[0]), 0)]
    fin_id = len(nodes)  # a virtual node: the straight finish from its parent
    while heap:
        _, u = heapq.heappop(heap)
        if closed[u]:
            continue
        closed[u] = True
        if u == fin_id or is_goal[u] or (goal_r > 0 and dist_c[u] <= goal_r + 1e-9):
            tail = [finish[u]] if u == fin_id else []
            v = int(parent[u]) if u == fin_id else u
            chain = []
            while v != -1:
                chain.append(nodes[v])
                v = int(parent[v])
            return np.array(chain[::-1] + tail)
        pu = nodes[u]
        open_idx = np.flatnonzero(~closed[:-1])
        if goal_r > 0:
            # The straight finish: toward the centre, stopping on the goal circle.
            dc = dist_c[u]
            q = centre + (pu - centre) * (goal_r / dc) if dc > 0 else pu
            cand_pts = np.vstack([nodes[open_idx], q[None, :]])
        else:
            cand_pts = nodes[open_idx]
        if len(cand_pts) == 0:
            continue
        p0 = np.broadcast_to(pu, cand_pts.shape)
        bad_b, bad_t = _violations(obs, p0, cand_pts, inc_b, inc_t, ends_outside=True)
        ok = ~bad_b.any(axis=1) & ~bad_t.any(axis=1)
        step = np.sqrt(((cand_pts - pu) ** 2).sum(-1))
        if goal_r > 0:
            fin_ok = bool(ok[-1]) and bool(_legal_points(table, obs, cand_pts[-1:])[0])
            ok = ok[:-1]
            if fin_ok:
                cost = g[u] + step[-1]
                if cost < g[fin_id]:
                    g[fin_id] = cost
                    parent[fin_id] = u
                    finish[fin_id] = cand_pts[-1]
                    heapq.heappush(heap, (float(cost), fin_id))
            step = step[:-1]
        for v, s in zip(open_idx[ok].tolist(), step[ok].tolist(), strict=True):
            cost = g[u] + s
            if cost < g[v]:
                g[v] = cost
                parent[v] = u
                heapq.heappush(heap, (float(cost + h[v]), v))
    return None


def _search(
    table: Table, obs: _Obstacles, start: np.ndarray, centre: np.ndarray, goal_r: float
) -> np.ndarray | None:
    """Shortest legal path from start to the disc (centre, goal_r), lazily adding obstacles."""
    # Fast path: the straight line to the nearest point of the goal is the shortest when it is clear.
    dc = float(np.hypot(*(start - centre)))
    if goal_r > 0 and dc > goal_r:
        direct = centre + (start - centre) * (goal_r / dc)
    elif goal_r > 0:
        direct = None
    else:
        direct = centre
    if direct is not None:
        bad_b, bad_t = _violations(obs, start[None, :], direct[None, :])
        if not bad_b.any() and not bad_t.any() and _legal_points(table, obs, direct[None, :])[0]:
            return np.array([start, direct]) if dc > 1e-12 else start[None, :].copy()
    if goal_r > 0:
        ang = np.arange(RING) * (2 * math.pi / RING)
        ring = centre + goal_r * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
        ring = ring[_legal_points(table, obs, ring)]
    else:
        ring = np.empty((0, 2))
        if not _legal_points(table, obs, centre[None, :])[0]:
            return None
    inc_b = np.empty(0, dtype=int)
    inc_t = np.empty(0, dtype=int)
    for _ in range(obs.count + 1):
        path = _astar(table, obs, start, centre, goal_r, inc_b, inc_t, ring)
        if path is None:
            return None
        if len(path) == 1:
            return path
        bad_b, bad_t = _violations(obs, path[:-1], path[1:])
        new_b = np.setdiff1d(np.flatnonzero(bad_b.any(axis=0)), inc_b)
        new_t = np.setdiff1d(np.flatnonzero(bad_t.any(axis=0)), inc_t)
        if len(new_b) == 0 and len(new_t) == 0:
            return path
        inc_b = np.union1d(inc_b, new_b)
        inc_t = np.union1d(inc_t, new_t)
    return None


def _prepare(xy: np.ndarray, radii: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(xy, dtype=float).reshape(-1, 2), np.asarray(radii, dtype=float).reshape(-1)


def shortest_path(
    table: Table,
    start: np.ndarray,
    goal: np.ndarray,
    mover: int,
    xy: np.ndarray,
    radii: np.ndarray,
    *,
    flying: bool = False,
    ignore: np.ndarray | None = None,
    enemy: np.ndarray | None = None,
) -> np.ndarray | None:
    """Shortest path (k, 2) from start to goal around impassable terrain and other bases.

    With `enemy` given, enemies are also kept out of base contact (R-M3). None if the goal is
    illegal or unreachable. Corners hug octagons circumscribing the grown bases, so the length
    is within a couple of per cent of the true shortest.
    """
    xy, radii = _prepare(xy, radii)
    s = np.asarray(start, dtype=float).reshape(2)
    gl = np.asarray(goal, dtype=float).reshape(2)
    obs = _obstacles(table, mover, xy, radii, enemy, s, flying=flying, ignore=ignore, target=None)
    return _search(table, obs, s, gl, 0.0)


def _nearest_free_radius(table: Table, obs: _Obstacles, goal: np.ndarray) -> float | None:
    """Smallest ring radius around an illegal goal that has a legal point on it (sampled)."""
    rho = 0.05
    limit = max(table.width, table.height)
    while rho < limit:
        ang = np.arange(RING) * (2 * math.pi / RING)
        ring = goal + rho * np.stack([np.cos(ang), np.sin(ang)], axis=-1)
        if _legal_points(table, obs, ring).any():
            return rho
        rho = rho * 1.3 + 0.05
    return None


def move_toward(
    table: Table,
    mover: int,
    goal: np.ndarray,
    budget: float,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    flying: bool = False,
    ignore: np.ndarray | None = None,
) -> np.ndarray | None:
    """A legal path of length <= budget as far as possible along the shortest path toward `goal`.

    If the goal itself is occupied (a target's centre, a point in terrain) the path heads for
    the nearest free ring around it. The path never comes into contact with an enemy, so it is a
    failed charge's move (R-C3) as well as a plain move. None when no move is possible.
    """
    xy, radii = _prepare(xy, radii)
    start = xy[mover].copy()
    gl = np.asarray(goal, dtype=float).reshape(2)
    obs = _obstacles(table, mover, xy, radii, enemy, start, flying=flying, ignore=ignore, target=None)
    if _legal_points(table, obs, gl[None, :])[0]:
        path = _search(table, obs, start, gl, 0.0)
    else:
        rho = _nearest_free_radius(table, obs, gl)
        path = None if rho is None else _search(table, obs, start, gl, rho)
    if path is None or budget <= 0:
        return None
    path = truncate_path(path, budget)
    if path_length(path) <= 1e-9:
        return None
    return path


def charge_path(
    table: Table,
    mover: int,
    target: int,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    flying: bool = False,
    ignore: np.ndarray | None = None,
) -> tuple[np.ndarray, float] | None:
    """R-C3: the shortest path into base contact with `target`, and its length (the charge range).

    The path ends touching the target (edge distance APPROACH, well inside CONTACT), comes into
    contact with no other enemy, and goes around bases and impassable terrain. None if no point
    of contact can be reached.
    """
    xy, radii = _prepare(xy, radii)
    start = xy[mover].copy()
    obs = _obstacles(table, mover, xy, radii, enemy, start, flying=flying, ignore=ignore, target=target)
    goal_r = float(radii[mover] + radii[target]) + APPROACH
    path = _search(table, obs, start, xy[target], goal_r)
    if path is None:
        return None
    return path, path_length(path)


def retreat_path(
    table: Table,
    mover: int,
    away_from: np.ndarray,
    distance: float,
    xy: np.ndarray,
    radii: np.ndarray,
    enemy: np.ndarray,
    *,
    flying: bool = False,
    ignore: np.ndarray | None = None,
) -> np.ndarray | None:
    """R-E2: a legal straight move of up to `distance` that ends as far as possible from a point.

    Candidate moves fan out from straight away (0°, ±15°, ... ±90°) at several lengths, checked
    in one batch; the legal one ending farthest from `away_from` wins (the shorter on a tie, then
    the fan order). None if every candidate is illegal.
    """
    xy, radii = _prepare(xy, radii)
    start = xy[mover].copy()
    away = np.asarray(away_from, dtype=float).reshape(2)
    d = start - away
    base_ang = math.atan2(d[1], d[0]) if float(np.hypot(*d)) > 1e-12 else 0.0
    offs = np.deg2rad(np.array([0, 15, -15, 30, -30, 45, -45, 60, -60, 75, -75, 90, -90], dtype=float))
    ang = base_ang + offs
    fracs = np.linspace(1.0, 0.1, 10)
    dirs = np.stack([np.cos(ang), np.sin(ang)], axis=-1)
    ends = (start[None, None, :] + distance * fracs[None, :, None] * dirs[:, None, :]).reshape(-1, 2)
    ok = check_straight_moves(
        table,
        mover,
        start[None, :],
        ends,
        xy,
        radii,
        enemy,
        max_length=distance,
        flying=flying,
        ignore=ignore,
    )
    if not ok.any():
        return None
    far = np.sqrt(((ends - away) ** 2).sum(-1))
    score = np.where(ok, far, -np.inf)
    best = int(np.argmax(score))
    return np.vstack([start, ends[best]])
